"""The positions of words in topic documents (`kb.engine.version_matching.Positions`), read from their
postings as a search read them whole (`kb.engine.postings`) when it did: where each of the
documents asked about stands in them is looked up for all at once (over an index an add has
layered, in the postings of its segments joined: `kb.search.bulk.scored`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kb.engine import version_matching as matching
from kb.engine.postings import Read, decoded
from kb.engine.searching import Searcher
from kb.layout import STRIDE

Place = tuple[Sequence[Any], int]
"""Where a document stands in a word's postings: their values, and its place there."""


class Positions(matching.Positions):
    """`kb.engine.version_matching.Positions` for the topic documents ``docnums``, reading a word's
    positions from its postings as a search read them whole (`evaluate`, in ``read``) when it
    did: where each of those documents stands in them is looked up for all at once."""

    def __init__(self, searcher: Searcher, read: dict[Any, Read], docnums: list[int]) -> None:
        super().__init__(searcher)
        self.read = read
        self.key = id(searcher)
        self.docnums = np.asarray(sorted(docnums), dtype=np.int64)
        self.places: dict[tuple[str, Any], tuple[dict[int, Place], Any] | None] = {}
        self.held: dict[tuple[str, Any, int], frozenset[int]] = {}

    def of(self, fieldname: str, word: Any, docnum: int) -> list[int]:
        found = self._place(fieldname, word)
        if found is None:
            return super().of(fieldname, word, docnum)
        where, field_format = found
        at = where.get(docnum)
        return [] if at is None else decoded(field_format, at[0][at[1]])

    def versions(self, fieldname: str, word: Any, docnum: int) -> frozenset[int]:
        found = self.places.get((fieldname, word), MISSING)
        if found is MISSING:
            found = self._place(fieldname, word)
        if found is None:
            return super().versions(fieldname, word, docnum)
        where, field_format = found
        at = where.get(docnum)
        if at is None:
            return NO_VERSIONS
        key = (fieldname, word, docnum)
        held = self.held.get(key)
        if held is None:  # asked for the query, then for each of its words
            held = self.held[key] = frozenset({p // STRIDE for p in decoded(field_format, at[0][at[1]])})
        return held

    def _place(self, fieldname: str, word: Any) -> tuple[dict[int, Place], Any] | None:
        key = (fieldname, word)
        if key not in self.places:
            self.places[key] = self._places(fieldname, word)
        return self.places[key]

    def _places(self, fieldname: str, word: Any) -> tuple[dict[int, Place], Any] | None:
        """Where each of the documents stands in the postings of ``word`` (those holding it), and
        the postings' format; None when the search did not read them whole."""
        if fieldname not in self.reader.schema:
            return None
        field = self.reader.schema[fieldname]
        try:
            raw = field.to_bytes(word)
        except ValueError:
            return None
        entry = self.read.get((self.key, fieldname, raw))
        if entry is None or entry.values is None:
            return None
        at = np.searchsorted(entry.ids, self.docnums)
        inside = at < len(entry.ids)
        held = np.zeros(len(at), dtype=bool)
        held[inside] = entry.ids[at[inside]] == self.docnums[inside]
        values = entry.values
        pairs = zip(self.docnums[held].tolist(), at[held].tolist(), strict=True)
        where: dict[int, Place] = {docnum: (values, place) for docnum, place in pairs}
        return where, field.format


NO_VERSIONS: frozenset[int] = frozenset()
MISSING: Any = object()
