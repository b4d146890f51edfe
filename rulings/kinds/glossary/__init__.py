"""The kind ``glossary``: ``headword – text`` entries in alphabetical order (`rulings.kinds.glossary.parser`).

A whole Glossary restates the Glossary: what it omits is rescinded, and the Current Rulings
before it are consolidated into it; its temporary rulings are Current Rulings.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseError, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Glossary (`rulings.kinds.glossary.parser.parse_glossary`); refused in one line when a third of its
    headwords or more are rule numbers (``5.1.1. Ready``): the document is numbered rules."""
    from rulings.kinds.glossary.parser import parse_glossary
    from rulings.numbering.rule_numbers import numbered_rules

    result = parse_glossary(document, source, titles)
    heads = [e for e in result.entries if e.kind == "glossary entry"]
    numbered = [e for e in heads if numbered_rules([e.headword])]
    if heads and 3 * len(numbered) >= len(heads) and (why := numbered_rules(source.lines)):
        raise ParseError(
            document.path,
            numbered[0].span.start,
            f"not a Glossary: {len(numbered)} of its {len(heads)} headwords are rule numbers "
            f"({numbered[0].headword!r}) and {why}; the document is numbered rules (--kind comprehensive-rules)",
        )
    return result


def shaped(entry: Entry) -> bool:
    """An entry (or temporary ruling, or section) headed by a term, not a sentence; or a sub-heading of the
    entry a page begins inside as the Glossary prints them, one word (``Cures –``, ``“Stopping” –``): the
    Glossary's own layout, read as such (no topic of its own). A sub-heading of several words may be a
    card the catalog in use lacks (``Temporal Rift``): not read."""
    if entry.kind == "sub-heading":
        return len(entry.headword.split()) == 1
    return entry.kind in ("glossary entry", "temporary ruling", "section") and term(entry.headword)


KIND = register(
    Kind(
        name="glossary",
        parse=parse,
        versions=Versions(
            RESTATEMENT,
            series="glossary",
            rescinds=ALWAYS,
            topics=("glossary entry",),
            consolidates=("current-rulings",),
            also=(("temporary ruling", "current-rulings"),),
        ),
        rank=3,
        called="the Glossary",
        shaped=shaped,
        itself=r"\bglossary\b",
        starts=r"^[^-\u2013\u2014.]{1,50}\s[-\u2013\u2014]\s?\S",
        entries="Glossary entries",
    )
)
