"""The days each version of the history index's topic documents (`kb.index.history`) is in force,
as arrays read once per index state: a search as of a date keeps, before ranking, only the
topics with a version in force then, and of the versions a query matches only those in force,
without reading a topic's stored fields again (`kb.search.history`).

The k-th version of topic document d stands at place ``first[d] + k`` of the arrays (its id,
first day in force, first day no longer in force); a deleted document has no versions. The
arrays are read from the stored fields once, for every segment of the searcher's index, and
kept in the index's tables (`kb.engine.memo`) for every thread's searches that follow.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kb.engine import memo
from kb.engine.postings import Ids, segment_of

Days = npt.NDArray[np.int32]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Validity:
    """Every version of every topic document of a searcher's index, in document order."""

    first: Ids
    """Where each document's versions begin (one more than the documents: the end of the last)."""
    ids: Days
    starts: Days
    ends: Days
    topics: tuple[str, ...]
    """Each document's topic ("" for a deleted document)."""
    nonempty: Ids
    """The documents with versions (a deleted one has none)."""
    segments: tuple[Any, ...] | None = None
    """The segments read (`kb.engine.postings.segment_of`), in order: its key in the table (weighed with it)."""

    def on(self, day: int) -> InForce:
        """The versions, and the topic documents with a version, in force on ``day``."""
        versions = (self.starts <= day) & (day < self.ends)
        topics = np.zeros(len(self.topics), dtype=bool)
        if len(self.nonempty):
            topics[self.nonempty] = np.logical_or.reduceat(versions, self.first[self.nonempty])
        return InForce(self, versions, topics)

    def found(self, docnum: int, which: list[int]) -> tuple[str, list[int], int]:
        """Topic document ``docnum``'s topic, the ids of its versions numbered ``which`` (in
        order), and that of the newest of them (the latest first day in force, then the
        highest id)."""
        at = int(self.first[docnum])
        ids = self.ids[at : at + max(which) + 1].tolist()
        starts = self.starts[at : at + max(which) + 1].tolist()
        newest = max(which, key=lambda k: (starts[k], ids[k]))
        return self.topics[docnum], [ids[k] for k in which], ids[newest]


@dataclass(frozen=True, slots=True)
class InForce:
    """What of a `Validity` is in force on one day: each version (by place), each topic document."""

    validity: Validity
    versions: Mask
    topics: Mask

    def held(self, docnum: int) -> set[int]:
        """The versions (numbered within the topic) of document ``docnum`` in force."""
        first = self.validity.first
        return set(np.flatnonzero(self.versions[first[docnum] : first[docnum + 1]]).tolist())


def of(searcher: Any) -> Validity:
    """The versions' days of ``searcher``'s index (the history index), read from its stored
    fields on first use and kept in its tables (`kb.engine.memo`) for the searches that follow.
    (The searcher is only asked for its segments' readers: this module takes none of Whoosh's
    objects by name, `tests/test_layers.py`.)"""
    leaves = searcher.leaf_searchers()
    segments = [segment_of(sub.reader()) for sub, _ in leaves]
    key = None if None in segments else tuple(segments)
    kept = memo.of(searcher).days
    found: Validity | None = None if key is None else kept.get(key)
    if found is None:
        found = _read([sub.reader() for sub, _ in leaves], key)
        if key is not None:
            kept.put(key, found)
    return found


def _read(readers: list[Any], segments: tuple[Any, ...] | None) -> Validity:
    """The versions of the documents of ``readers`` (the segments, in order) from their stored fields."""
    counts: list[int] = []
    spans: list[tuple[int, int, int]] = []
    topics: list[str] = []
    for reader in readers:
        deletions = reader.has_deletions()
        for docnum in range(reader.doc_count_all()):
            if deletions and reader.is_deleted(docnum):
                counts.append(0)
                topics.append("")
                continue
            stored = reader.stored_fields(docnum)
            counts.append(len(stored["versions"]))
            spans.extend(stored["versions"])
            topics.append(stored["topic"])
    first = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=first[1:])
    # flattened first: twice the speed of np.asarray over the tuples
    flat = np.fromiter(itertools.chain.from_iterable(spans), dtype=np.int32, count=3 * len(spans))
    table = flat.reshape(-1, 3)
    ids, starts, ends = (np.ascontiguousarray(table[:, column]) for column in range(3))
    nonempty = np.flatnonzero(np.asarray(counts, dtype=np.int64) > 0).copy()  # its own data (weighed)
    for array in (first, ids, starts, ends, nonempty):
        array.setflags(write=False)
    return Validity(first, ids, starts, ends, tuple(topics), nonempty, segments)
