"""How search scores a document: Whoosh's BM25F, with each field's lengths read once per searcher.

Whoosh's own BM25F reads a document's field length from the index file for every document
it scores, which is about half the cost of scoring one. `BM25F` gives the very same scores
(the same formula, evaluated in the same order) from the field's length column read whole,
once per index segment and field, and a table of the 256 length codes Whoosh stores. The
lengths read are bytes, never changed, so the searchers of every thread can share them.
"""

from __future__ import annotations

from typing import Any

from whoosh import scoring
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.util.numeric import byte_to_length

CODES = 256
"""Whoosh stores a field's length in a document as one byte, a code for an approximate length."""


class BM25F(scoring.BM25F):  # type: ignore[misc]
    """BM25F as Whoosh computes it, scoring from lengths held in memory."""

    def __init__(self, lengths: dict[tuple[str, str], bytes] | None = None) -> None:
        super().__init__()
        self.lengths = {} if lengths is None else lengths
        """(segment id, field name) -> the field's length code in each document of the segment."""

    def scorer(self, searcher: Any, fieldname: str, text: Any, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if not isinstance(scorer, scoring.BM25FScorer):
            return scorer
        codes = self.codes(searcher.reader(), fieldname)
        return scorer if codes is None else LengthScorer(scorer, codes)

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
    """A Whoosh BM25F scorer (its idf, average length, B and K1) reading lengths from ``codes``."""

    def __init__(self, whoosh: Any, codes: bytes) -> None:
        self.__dict__.update(whoosh.__dict__)
        self.codes = codes
        self.boosted = self.K1 + 1
        self.norms = [self.K1 * ((1 - self.B) + self.B * byte_to_length(code) / self.avgfl) for code in range(CODES)]

    def score(self, matcher: Any) -> float:
        weight = matcher.weight()
        score: float = self.idf * ((weight * self.boosted) / (weight + self.norms[self.codes[matcher.id()]]))
        return score
