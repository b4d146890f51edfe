"""The kind ``rulebook``: numbered sections, phases, items and deck lists (`rulings.kinds.rulebook.parser`).

Its text is read as printed (no forum-noise cleaning: the rulebook parser merges repeated
copies itself). Each lineage of rulebooks (one superseding another) is its own series; a
rulebook that supersedes another rescinds the sections it omits.
"""

from __future__ import annotations

from rulings.kinds import RESTATEMENT, SUPERSEDING, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseError, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a rulebook (`rulings.kinds.rulebook.parser.parse_rulebook`); refused in one line when it reads a
    document of numbered rules as a giant entry (`rulings.numbering.rule_numbers.GIANT` characters or more)."""
    from rulings.kinds.rulebook.parser import parse_rulebook
    from rulings.numbering.rule_numbers import GIANT, numbered_rules

    result = parse_rulebook(document, source, titles)
    giant = max(result.entries, key=lambda e: len(e.text), default=None)
    if giant is not None and len(giant.text) > GIANT and (why := numbered_rules(source.lines)):
        raise ParseError(
            document.path,
            giant.span.start,
            f"not a rulebook: its section {giant.headword!r} would hold {len(giant.text):,} characters and {why}; "
            "the document is numbered rules (--kind comprehensive-rules)",
        )
    return result


def shaped(entry: Entry) -> bool:
    """A section, item or table row headed by a heading of a dozen words at most (a preamble, the
    text before any heading, is the document's, like an introduction: not read as a section)."""
    return entry.kind in ("table row", "card list") or (entry.kind != "preamble" and term(entry.headword, 12))


KIND = register(
    Kind(
        name="rulebook",
        parse=parse,
        versions=Versions(
            RESTATEMENT,
            series="rulebook",
            rescinds=SUPERSEDING,
            not_topics=("introduction", "heading", "change summary", "note"),
            lineage=True,
        ),
        rank=2,
        called="the Rulebook",
        cleaned=False,
        shaped=shaped,
        itself=r"\brulebook\b(?!\s+glossary)|\btable of contents\b|\bquick-start rules\b",
        starts=r"^(?:\d{1,2}[.)]\s+\S|phase (?:one|two|three)\b)",
        entries="rulebook sections",
    )
)
