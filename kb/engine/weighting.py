"""How search scores a document: Whoosh's BM25F over the live documents, lengths read once per searcher.

An incremental add (`kb.index.writer.extend_indexes`) deletes the documents it rewrites from
the previous build's segments and adds them anew in a segment of their own. Whoosh's own
statistics would still count the deleted ones (the number of documents, each word's
document frequency, the total length of each field), so the same library would rank
differently after adds than after a full build. `BM25F` takes every collection statistic from
the live documents only, the same whatever the segments: the number of live documents, each
word's live document frequency (`live_frequency`), and each field's average length over the
live documents, summed from the one-byte length codes Whoosh stores per document (the exact
totals Whoosh keeps are lost for a deleted document, the codes are not). The formula is
Whoosh's BM25F (`whoosh.scoring.bm25`), evaluated in the same order.

Whoosh's own BM25F also reads a document's field length from the index file for every
document it scores, about half the cost of scoring one; `BM25F` reads each field's length
column whole, once per index segment and field, and scores from a table of the 256 codes.
The lengths read are bytes, never changed, so the searchers of every thread can share them.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from math import log
from typing import Any

from whoosh import scoring
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.util.numeric import byte_to_length

from kb.engine.postings import read_whole
from kb.errors import Unsupported

CODES = 256
"""Whoosh stores a field's length in a document as one byte, a code for an approximate length."""
LENGTH = [byte_to_length(code) for code in range(CODES)]
"""The length each code stands for."""


def live_frequency(reader: Any, fieldname: str, text: Any) -> int:
    """How many live (not deleted) documents of the index ``reader`` reads hold ``text`` in ``fieldname``.

    In a segment with deletions (an add's index: `kb.index.writer`) the term's postings are read
    whole, the deleted left out (`kb.engine.postings.postings`), and kept for the scoring that
    follows: walked one by one through Whoosh's matcher, they were half the CPU of the searches
    after 100 adds to the 90k library (a common word's 90,000 postings for one number)."""
    found = 0
    for leaf, _ in reader.leaf_readers():
        if not leaf.has_deletions():
            found += leaf.doc_frequency(fieldname, text)
        elif leaf.doc_frequency(fieldname, text):
            found += _live_in(leaf, fieldname, text)
    return found


def _live_in(leaf: Any, fieldname: str, text: Any) -> int:
    """`live_frequency` in one segment with deletions."""
    field = leaf.schema[fieldname]
    raw = text if isinstance(text, bytes) else field.to_bytes(text)
    try:  # kept as the scoring keeps them (`kb.engine.bulk`)
        ids, _, _ = read_whole(leaf, fieldname, raw, field.format.supports("positions"))
    except Unsupported:  # postings this reader cannot read whole: walked one by one
        return sum(1 for _ in leaf.postings(fieldname, raw).all_ids())  # the deleted filtered out
    return len(ids)


class BM25F(scoring.BM25F):  # type: ignore[misc]
    """BM25F over the statistics of the live documents, scoring from lengths held in memory."""

    def __init__(
        self, lengths: dict[tuple[str, str], bytes] | None = None, totals: dict[tuple[str, str], int] | None = None
    ) -> None:
        super().__init__()
        self.lengths: dict[tuple[str, str], bytes] = {} if lengths is None else lengths
        """(segment id, field name) -> the field's length code in each document of the segment."""
        self.totals: dict[tuple[str, str], int] = {} if totals is None else totals
        """(segment id, field name) -> the field's length summed over the live documents of the segment
        (the segments of one build: a segment's deletions differ from build to build)."""

    def idf(self, searcher: Any, fieldname: str, text: Any) -> float:
        """Whoosh's idf, of the live documents (a searcher caches it per word)."""
        parent = searcher.get_parent()
        return log(parent.doc_count() / (live_frequency(parent.reader(), fieldname, text) + 1)) + 1

    def scorer(self, searcher: Any, fieldname: str, text: Any, qf: int = 1) -> Any:
        if not searcher.schema[fieldname].scorable:
            return super().scorer(searcher, fieldname, text, qf=qf)
        parent = searcher.get_parent()
        average = self.average_length(parent.reader(), fieldname) or 1
        codes = self.codes(searcher.reader(), fieldname)
        return LengthScorer(
            searcher,
            fieldname,
            text,
            self._field_B.get(fieldname, self.B),
            self.K1,
            qf,
            parent.idf(fieldname, text),
            average,
            codes,
        )

    def average_length(self, reader: Any, fieldname: str) -> float:
        """The average length of ``fieldname`` over the live documents of the index ``reader`` reads."""
        live = reader.doc_count()
        return sum(self.total(leaf, fieldname) for leaf, _ in reader.leaf_readers()) / live if live else 0.0

    def total(self, reader: Any, fieldname: str) -> int:
        """The lengths (as coded) of ``fieldname`` summed over the live documents of the segment ``reader`` reads."""
        segment = getattr(reader, "segment", None)
        key = (segment().segment_id(), fieldname) if segment is not None else None
        if key is not None and key in self.totals:
            return self.totals[key]
        codes = self.codes(reader, fieldname)
        if codes is None:
            summed: int = sum(reader.doc_field_length(n, fieldname, 0) or 0 for n in reader.all_doc_ids())
        else:
            summed = sum(LENGTH[code] * count for code, count in Counter(codes).items())
            summed -= sum(LENGTH[codes[n]] for n in _deleted(reader))
        if key is not None:
            self.totals[key] = summed  # two threads may both count it: the same number
        return summed

    def codes(self, reader: Any, fieldname: str) -> bytes | None:
        """The length code of ``fieldname`` in each document of the segment ``reader`` reads,
        or None when the segment is not one whose length column can be read whole."""
        segment = getattr(reader, "segment", None)
        if segment is None:
            return None
        key = (segment().segment_id(), fieldname)
        if key not in self.lengths:
            column = _length_column(reader, fieldname)
            if column is None:
                return None
            self.lengths[key] = column  # two threads may both read it: the same bytes
        return self.lengths[key]


def _deleted(reader: Any) -> list[int]:
    """The deleted documents of the segment ``reader`` reads."""
    if not reader.has_deletions():
        return []
    perdoc = getattr(reader, "_perdoc", None)
    if perdoc is not None and hasattr(perdoc, "deleted_docs"):
        return list(perdoc.deleted_docs())
    return [n for n in range(reader.doc_count_all()) if reader.is_deleted(n)]


def _length_column(reader: Any, fieldname: str) -> bytes | None:
    perdoc = getattr(reader, "_perdoc", None)
    if perdoc is None or not hasattr(perdoc, "_cached_reader"):
        return None
    column = perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
    if column is None:
        return None  # no lengths stored: Whoosh's own scorer knows what to assume
    count, width = getattr(column, "_count", None), getattr(column, "_fixedlen", None)
    if count is None or width != 1:
        return None
    stored: bytes = column._dbfile.get(column._basepos, count) if count else b""
    return stored + bytes(max(0, reader.doc_count_all() - count))


class LengthScorer(scoring.BM25FScorer):  # type: ignore[misc]
    """Whoosh's BM25F scorer of one word in one field, with the statistics it is given (``idf``,
    ``average`` length), reading lengths from ``codes`` (as Whoosh does, per document, when None)."""

    def __init__(
        self,
        searcher: Any,
        fieldname: str,
        text: Any,
        b: float,
        k1: float,
        qf: int,
        idf: float,
        average: float,
        codes: bytes | None,
    ) -> None:
        self.idf, self.avgfl, self.B, self.K1, self.qf = idf, average, b, k1, qf
        self.setup(searcher, fieldname, text)
        self.codes = codes
        self.boosted = self.K1 + 1
        self.norms = _norms(self.K1, self.B, self.avgfl)

    def score(self, matcher: Any) -> float:
        if self.codes is None:
            whooshs: float = super().score(matcher)
            return whooshs
        weight = matcher.weight()
        score: float = self.idf * ((weight * self.boosted) / (weight + self.norms[self.codes[matcher.id()]]))
        return score


@lru_cache(maxsize=256)
def _norms(k1: float, b: float, average: float) -> tuple[float, ...]:
    """BM25F's length normalisation for each length code (`LENGTH`), made once per field and index
    state rather than once per scorer (a segment's scorer of each word read)."""
    return tuple(k1 * ((1 - b) + b * length / average) for length in LENGTH)
