"""Which versions of every topic of the history index a query matches, found as arrays.

A topic document of the history index (`kb.index.history`) holds each version's words from
position ``k * STRIDE`` on. `kb.engine.version_matching` checks one topic at a time, decoding each
word's positions there, and a search (as of a past date above all) checks hundreds of
topics to find the few it shows. Here each word's positions in all the topics are decoded
at once, from the postings a search read whole (`kb.engine.bulk`), and kept for the searches
that follow (`DECODED`, shared by the threads, as `kb.engine.postings.KEPT` is); the query is
evaluated on sorted arrays of keys, ``topic document * VERSIONS + version``: a word's keys,
a phrase's (its words at consecutive positions), And as intersection, Or as union, AndNot as
difference. The answer is `kb.engine.version_matching`'s, topic by topic (`tests/test_history_search.py`
compares them on every query of the benchmark). Over an index an add has layered (several
segments) a word's postings are those of its segments joined (`kb.engine.bulk.scored`), as the
search read them. A word whose postings were not read whole raises `Unsupported`: the caller
then checks topic by topic.

`kb.search.history.topics` uses it when the first batch of topics, checked one by one, did
not give enough, where many ranked topics are passed over: as of a date (most topics'
matching versions are not in force then) and for phrases (most topics hold the words
apart). Over every version, with words alone, nearly every topic ranked matches, and the few
shown are checked one by one. Decoding a common word's positions in every topic is what the
first such search pays (tens of milliseconds); those that follow read them from `DECODED`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from whoosh import query
from whoosh.searching import Searcher

from kb.engine.postings import NONE, Ids, Read, held_in, phrase_starts, positions_in, segment_of
from kb.errors import Unsupported
from kb.kept import Kept
from kb.layout import STRIDE

SHIFT = STRIDE.bit_length() - 1
"""A position's version: the position shifted right by this much (`STRIDE` is a power of two,
as `kb.layout` defines it)."""
VERSIONS = 1 << 24
"""Versions a topic may have: key = topic document * VERSIONS + version."""
ENABLED = True
"""Whether history searches find matching versions this way (off: topic by topic, as a test compares)."""
DECODED: Kept[tuple[Ids, Ids]] = Kept(40 << 20, lambda found: found[0].nbytes + found[1].nbytes)
"""Words' positions in all their topic documents, decoded: 40 MiB at most (as `KEPT`), the least
recently asked dropped."""
Held = tuple[npt.NDArray[np.bool_], Ids]
"""The versions in force on a date: whether each version of the index is (by its place), and
where each topic document's versions begin (`kb.search.validity.InForce`'s ``versions`` and its
validity's ``first``)."""


class VersionKeys:
    """The versions a query matches in the topics of ``searcher``'s index, from
    the postings a search read whole (``read``: `kb.engine.budget.Work.postings`). ``cost``
    (`kb.engine.version_matching.rarity`) orders the parts that must all match, the rarest first.

    With ``held`` (the versions in force on a date: `Held`), only the
    versions in force: each word's positions are narrowed to them (once a search) before the
    query's parts are combined, on a few hundredths of the positions (a version matches or not
    by its own positions alone, so the versions found are those in force the whole query matches)."""

    def __init__(
        self,
        searcher: Searcher,
        read: dict[Any, Read],
        cost: Callable[[query.Query], float],
        held: Held | None = None,
    ) -> None:
        self.schema, self.key, self.read, self.cost = searcher.schema, id(searcher), read, cost
        self.state = state_of(searcher)
        self.held = held
        self.narrowed: dict[tuple[str, bytes], tuple[Ids, Ids]] = {}
        """Each word's positions narrowed to ``held``, once for all the query's parts."""

    def matched(self, built: query.Query) -> Ids:
        """The keys of the versions ``built`` matches, sorted, each once."""
        if built is query.NullQuery or isinstance(built, query.NullQuery.__class__):
            return NONE
        if isinstance(built, query.Term):
            docnums, places = self.positions(built.fieldname, built.text)
            return _distinct(docnums * VERSIONS + places // STRIDE)
        if isinstance(built, query.Phrase):
            return self._phrase(built)
        if isinstance(built, query.AndNot):
            kept = self.matched(built.a)
            return kept[~held_in(kept, self.matched(built.b))] if len(kept) else kept
        if isinstance(built, query.And):
            found: Ids | None = None
            for child in sorted(built.children(), key=self.cost):
                part = self.matched(child)
                found = part if found is None else found[held_in(found, part)]
                if not len(found):
                    break
            return NONE if found is None else found
        if isinstance(built, query.Or):
            parts = [self.matched(child) for child in built.children()]
            return _distinct(np.concatenate(parts)) if parts else NONE
        raise Unsupported(type(built).__name__)

    def _phrase(self, built: query.Phrase) -> Ids:
        """The versions where the phrase's words stand at consecutive positions (slop 1)."""
        docnums, places = phrase_starts([self.positions(built.fieldname, word) for word in built.words])
        return _distinct(docnums * VERSIONS + places // STRIDE)

    def positions(self, fieldname: str, word: Any) -> tuple[Ids, Ids]:
        """Each position of ``word`` in ``fieldname``: its topic document and the position, in order."""
        if fieldname not in self.schema:
            return NONE, NONE
        field = self.schema[fieldname]
        try:
            raw = field.to_bytes(word)
        except ValueError:
            return NONE, NONE
        entry = self.read.get((self.key, fieldname, raw))
        if entry is None or entry.values is None:
            raise Unsupported("postings not read whole")
        if self.held is not None:
            narrowed = self.narrowed.get((fieldname, raw))
            if narrowed is None:
                narrowed = self.narrowed[(fieldname, raw)] = self._narrowed(self.held, fieldname, raw, field, entry)
            return narrowed
        return self._decoded(fieldname, raw, field, entry)

    def _narrowed(self, held: Held, fieldname: str, raw: bytes, field: Any, entry: Read) -> tuple[Ids, Ids]:
        """A word's positions (`positions`) in the versions ``held`` only: those of every topic
        (`DECODED`) narrowed."""
        docnums, places = self._decoded(fieldname, raw, field, entry)
        versions, first = held
        inside = versions[first[docnums] + (places >> SHIFT)]
        return docnums[inside], places[inside]

    def _decoded(self, fieldname: str, raw: bytes, field: Any, entry: Read) -> tuple[Ids, Ids]:
        """A word's positions in every topic, decoded once (`DECODED`)."""
        key = None if self.state is None else (self.state, fieldname, raw)
        found = None if key is None else DECODED.get(key)
        if found is None:
            owners, places = positions_in(field.format, entry.values or ())  # read whole: `positions` checked
            docnums = entry.ids[owners]
            docnums.setflags(write=False)
            places.setflags(write=False)
            found = (docnums, places)
            if key is not None:
                DECODED.put(key, found)
        return found


def state_of(searcher: Searcher) -> tuple[Any, ...] | None:
    """What names the live documents ``searcher`` reads for as long as its segments' files exist:
    each segment (`segment_of`) with its count of deleted documents (a segment is never changed
    once written; its deletions only grow); None for an index not in files."""
    state = []
    for sub, _ in searcher.leaf_searchers():
        reader = sub.reader()
        segment = segment_of(reader)
        if segment is None:
            return None
        state.append((segment, reader.doc_count_all() - reader.doc_count()))
    return tuple(state)


def _distinct(keys: Ids) -> Ids:
    """``keys`` sorted, each once (sorted runs, as a word's keys are, are merged rather than sorted anew)."""
    ordered = np.sort(keys, kind="stable")
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


def topics_of(keys: Ids) -> Ids:
    """The topic documents of sorted ``keys``, each once, in order."""
    return _distinct(keys // VERSIONS)


class TopicVersions:
    """The versions the sorted ``keys`` hold in each of the topic documents ``docnums``, by
    place in ``docnums``: where each topic's keys stand is looked up for all at once."""

    def __init__(self, keys: Ids, docnums: list[int]) -> None:
        first = np.asarray(docnums, dtype=np.int64) * VERSIONS
        self.lows: list[int] = np.searchsorted(keys, first).tolist()
        self.highs: list[int] = np.searchsorted(keys, first + VERSIONS).tolist()
        self.versions = keys % VERSIONS

    def __getitem__(self, place: int) -> list[int]:
        found: list[int] = self.versions[self.lows[place] : self.highs[place]].tolist()
        return found
