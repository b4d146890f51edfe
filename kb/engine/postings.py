"""Postings read whole: a term's document numbers, weights and encoded positions in arrays
(`postings`), kept for the searches that follow (`KEPT`), and the positions they hold
(`positions_in`, `decoded`, `phrase_starts`), for the bulk evaluation of queries
(`kb.engine.bulk`) and the positions of words in topic documents (`placed`, for
`kb.engine.positions`).
Whoosh's own readers decode a block of postings at a time; here every block of a term is
decoded at once, and positions are decoded (as Whoosh's ``Positions`` format does) only for the documents asked about.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from whoosh import formats
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.matching import ListMatcher
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import SegmentReader
from whoosh.system import _INT_SIZE

from kb.errors import Unsupported
from kb.kept import Kept

Ids = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]
NONE = np.zeros(0, dtype=np.int64)
ZERO = np.zeros(0, dtype=np.float64)


@dataclass
class Read:
    """One term's postings read whole (in one segment): documents, scores, and encoded positions
    (when its field has them)."""

    ids: Ids
    scores: Scores
    values: Sequence[Any] | None


def postings(
    matcher: Any, positions: bool = False, key: Hashable | None = None
) -> tuple[Ids, Scores, Sequence[Any] | None]:
    """The document numbers and weights of one term's postings, read whole; with ``positions``,
    their values too (encoded positions, decoded when asked for: `placed`). ``key``: the
    term in its segment (`segment_of`): postings read from the segment's files are kept
    (`KEPT`) for the searches that follow, and read from there (those of its live documents
    alone when it has deletions: an index an add has layered is not filtered again per read)."""
    deleted: frozenset[int] = frozenset()
    if isinstance(matcher, FilterMatcher):
        if not matcher._exclude:
            raise Unsupported("a filter")
        deleted, matcher = matcher._ids, matcher.child
    if deleted and key is not None and type(matcher) is W3LeafMatcher and not matcher._byteids:
        live = (key, positions, len(deleted))  # the live postings kept: a segment's deletions only grow
        found = KEPT.get(live)
        if found is None:
            found = _live(_blocks(matcher, positions), deleted)
            KEPT.put(live, found)
        return found
    if type(matcher) is ListMatcher:
        ids, weights, values = _listed(matcher, positions)
    elif type(matcher) is W3LeafMatcher:
        if matcher._byteids:
            raise Unsupported("byte ids")
        kept = None if key is None else KEPT.get((key, positions))
        if kept is None:
            kept = _blocks(matcher, positions)
            if key is not None:
                KEPT.put((key, positions), kept)
        ids, weights, values = kept
    else:
        raise Unsupported(type(matcher).__name__)
    return _live((ids, weights, values), deleted) if deleted else (ids, weights, values)


Postings = tuple[Ids, Scores, Sequence[Any] | None]


def read_whole(reader: Any, fieldname: str, raw: bytes, positions: bool) -> Postings:
    """`postings` of the term ``raw`` in the segment ``reader`` reads: from `KEPT` when they are
    kept there, without Whoosh opening its matcher (which reads and decompresses the term's
    first block), else read from the segment's files and kept."""
    segment = segment_of(reader)
    if segment is None:
        return postings(reader.postings(fieldname, raw), positions)
    key = (segment, fieldname, raw)
    deleted = reader.doc_count_all() - reader.doc_count()  # the live postings' key (`postings`)
    found = KEPT.get((key, positions, deleted) if deleted else (key, positions))
    return found if found is not None else postings(reader.postings(fieldname, raw), positions, key)


def _live(read: Postings, deleted: frozenset[int]) -> Postings:
    """The postings ``read`` of a segment, but for those of its ``deleted`` documents (read-only, as `_blocks`'s)."""
    ids, weights, values = read
    keep = ~np.isin(ids, np.fromiter(deleted, dtype=np.int64))
    ids, weights = ids[keep], weights[keep]
    ids.setflags(write=False)
    weights.setflags(write=False)
    return ids, weights, None if values is None else tuple(v for v, k in zip(values, keep.tolist(), strict=True) if k)


def _listed(matcher: ListMatcher, positions: bool) -> Postings:
    """The postings of a term kept in its term's information (a rare term's)."""
    ids = np.asarray(matcher._ids, dtype=np.int64)
    if matcher._all_weights:
        weights = np.full(len(ids), float(matcher._all_weights))
    elif matcher._weights:
        weights = np.asarray(matcher._weights, dtype=np.float64)
    else:
        weights = np.ones(len(ids))
    if not positions:
        return ids, weights, None
    return ids, weights, list(matcher._values) if matcher._values else [None] * len(ids)


def _blocks(matcher: W3LeafMatcher, positions: bool) -> Postings:
    """The postings of a term read block by block from its segment's files, never to be changed
    (the arrays read-only, the values a tuple): `KEPT` may share them between threads."""
    id_blocks, weight_blocks, values = [], [], []
    while matcher.is_active():
        matcher._read_data()
        id_blocks.append(np.cumsum(np.asarray(matcher._data[0], dtype=np.int64)))
        matcher._read_weights()
        weight_blocks.append(np.asarray(matcher._weights, dtype=np.float64))
        if positions:
            matcher._read_values()
            values.extend(matcher._values)
        matcher._next_block()
    ids = np.concatenate(id_blocks) if id_blocks else NONE.copy()
    weights = np.concatenate(weight_blocks) if weight_blocks else ZERO.copy()
    ids.setflags(write=False)
    weights.setflags(write=False)
    return ids, weights, tuple(values) if positions else None


def segment_of(reader: Any) -> tuple[str, str] | None:
    """What names a segment's files for as long as they exist: its index's folder and its own
    id (a segment is never changed once written); None for an index not in files."""
    if not isinstance(reader, SegmentReader):
        return None
    storage = reader.storage()
    folder = getattr(getattr(storage, "b", storage), "folder", None)  # a compound segment's files overlay its folder
    return None if folder is None else (folder, reader.segment().segment_id())


def size_of(postings: Postings) -> int:
    """About the bytes a term's postings read whole take in memory."""
    ids, weights, values = postings
    return ids.nbytes + weights.nbytes + (sum(map(len, values)) + VALUE_BYTES * len(values) if values else 0)


VALUE_BYTES = 41
"""What a posting's value (a bytes object) costs beyond its length, and its place in the tuple."""
KEPT = Kept(40 << 20, size_of)
"""The postings a process keeps: 40 MiB (a few dozen common words of a 90,000-version library;
64 MiB answered no faster on the 90k stress KB, and filled only after 5,000 searches)."""


def positions_in(field_format: Any, values: Sequence[bytes]) -> tuple[Ids, Ids]:
    """The positions the postings' ``values`` hold, all together: which value (0, 1, ...) each
    position is of, and the position (each value's positions in increasing order). Whoosh's
    ``Positions`` format pickles each value's gaps as a list, headed by their count: their
    lists are unpickled as one list of lists, in one call, and added up as arrays."""
    if type(field_format) is not formats.Positions:
        lists = [decoded(field_format, value) for value in values]
        counts = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        flat = np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=int(counts.sum()))
        return np.repeat(np.arange(len(lists)), counts), flat
    body = b"".join([value[_INT_SIZE:-1] if value.endswith(b".") else value[_INT_SIZE:] for value in values])
    gaps = pickle.loads(b"(" + body + b"l.")  # MARK, each value's list, LIST: the lists in one list
    counts = np.fromiter(map(len, gaps), dtype=np.int64, count=len(gaps))
    summed = np.cumsum(np.fromiter(itertools.chain.from_iterable(gaps), dtype=np.int64, count=int(counts.sum())))
    firsts = np.cumsum(counts) - counts  # where each value's positions begin
    before = np.zeros(len(gaps), dtype=np.int64)
    inside = (firsts > 0) & (counts > 0)
    before[inside] = summed[firsts[inside] - 1]
    return np.repeat(np.arange(len(gaps)), counts), summed - np.repeat(before, counts)


def phrase_starts(each: Sequence[tuple[Ids, Ids]]) -> tuple[Ids, Ids]:
    """Where a phrase starts: of the first word's positions (``each``: every word's, in order, as
    `positions_in` gives them, a document's before the next's), those the other words follow
    at consecutive positions in the same document, as (document, position)."""
    if any(not len(owners) for owners, _ in each):
        return NONE, NONE
    span = max(int(places.max()) for _, places in each) + len(each) + 1
    starts = each[0][0] * span + each[0][1]  # sorted, as (document, position)
    for offset, (owners, places) in enumerate(each[1:], start=1):
        starts = starts[held_in(starts, owners * span + places - offset)]
    return starts // span, starts % span


def held_in(keys: Ids, among: Ids) -> Any:
    """Which of the sorted ``keys`` are in the sorted ``among`` (a mask), each looked up there."""
    if not len(among):
        return np.zeros(len(keys), dtype=bool)
    at = np.searchsorted(among, keys)
    np.minimum(at, len(among) - 1, out=at)
    return among[at] == keys


def decoded(field_format: Any, value: bytes) -> list[int]:
    """The positions a posting's value holds: what Whoosh's ``Positions.decode_positions`` gives
    (a count, then the pickled gaps between positions), added up in C."""
    if type(field_format) is not formats.Positions:
        return list(field_format.decode_as("positions", value))
    if not value.endswith(b"."):
        value += b"."
    return list(itertools.accumulate(pickle.loads(value[_INT_SIZE:])))


class Placed:
    """Where each of some documents stands in one term's postings read whole (`Read`): the
    positions of the term in each of them that holds it, decoded when asked for (`placed`)."""

    def __init__(self, where: dict[int, tuple[Sequence[bytes], int]], field_format: Any) -> None:
        self.where = where
        self.field_format = field_format

    def positions(self, docnum: int) -> list[int]:
        """The term's positions in document ``docnum`` ([] when it does not hold the term)."""
        at = self.where.get(docnum)
        return [] if at is None else decoded(self.field_format, at[0][at[1]])


def placed(reader: Any, read: dict[Any, Read], key: int, fieldname: str, word: Any, docnums: Ids) -> Placed | None:
    """Where each of the documents ``docnums`` (sorted) stands in the postings of ``word`` in
    ``fieldname``, as a search read them whole into ``read`` (keyed by ``key``, the field and
    the term's bytes); None when the search did not read them whole with their positions
    (nor can a word the field does not hold be there)."""
    if fieldname not in reader.schema:
        return None
    field = reader.schema[fieldname]
    try:
        raw = field.to_bytes(word)
    except ValueError:
        return None
    entry = read.get((key, fieldname, raw))
    if entry is None or entry.values is None:
        return None
    at = np.searchsorted(entry.ids, docnums)
    inside = at < len(entry.ids)
    held = np.zeros(len(at), dtype=bool)
    held[inside] = entry.ids[at[inside]] == docnums[inside]
    values = entry.values
    pairs = zip(docnums[held].tolist(), at[held].tolist(), strict=True)
    return Placed({docnum: (values, place) for docnum, place in pairs}, field.format)
