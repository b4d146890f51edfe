"""The kind ``current-rulings``: a whole Current Rulings document (`rulings.kinds.current_rulings.parser`).

Each ruling replaces the one before on its topic, or amends another entry; a whole document
(not a ``part``) rescinds the rulings it omits.
"""

from __future__ import annotations

from rulings.kinds import ALWAYS, RULINGS, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText


def parse(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings document (`rulings.kinds.current_rulings.parser.parse_current`)."""
    from rulings.kinds.current_rulings.parser import parse_current

    return parse_current(document, source, titles)


def shaped(entry: Entry) -> bool:
    """A ruling (or heading, change summary) headed by a topic of ten words at most."""
    return term(entry.headword, 10)


KIND = register(
    Kind(
        name="current-rulings",
        parse=parse,
        versions=Versions(RULINGS, series="current-rulings", rescinds=ALWAYS, topics=("ruling",)),
        rank=4,
        called="the Current Rulings",
        shaped=shaped,
        itself=r"current\s+rulings(?!\s+update)",
        starts=r"^\*?\s*[A-Z][^-\u2013.]{1,50}\s-\s\S",
        entries="Current Rulings topics",
    )
)
