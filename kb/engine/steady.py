"""What makes a search answer the same whatever the segments of the index it reads.

A full build writes each index as one segment; an incremental add (`kb.index.writer`) leaves
the previous segments, their rewritten documents deleted, and adds a segment of its own. The
statistics scores are made of come from the live documents (`kb.engine.weighting`); this
module makes the rest independent of the segments too:

- `steady`: Whoosh shapes the matcher of an ``Or`` or ``And`` by each segment's word counts
  (a Huffman-like tree, or an array of scores for a segment of under 5,000 documents), so a
  document's score is a sum of floating-point numbers added in an order that depends on the
  segment, and two layouts differ in the last bits. A steady query adds its parts in one order,
  the query's own (a binary tree of its parts).
- `SteadyTop` and `SteadyAll`: Whoosh orders documents of equal score by document number, which
  a rewritten document changes (it moves to the new segment), and keeps whichever of several
  documents tied for the last place it met first. These keep every document tied for the last
  place and order documents of equal score by their version (in-force index) or their topic's
  first version (history index), as a full build's document numbers do (`order_key`; read
  once per index state for every document, `order_keys`, kept in the index's tables). Whoosh's
  shortcut of skipping documents that cannot beat the last place is kept, with a margin so that
  a document tied with it is never skipped.
- Once the last place's score is known, Whoosh replaces a matcher by a cheaper one that only
  finds documents that can still reach it (an ``Or`` whose one side cannot becomes an ``And``).
  That drops documents that belong among the best, in one segment as in several (over every
  version of the 90k stress library, four of the best twelve topics for "collector attack
  discs", with scores 17.8 to 16.7, where the twelfth has 16.2), so `SteadyTop` does not replace
  matchers. Skipping blocks that cannot reach the last place stays for an index without
  deleted documents; over segments with deleted documents it too was seen to drop one of the
  best (1 of 459 searches after 20 adds to the 90k stress library), so it is not done there.
- Whoosh filters the deleted documents out of a segment's postings with a ``FilterMatcher``,
  whose skip to the next block good enough (the same shortcut) may land on a deleted document
  and keep it: a replaced version would then be scored and found. `_skip_to_quality` mends it
  (for every ``FilterMatcher``, when this module is imported): after the skip, it moves on to a
  document the filter keeps, as every other move of the matcher does.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

import numpy as np
import numpy.typing as npt

from kb.engine import memo
from kb.engine.postings import segment_of
from kb.engine.searching import collectors, matching, query, wrappers

MARGIN = 1e-9
"""How far below the last place's score (relatively) a document may be skipped: far above the
rounding of a sum of scores, far below any difference of scores that ranks."""


def _skip_to_quality(self: wrappers.FilterMatcher, minquality: float) -> int:
    """Whoosh's ``WrappingMatcher.skip_to_quality``, then on to a document the filter keeps."""
    skipped: int = self.child.skip_to_quality(minquality / self.boost)
    self._find_next()
    return skipped


wrappers.FilterMatcher.skip_to_quality = _skip_to_quality


class SteadyOr(query.Or):  # type: ignore[misc]
    """Whoosh's ``Or``, its parts' scores added in the query's order in every segment."""

    def _matcher(self, subs: list[query.Query], searcher: Any, context: Any) -> Any:
        return self._tree_matcher(subs, matching.UnionMatcher, searcher, context, None)


class SteadyAnd(query.And):  # type: ignore[misc]
    """Whoosh's ``And``, its parts' scores added in the query's order in every segment."""

    def _matcher(self, subs: list[query.Query], searcher: Any, context: Any) -> Any:
        return self._tree_matcher(subs, matching.IntersectionMatcher, searcher, context, None)


def steady(built: query.Query) -> query.Query:
    """``built`` with every ``Or`` and ``And`` made steady (the same query otherwise)."""
    if built.is_leaf():
        return built
    if type(built) is query.Or:
        return SteadyOr([steady(q) for q in built.subqueries], boost=built.boost)
    if type(built) is query.And:
        return SteadyAnd([steady(q) for q in built.subqueries], boost=built.boost)
    return built.apply(steady)


def order_key(stored: dict[str, Any]) -> int:
    """What orders documents of equal score, from a document's stored fields: the version
    (in-force index), the topic's first version (history index): their order in an index a
    full build writes."""
    return int(stored["version"]) if "version" in stored else int(stored["versions"][0][0])


Keys = npt.NDArray[np.int64]


def order_keys(searcher: Any) -> Keys:
    """Every document's `order_key` in ``searcher``'s index (-1 for a deleted one), by document
    number: read from the stored fields on first use and kept in the index's tables
    (`kb.engine.memo`, as `kb.search.validity` keeps the versions' days) for the searches that
    follow, never read per search."""
    leaves = searcher.leaf_searchers()
    segments = [segment_of(sub.reader()) for sub, _ in leaves]
    key = None if None in segments else ("order", *segments)
    kept = memo.of(searcher).days
    found: Keys | None = None if key is None else kept.get(key)
    if found is None:
        found = np.full(searcher.reader().doc_count_all(), -1, dtype=np.int64)
        for sub, offset in leaves:
            reader = sub.reader()
            deletions = reader.has_deletions()
            for docnum in range(reader.doc_count_all()):
                if not (deletions and reader.is_deleted(docnum)):
                    found[offset + docnum] = order_key(reader.stored_fields(docnum))
        found.setflags(write=False)
        if key is not None:
            kept.put(key, found)
    return found


def ordered(searcher: Any, items: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """(score, document number) best first, equal scores in `order_key` order."""
    counts: dict[float, int] = {}
    for score, _ in items:
        counts[score] = counts.get(score, 0) + 1
    if all(count == 1 for count in counts.values()):
        return sorted(items, key=lambda item: -item[0])
    keys = order_keys(searcher)

    def key(item: tuple[float, int]) -> tuple[float, int]:
        return -item[0], int(keys[item[1]]) if counts[item[0]] > 1 else 0

    return sorted(items, key=key)


class SteadyTop(collectors.TopCollector):  # type: ignore[misc]
    """The ``limit`` best documents, equal scores ordered by `order_key`, ties for the last
    place settled the same way whatever the order the documents come in."""

    def prepare(self, top_searcher: Any, q: Any, context: Any) -> None:
        super().prepare(top_searcher, q, context)
        self.replace = 0  # Whoosh's cheaper matchers drop some of the best documents (see the module)
        if top_searcher.reader().has_deletions():
            self.usequality = False  # skipping blocks drops some of the best documents then (see the module)
        self.scored: dict[float, list[int]] = {}
        """Score -> the documents kept with it: those that may still be among the best."""
        self.heap: list[float] = []
        """The scores kept (a heap, lowest first)."""
        self.kept = 0

    def _collect(self, global_docnum: int, score: float) -> float:
        self.total += 1
        if self.kept >= self.limit and score < self.heap[0]:
            return 0
        if score not in self.scored:
            self.scored[score] = []
            heappush(self.heap, score)
        self.scored[score].append(global_docnum)
        self.kept += 1
        while self.kept - len(self.scored[self.heap[0]]) >= self.limit:
            self.kept -= len(self.scored.pop(heappop(self.heap)))
        if self.kept >= self.limit:
            self.minscore = self.heap[0] - abs(self.heap[0]) * MARGIN
        return 0 - score

    def remove(self, global_docnum: int) -> None:
        for score, documents in self.scored.items():
            if global_docnum in documents:
                documents.remove(global_docnum)
                self.kept -= 1
                if not documents:
                    del self.scored[score]
                    self.heap.remove(score)
                    self.heap.sort()
                return

    def results(self) -> Any:
        items = [(score, docnum) for score, documents in self.scored.items() for docnum in documents]
        return self._results(ordered(self.top_searcher, items)[: self.limit])


class SteadyAll(collectors.UnlimitedCollector):  # type: ignore[misc]
    """Every matching document, equal scores ordered by `order_key`."""

    def results(self) -> Any:
        return self._results(ordered(self.top_searcher, self.items), docset=self.docset)
