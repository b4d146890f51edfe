"""The kind ``current-rulings-update``: the rulings added since the last Current Rulings (`rulings.current`).

Read as a Current Rulings document; it adds to the Current Rulings and rescinds nothing.
"""

from __future__ import annotations

from rulings.kinds import NEVER, RULINGS, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings update (`rulings.current.parse_current`)."""
    from rulings.current import parse_current

    return parse_current(document, source, titles)


def shaped(entry: Entry) -> bool:
    """A ruling (or heading, change summary) headed by a topic of ten words at most."""
    return term(entry.headword, 10)


KIND = register(
    Kind(
        name="current-rulings-update",
        parse=parse,
        versions=Versions(RULINGS, series="current-rulings", rescinds=NEVER, topics=("ruling",)),
        rank=4,
        called="the Current Rulings",
        shaped=shaped,
        itself=r"current\s+rulings\s+update|\bupdate\b",
        starts=r"^\*?\s*[A-Z][^-\u2013.]{1,50}\s-\s\S",
        entries="Current Rulings topics",
    )
)
