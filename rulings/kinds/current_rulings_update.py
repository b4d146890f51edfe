"""The kind ``current-rulings-update``: the rulings added since the last Current Rulings (`rulings.current`).

Read as a Current Rulings document; it adds to the Current Rulings and rescinds nothing.
"""

from __future__ import annotations

from rulings.kinds import NEVER, RULINGS, Kind, Versions, register
from rulings.model import Document, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings update (`rulings.current.parse_current`)."""
    from rulings.current import parse_current

    return parse_current(document, source, titles)


KIND = register(
    Kind(
        name="current-rulings-update",
        parse=parse,
        versions=Versions(RULINGS, series="current-rulings", rescinds=NEVER, topics=("ruling",)),
        rank=4,
        called="the Current Rulings",
    )
)
