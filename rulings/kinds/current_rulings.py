"""The kind ``current-rulings``: a whole Current Rulings document (`rulings.current`).

Each ruling replaces the one before on its topic, or amends another entry; a whole document
(not a ``part``) rescinds the rulings it omits.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RULINGS, Kind, Versions, register
from rulings.model import Document, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings document (`rulings.current.parse_current`)."""
    from rulings.current import parse_current

    return parse_current(document, source, titles)


KIND = register(
    Kind(
        name="current-rulings",
        parse=parse,
        versions=Versions(RULINGS, series="current-rulings", rescinds=ALWAYS, topics=("ruling",)),
        rank=4,
        called="the Current Rulings",
    )
)
