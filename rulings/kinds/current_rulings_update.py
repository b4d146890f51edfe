"""The kind ``current-rulings-update``: the rulings added since the last Current Rulings
(`rulings.kinds.current_rulings`).

Read as a Current Rulings document (its parser and entry shape are those of `current_rulings`);
it adds to the Current Rulings and rescinds nothing.
"""

from __future__ import annotations

from rulings.kinds import NEVER, RULINGS, Kind, Versions, register
from rulings.kinds.current_rulings import parse, shaped

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
