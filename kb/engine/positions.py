"""The positions of words in topic documents (`kb.engine.version_matching.Positions`), read from their
postings as a search read them whole (`kb.engine.postings`) when it did: where each of the
documents asked about stands in them is looked up for all at once (`kb.engine.postings.placed`;
over an index an add has layered, in the postings of its segments joined:
`kb.engine.bulk.scored`), and the versions a word's positions fall in are found once."""

from __future__ import annotations

from typing import Any

import numpy as np

from kb.engine import version_matching as matching
from kb.engine.postings import Placed, Read, placed
from kb.engine.searching import Searcher
from kb.layout import STRIDE


class Positions(matching.Positions):
    """`kb.engine.version_matching.Positions` for the topic documents ``docnums``, reading a word's
    positions from its postings as a search read them whole (`evaluate`, in ``read``) when it
    did: where each of those documents stands in them is looked up for all at once."""

    def __init__(self, searcher: Searcher, read: dict[Any, Read], docnums: list[int]) -> None:
        super().__init__(searcher)
        self.read = read
        self.key = id(searcher)
        self.docnums = np.asarray(sorted(docnums), dtype=np.int64)
        self.places: dict[tuple[str, Any], Placed | None] = {}
        self.held: dict[tuple[str, Any, int], frozenset[int]] = {}

    def of(self, fieldname: str, word: Any, docnum: int) -> list[int]:
        found = self._place(fieldname, word)
        if found is None:
            return super().of(fieldname, word, docnum)
        return found.positions(docnum)

    def versions(self, fieldname: str, word: Any, docnum: int) -> frozenset[int]:
        found = self._place(fieldname, word)
        if found is None:
            return super().versions(fieldname, word, docnum)
        if docnum not in found.where:
            return NO_VERSIONS
        key = (fieldname, word, docnum)
        held = self.held.get(key)
        if held is None:  # asked for the query, then for each of its words
            held = self.held[key] = frozenset({p // STRIDE for p in found.positions(docnum)})
        return held

    def _place(self, fieldname: str, word: Any) -> Placed | None:
        """Where each of the documents stands in the postings of ``word`` (those holding it); None
        when the search did not read them whole."""
        key = (fieldname, word)
        if key not in self.places:
            self.places[key] = placed(self.reader, self.read, self.key, fieldname, word, self.docnums)
        return self.places[key]


NO_VERSIONS: frozenset[int] = frozenset()
