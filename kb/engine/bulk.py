"""Evaluating a query's postings in bulk: each term's postings read whole and scored as arrays.

Whoosh evaluates a query one document at a time, a matcher step (and several Python calls)
per posting. For the shapes a search runs (`kb.search.plans`: terms in fields, all of them (And),
any of them (Or), less an exclusion (AndNot), phrases), `evaluate` reads each term's
postings whole (`kb.engine.postings`) into arrays of document numbers and weights, scores them
with the formula of `kb.engine.weighting.LengthScorer` (Whoosh's BM25F, from the lengths in
memory) and combines them with array operations: the very documents Whoosh matches, with
its scores (a sum of the same terms, possibly added in another order: equal to within 1e-9).
A query of any other shape (a boost, a term type Whoosh expands itself) gives None, and the
caller runs Whoosh's matchers as before. `best` orders as Whoosh's collectors do: the
higher score first, on equal scores the earlier document.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kb.engine import budget, memo
from kb.engine.planning import engine_query
from kb.engine.positions import Positions
from kb.engine.postings import (
    NONE,
    ZERO,
    Ids,
    Read,
    Scores,
    held_in,
    phrase_starts,
    positions_in,
    read_whole,
)
from kb.engine.searching import Results, Searcher, WeightScorer, query
from kb.engine.steady import order_keys
from kb.engine.weighting import LengthScorer
from kb.errors import Unsupported
from kb.kept import Kept, sized
from kb.plan import Node

__all__ = ["Positions", "Read", "Unsupported", "best", "count", "evaluate", "hits", "ranked"]


@dataclass
class Matched:
    """The documents a query matches (increasing document numbers, each once) and their scores."""

    ids: Ids
    scores: Scores


@dataclass
class Leaf:
    """One term searched: (field name, term as indexed), with the documents whose postings hold it."""

    term: tuple[str, bytes]
    ids: Ids


class Evaluation:
    """A query evaluated over one searcher: the matches, and each positive term's documents
    (to tell which terms a document matched, as Whoosh's ``TermsCollector`` does)."""

    def __init__(self, searcher: Searcher, read: dict[Any, Read] | None = None, terms: bool = True) -> None:
        """``read``: the postings read so far (by the other passes of a search over ``searcher``);
        ``terms``: whether to tell which terms each document matched (`leaves`; a ranking alone does not)."""
        self.searcher = searcher
        self.leaves: list[Leaf] = []
        self.terms = terms
        self._postings: dict[Any, Read] = {} if read is None else read

    def run(self, built: query.Query) -> Matched:
        """What ``built`` matches over the whole searcher, evaluated once: each term's postings
        are those of every segment joined (`scored`), so an index an add has layered (several
        segments) costs one evaluation, as a full build's does."""
        return self._node(built, True)

    def _node(self, built: query.Query, positive: bool) -> Matched:
        if built is query.NullQuery or isinstance(built, query.NullQuery.__class__):
            return Matched(NONE, ZERO)
        if getattr(built, "boost", 1.0) != 1.0:
            raise Unsupported("a boost")
        if type(built) is query.Term:
            return self._term(built.fieldname, built.text, positive)
        if type(built) is query.Phrase:
            return self._narrowed(len(self.leaves), self._phrase(built, positive))
        if type(built) is query.And:
            start = len(self.leaves)
            return self._narrowed(start, _all([self._node(child, positive) for child in built.children()]))
        if type(built) is query.Or and not built.minmatch and not built.scale:
            return _any([self._node(child, positive) for child in built.children()])
        if type(built) is query.AndNot:
            start = len(self.leaves)
            kept = self._node(built.a, positive)
            if not len(kept.ids):
                return kept
            dropped = self._node(built.b, False)
            keep = ~held_in(kept.ids, dropped.ids)
            return self._narrowed(start, Matched(kept.ids[keep], kept.scores[keep]))
        raise Unsupported(type(built).__name__)

    def _narrowed(self, start: int, found: Matched) -> Matched:
        """``found``, the match of a node whose terms are ``self.leaves[start:]``: those terms
        count as matched only in the documents the whole node matches (a word of a compound
        is not matched where the other is missing)."""
        if start == len(self.leaves):
            return found
        for place in range(start, len(self.leaves)):
            leaf = self.leaves[place]
            self.leaves[place] = Leaf(leaf.term, leaf.ids[common(leaf.ids, found.ids)[0]])
        return found

    def _term(self, fieldname: str, text: Any, positive: bool) -> Matched:
        schema = self.searcher.schema
        if fieldname not in schema:
            return Matched(NONE, ZERO)
        try:
            raw = schema[fieldname].to_bytes(text)
        except ValueError:
            return Matched(NONE, ZERO)
        key = (id(self.searcher), fieldname, raw)
        read = self._postings.get(key)
        if read is None:
            read = self._postings[key] = scored(self.searcher, fieldname, raw)
        if positive and self.terms and len(read.ids):
            self.leaves.append(Leaf((fieldname, raw), read.ids))
        return Matched(read.ids, read.scores)

    def _phrase(self, built: query.Phrase, positive: bool) -> Matched:
        """Whoosh's Phrase (slop 1): the documents where the words stand at consecutive positions,
        scored as the sum of the words' scores."""
        schema = self.searcher.schema
        if built.slop != 1 or built.fieldname not in schema:
            raise Unsupported("a phrase with slop") if built.slop != 1 else Unsupported("no such field")
        words = [self._term(built.fieldname, w, positive) for w in built.words]
        both = _all(words)
        if not len(both.ids):
            return both
        field = schema[built.fieldname]
        read = [self._postings[(id(self.searcher), built.fieldname, field.to_bytes(w))] for w in built.words]
        values = [entry.values for entry in read if entry.values is not None]
        if len(values) < len(read):
            raise Unsupported("a phrase in a field without positions")
        each = [  # each word's positions in the documents of both: (which of them, position)
            positions_in(field.format, [held[at] for at in np.searchsorted(entry.ids, both.ids).tolist()])
            for held, entry in zip(values, read, strict=True)
        ]
        keep = np.zeros(len(both.ids), dtype=bool)
        keep[phrase_starts(each)[0]] = True
        return Matched(both.ids[keep], both.scores[keep])

    def matched_terms(self, docnum: int) -> list[tuple[str, bytes]]:
        """The positive terms whose postings hold document ``docnum`` (each once)."""
        found: dict[tuple[str, bytes], None] = {}
        for leaf in self.leaves:
            at = int(np.searchsorted(leaf.ids, docnum))
            if at < len(leaf.ids) and leaf.ids[at] == docnum:
                found[leaf.term] = None
        return list(found)


def scored(searcher: Searcher, fieldname: str, raw: bytes) -> Read:
    """The postings of the term ``raw`` in ``fieldname`` over the whole of ``searcher``'s index
    read whole and scored: kept for the searcher (`kb.engine.memo`), since its scores depend
    only on the index the searcher reads. Over an index of several segments (an add's beside
    the full build's) each segment's postings are scored as Whoosh scores them there (its own
    lengths) and joined in document order (each shifted by its segment's first document). The
    postings themselves are shared between searchers of one segment (`kb.engine.postings.KEPT`);
    the scores are each searcher's."""
    kept = memo.of(searcher).scored
    key = (fieldname, raw)
    found: Read | None = kept.get(key)
    if found is None:
        leaves = searcher.leaf_searchers()
        if len(leaves) == 1:
            found = _scored(leaves[0][0], fieldname, raw)
        else:
            found = _joined([(_scored(sub, fieldname, raw), offset) for sub, offset in leaves])
        kept.put(key, found)
    return found


def _joined(parts: list[tuple[Read, int]]) -> Read:
    """Segments' postings of one term (each with its segment's first document) as one: their
    documents shifted and joined (still increasing), their scores and positions joined alike."""
    held = [(read, offset) for read, offset in parts if len(read.ids)]
    ids = np.concatenate([read.ids + offset for read, offset in held]) if held else NONE.copy()
    scores = np.concatenate([read.scores for read, _ in held]) if held else ZERO.copy()
    ids.setflags(write=False)
    scores.setflags(write=False)
    if any(read.values is None for read, _ in parts):
        return Read(ids, scores, None)
    values: list[Any] = []
    for read, _ in held:
        values.extend(read.values or ())
    return Read(ids, scores, values)


def _scored(sub: Searcher, fieldname: str, raw: bytes) -> Read:
    """`scored`, read from the index: none for a term the segment lacks (nor any positions)."""
    reader = sub.reader()
    if (fieldname, raw) not in reader:
        return Read(NONE, ZERO, [])
    field = sub.schema[fieldname]
    scorer = sub.weighting.scorer(sub, fieldname, raw)
    ids, weights, values = read_whole(reader, fieldname, raw, field.format.supports("positions"))
    if type(scorer) is WeightScorer:  # a field without lengths (an ID): its weight is its score
        scores = weights
    elif isinstance(scorer, LengthScorer) and scorer.codes is not None:
        norms = np.asarray(scorer.norms, dtype=np.float64)
        codes = np.frombuffer(scorer.codes, dtype=np.uint8)
        scores = scorer.idf * ((weights * scorer.boosted) / (weights + norms[codes[ids]]))
        scores.setflags(write=False)
    else:
        raise Unsupported("a scorer without lengths in memory")  # Whoosh reads them per document
    return Read(ids, scores, values)


def _all(parts: list[Matched]) -> Matched:
    """The documents every part matches, their scores summed."""
    if not parts:
        return Matched(NONE, ZERO)
    found = parts[0]
    for part in parts[1:]:
        if not len(found.ids):
            break
        left, right = common(found.ids, part.ids)
        found = Matched(found.ids[left], found.scores[left] + part.scores[right])
    return found


def common(a: Ids, b: Ids) -> tuple[Ids, Ids]:
    """Where the documents two sorted arrays (each document once) share stand in each: each
    document of the shorter looked up in the longer (not both sorted together, as ``intersect1d`` does)."""
    if len(a) > len(b):
        right, left = common(b, a)
        return left, right
    if not len(a):
        return NONE, NONE
    at = np.searchsorted(b, a)
    np.minimum(at, len(b) - 1, out=at)
    held = b[at] == a
    return np.flatnonzero(held), at[held]


def _any(parts: list[Matched]) -> Matched:
    """The documents any part matches, the scores of the parts matching summed."""
    parts = [p for p in parts if len(p.ids)]
    if not parts:
        return Matched(NONE, ZERO)
    if len(parts) == 1:
        return parts[0]
    joined = np.concatenate([p.ids for p in parts])
    weights = np.concatenate([p.scores for p in parts])
    size = max(int(p.ids[-1]) for p in parts) + 1
    if size > DENSE * len(joined):  # few documents among many: sorted together
        ids, where = np.unique(joined, return_inverse=True)
        return Matched(ids, np.bincount(where, weights=weights, minlength=len(ids)).astype(np.float64))
    summed = np.bincount(joined, weights=weights, minlength=size)  # each document's parts added in order, as above
    present = np.zeros(size, dtype=bool)
    present[joined] = True
    ids = np.flatnonzero(present)
    return Matched(ids, summed[ids].astype(np.float64, copy=False))


def evaluate(
    searcher: Searcher, built: query.Query, read: dict[Any, Read] | None = None, terms: bool = True
) -> tuple[Matched, Evaluation] | None:
    """What ``built`` matches in ``searcher``'s index, scored; None for a shape left to Whoosh.
    ``read``: postings already read over ``searcher`` (a search's other passes), and gets those
    read here; ``terms``: whether the evaluation tells which terms each document matched."""
    evaluation = Evaluation(searcher, read, terms)
    try:
        return evaluation.run(built), evaluation
    except Unsupported:
        return None


def best(
    found: Matched, depth: int | None, allowed: Ids | None = None, searcher: Searcher | None = None
) -> list[tuple[int, float]]:
    """The ``depth`` best (document, score) of ``found`` (all when None), higher scores first,
    equal scores in document order; only documents in ``allowed`` (sorted) when given. Over an
    index an add has layered (several segments, deleted documents) equal scores are ordered as a
    full build's document numbers order them (`kb.engine.steady.order_key`, the keys read once
    per index state: `order_keys`), sorted as arrays, so that an add answers exactly as a full build."""
    ids, scores = found.ids, found.scores
    if allowed is not None:
        keep = held_in(ids, allowed)
        ids, scores = ids[keep], scores[keep]
    if depth is not None and depth < len(ids):
        cut = np.partition(scores, len(scores) - depth)[len(scores) - depth]
        keep = scores >= cut
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))
    if searcher is not None and (not searcher.is_atomic() or searcher.reader().has_deletions()):
        sorted_scores = scores[order]
        if (sorted_scores[1:] == sorted_scores[:-1]).any():  # equal scores: by their keys (`ordered`)
            order = np.lexsort((ids, order_keys(searcher)[ids], -scores))
    if depth is not None:
        order = order[:depth]
    return list(zip(ids[order].tolist(), scores[order].tolist(), strict=True))


def within(found: Matched, work: budget.Work) -> Matched:
    """``found`` as Whoosh's collection within ``work`` (`budget.BudgetCollector`) would
    visit it: nothing once the deadline has passed, the first documents only (in document
    order) when there are more than the work has left to examine; counted into ``work``."""
    if time.thread_time() > work.deadline:
        work.stopped = True
        return Matched(NONE, ZERO)
    room = max(0, work.documents - work.examined)
    if len(found.ids) > room:
        work.stopped = True
        found = Matched(found.ids[:room], found.scores[:room])
    work.examined += len(found.ids)
    return found


def allowed_ids(allowed: set[int]) -> Ids:
    """The documents of a date filter (a set never changed once made) as a sorted array, made once per set."""
    kept = _ALLOWED.get(id(allowed))
    if kept is None or kept[0] is not allowed:
        made = (allowed, np.fromiter(sorted(allowed), dtype=np.int64, count=len(allowed)))
        kept = made if kept is not None else _ALLOWED.put(id(allowed), made)
    return kept[1]


ALLOWED = 16 << 20
"""What the date filters' arrays kept weigh at most, in bytes, with their sets (counted here too)."""
_ALLOWED: Kept[tuple[set[int], Ids]] = Kept(ALLOWED, sized, largest=ALLOWED // 2)
"""id of a date filter -> (the filter, kept alive so the id stays its own; its array)."""


def hits(searcher: Searcher, built: query.Query, limit: int, allowed: set[int] | None, work: budget.Work) -> Any:
    """Whoosh's ``Results`` of the ``limit`` best documents ``built`` matches among the
    ``allowed`` (all when None), with the terms each matched (as ``TermsCollector`` records
    them); None for a shape left to Whoosh."""
    scored = evaluate(searcher, built, work.postings) if ENABLED else None
    if scored is None:
        return None
    found, evaluation = scored
    collected = within(found, work)
    if allowed is not None:
        keep = held_in(collected.ids, allowed_ids(allowed))
        collected = Matched(collected.ids[keep], collected.scores[keep])
    top = best(collected, limit, searcher=searcher)
    results = Results(searcher, built, [(score, docnum) for docnum, score in top])
    results.docterms = matched_terms(evaluation.leaves, [docnum for docnum, _ in top])
    termdocs: dict[tuple[str, bytes], list[int]] = {}
    for leaf in evaluation.leaves:  # as Whoosh records them: the terms any document collected matched
        if leaf.term not in termdocs and held_in(leaf.ids, collected.ids).any():
            termdocs[leaf.term] = [docnum for docnum, terms in results.docterms.items() if leaf.term in terms]
    results.termdocs = termdocs
    return results


def matched_terms(leaves: list[Leaf], docnums: list[int]) -> dict[int, list[tuple[str, bytes]]]:
    """Each of ``docnums`` with the positive terms whose postings hold it, in the order of the
    leaves, each once: `Evaluation.matched_terms` of each document, found a leaf at a time (one
    lookup of the documents in each leaf's postings, not one per document and leaf)."""
    found: dict[int, dict[tuple[str, bytes], None]] = {docnum: {} for docnum in docnums}
    wanted = np.array(sorted(found), dtype=np.int64)
    for leaf in leaves if len(wanted) else []:
        for docnum in wanted[held_in(wanted, leaf.ids)].tolist():
            found[docnum][leaf.term] = None
    return {docnum: list(terms) for docnum, terms in found.items()}


def ranked(searcher: Searcher, built: query.Query, work: budget.Work) -> Matched | None:
    """What ``built`` matches, scored, within ``work``; None for a shape left to Whoosh."""
    scored = evaluate(searcher, built, work.postings, terms=False) if ENABLED else None
    return None if scored is None else within(scored[0], work)


def count(searcher: Searcher, built: query.Query, work: budget.Work) -> int:
    """How many documents ``built`` matches (outside the budget of documents examined: a count
    ranks nothing), read in bulk, or by Whoosh's matchers for a shape left to them."""
    scored = evaluate(searcher, built, work.postings, terms=False) if ENABLED else None
    return len(scored[0].ids) if scored is not None else sum(1 for _ in searcher.docs_for_query(built))


def rarest(searcher: Searcher, words: Sequence[tuple[str, Node]], work: budget.Work) -> tuple[str, Node]:
    """Of a query's words (each with its plan: `kb.search.plans.Plan.words`), the one that matches
    the fewest documents (`count`; the first of those tied): what a question is about."""
    counted = [(count(searcher, engine_query(planned), work), k) for k, (_, planned) in enumerate(words)]
    return words[min(counted)[1]]


DENSE = 16
"""An Or of parts adds their scores in an array over every document up to the last they hold
when that is at most this many times the postings joined (a word over six fields: ten times
faster than sorting them together), else sorts them together."""
ENABLED = True
"""Whether searches evaluate in bulk the shapes they can (off: Whoosh's matchers for all, as a
test compares)."""
