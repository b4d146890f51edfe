"""The kind ``glossary``: ``headword – text`` entries in alphabetical order (`rulings.glossary`).

A whole Glossary restates the Glossary: what it omits is rescinded, and the Current Rulings
before it are consolidated into it; its temporary rulings are Current Rulings.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register
from rulings.model import Document, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Glossary (`rulings.glossary.parse_glossary`)."""
    from rulings.glossary import parse_glossary

    return parse_glossary(document, source, titles)


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
    )
)
