"""How much a hit in each searched field of the indexes counts: BM25F's field boosts, defined once.

The indexes' schemas take them (`kb.index.writer`, `kb.index.history`: Whoosh keeps each field's
boost in the index, and the bulk scorer reads it from there, `kb.engine.weighting`), and the
export's search index carries them (`kb.search.offline`, ``boosts``) for the browser's script
(``static/offline_index.js``), which holds no copy of its own. A headword's words count most, then
their stems, the card names a version names and theirs, the text, and the extra text (a table
row's cells, "See X" references: `kb.texts.extra_text`) least.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

BOOSTS: Final = MappingProxyType(
    {"headword": 4.0, "headstem": 2.5, "cards": 2.0, "cardstem": 1.5, "text": 1.0, "extra": 0.8}
)
"""Each searched field -> its boost (the field's words counted that many times, before BM25's saturation)."""
