"""The kind ``faq``: ``Q:`` / ``A:`` pairs (`rulings.kinds.faq.parser`), informal answers.

A whole FAQ restates its series: the questions it omits are rescinded.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse an FAQ (`rulings.kinds.faq.parser.parse_faq`)."""
    from rulings.kinds.faq.parser import parse_faq

    return parse_faq(document, source)


def shaped(entry: Entry) -> bool:
    """A question with its answer (headed by its name or by the question itself), or a group's heading."""
    return (entry.kind == "question" and bool(entry.text)) or (entry.kind == "section" and term(entry.headword))


KIND = register(
    Kind(
        name="faq",
        parse=parse,
        versions=Versions(RESTATEMENT, series="faq", rescinds=ALWAYS, topics=("question",)),
        rank=1,
        called="an FAQ",
        shaped=shaped,
        itself=r"\bFAQ\b|frequently asked",
        starts=r"(?:^|\s)\+?Q[:.]\s",
        entries="FAQ questions and answers",
    )
)
