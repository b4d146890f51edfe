"""Postings read whole: a term's document numbers, weights and encoded positions in arrays
(`postings`), and the positions of words in topic documents read from them (`Positions`),
for the bulk evaluation of queries (`kb.search.bulk`). Whoosh's own readers decode a block
of postings at a time; here every block of a term is decoded at once, and positions are
decoded (as Whoosh's ``Positions`` format does) only for the documents asked about.
"""

from __future__ import annotations

import itertools
import pickle
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from whoosh import formats
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.matching import ListMatcher
from whoosh.matching.wrappers import FilterMatcher
from whoosh.searching import Searcher
from whoosh.system import _INT_SIZE

from kb.layout import STRIDE
from kb.search import matching

Ids = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]
NONE = np.zeros(0, dtype=np.int64)
ZERO = np.zeros(0, dtype=np.float64)


class Unsupported(Exception):
    """A query (or a segment) of a shape `evaluate` leaves to Whoosh's matchers."""


@dataclass
class Read:
    """One term's postings read whole (in one segment): documents, scores, and encoded positions
    (when its field has them)."""

    ids: Ids
    scores: Scores
    values: list[Any] | None


def postings(matcher: Any, positions: bool = False) -> tuple[Ids, Scores, list[Any] | None]:
    """The document numbers and weights of one term's postings, read whole; with ``positions``,
    their values too (encoded positions, decoded when asked for: `Positions`)."""
    values: list[Any] | None = [] if positions else None
    deleted: frozenset[int] = frozenset()
    if isinstance(matcher, FilterMatcher):
        if not matcher._exclude:
            raise Unsupported("a filter")
        deleted, matcher = matcher._ids, matcher.child
    if type(matcher) is ListMatcher:
        ids = np.asarray(matcher._ids, dtype=np.int64)
        if matcher._all_weights:
            weights = np.full(len(ids), float(matcher._all_weights))
        elif matcher._weights:
            weights = np.asarray(matcher._weights, dtype=np.float64)
        else:
            weights = np.ones(len(ids))
        if values is not None:
            values = list(matcher._values) if matcher._values else [None] * len(ids)
    elif type(matcher) is W3LeafMatcher:
        if matcher._byteids:
            raise Unsupported("byte ids")
        id_blocks, weight_blocks = [], []
        while matcher.is_active():
            matcher._read_data()
            id_blocks.append(np.cumsum(np.asarray(matcher._data[0], dtype=np.int64)))
            matcher._read_weights()
            weight_blocks.append(np.asarray(matcher._weights, dtype=np.float64))
            if values is not None:
                matcher._read_values()
                values.extend(matcher._values)
            matcher._next_block()
        ids = np.concatenate(id_blocks) if id_blocks else NONE
        weights = np.concatenate(weight_blocks) if weight_blocks else ZERO
    else:
        raise Unsupported(type(matcher).__name__)
    if deleted:
        keep = ~np.isin(ids, np.fromiter(deleted, dtype=np.int64))
        ids, weights = ids[keep], weights[keep]
        values = None if values is None else [v for v, k in zip(values, keep.tolist(), strict=True) if k]
    return ids, weights, values


class Positions(matching.Positions):
    """`kb.search.matching.Positions` for the topic documents ``docnums``, reading a word's
    positions from its postings as a search read them whole (`evaluate`, in ``read``) when it
    did: where each of those documents stands in them is looked up for all at once."""

    def __init__(self, searcher: Searcher, read: dict[Any, Read], docnums: list[int]) -> None:
        super().__init__(searcher)
        self.read = read if searcher.is_atomic() else {}
        self.key = id(searcher)
        self.docnums = np.asarray(sorted(docnums), dtype=np.int64)
        self.places: dict[tuple[str, Any], tuple[dict[int, int], list[Any], Any] | None] = {}
        self.held: dict[tuple[str, Any, int], frozenset[int]] = {}

    def of(self, fieldname: str, word: Any, docnum: int) -> list[int]:
        found = self._place(fieldname, word)
        if found is None:
            return super().of(fieldname, word, docnum)
        where, values, field_format = found
        at = where.get(docnum)
        return [] if at is None else decoded(field_format, values[at])

    def versions(self, fieldname: str, word: Any, docnum: int) -> frozenset[int]:
        found = self.places.get((fieldname, word), MISSING)
        if found is MISSING:
            found = self._place(fieldname, word)
        if found is None:
            return super().versions(fieldname, word, docnum)
        where, values, field_format = found
        at = where.get(docnum)
        if at is None:
            return NO_VERSIONS
        key = (fieldname, word, docnum)
        held = self.held.get(key)
        if held is None:  # asked for the query, then for each of its words
            held = self.held[key] = frozenset(p // STRIDE for p in decoded(field_format, values[at]))
        return held

    def _place(self, fieldname: str, word: Any) -> tuple[dict[int, int], list[Any], Any] | None:
        key = (fieldname, word)
        if key not in self.places:
            self.places[key] = self._places(fieldname, word)
        return self.places[key]

    def _places(self, fieldname: str, word: Any) -> tuple[dict[int, int], list[Any], Any] | None:
        """Where each of the documents stands in the postings of ``word`` (those holding it), the
        postings' values and format; None when they were not read whole."""
        if fieldname not in self.reader.schema:
            return None
        field = self.reader.schema[fieldname]
        try:
            entry = self.read.get((self.key, 0, fieldname, field.to_bytes(word)))
        except ValueError:
            return None
        if entry is None or entry.values is None:
            return None
        at = np.searchsorted(entry.ids, self.docnums)
        inside = at < len(entry.ids)
        held = np.zeros(len(at), dtype=bool)
        held[inside] = entry.ids[at[inside]] == self.docnums[inside]
        where = dict(zip(self.docnums[held].tolist(), at[held].tolist(), strict=True))
        return where, entry.values, field.format


NO_VERSIONS: frozenset[int] = frozenset()
MISSING: Any = object()


def decoded(field_format: Any, value: bytes) -> list[int]:
    """The positions a posting's value holds: what Whoosh's ``Positions.decode_positions`` gives
    (a count, then the pickled gaps between positions), added up in C."""
    if type(field_format) is not formats.Positions:
        return list(field_format.decode_as("positions", value))
    if not value.endswith(b"."):
        value += b"."
    return list(itertools.accumulate(pickle.loads(value[_INT_SIZE:])))
