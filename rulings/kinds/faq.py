"""The kind ``faq``: ``Q:`` / ``A:`` pairs (`rulings.faq`), informal answers.

A whole FAQ restates its series: the questions it omits are rescinded.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register
from rulings.model import Document, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse an FAQ (`rulings.faq.parse_faq`)."""
    from rulings.faq import parse_faq

    return parse_faq(document, source)


KIND = register(
    Kind(
        name="faq",
        parse=parse,
        versions=Versions(RESTATEMENT, series="faq", rescinds=ALWAYS, topics=("question",)),
        rank=1,
        called="an FAQ",
    )
)
