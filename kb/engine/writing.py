"""How the index writers write fast: the fused analysers (`kb.engine.fused`) put in place of the schema's
chains while a writer indexes (`fused_writing`), field lengths read once per field when the
postings are written (`Lengths`), and how much of the postings a writer keeps in memory (`POOL_MB`);
and how a writer's work is kept whole or not at all (`committed`)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from whoosh.codec.whoosh3 import _lenfield
from whoosh.writing import SegmentWriter

if TYPE_CHECKING:
    from kb.engine.fused import FusedAnalyzer

POOL_MB = 1024
"""Megabytes of postings (as Whoosh estimates them) a writer of a whole index keeps in memory
before it sorts them into a run on disk: a 100% benchmark library's indexes fit (no run; a
process then peaks at about 1 GB), where 256 spilled four runs and cost a third more time."""


@contextlib.contextmanager
def fused_writing(writer: Any, analysers: dict[str, FusedAnalyzer]) -> Iterator[None]:
    """Within the block, ``writer`` indexes the fields named in ``analysers`` with them
    (`FusedAnalyzer.index`); the schema's fields are as they were before the block ends (a
    commit stores the schema)."""
    schema = writer.schema
    try:
        for name, analyser in analysers.items():
            schema[name].index = functools.partial(analyser.index, schema[name])
        yield
    finally:
        for name in analysers:
            schema[name].__dict__.pop("index", None)


@contextlib.contextmanager
def committed(writer: Any, kept: Callable[[Any, list[Any]], list[Any]] | None = None) -> Iterator[None]:
    """The block's writes with ``writer`` kept whole or not at all: its field lengths read once
    (`read_lengths_once`), committed when the block ends, cancelled (nothing written) when it fails.
    ``kept``: given the writer and the index's segments, those the commit keeps beside the one
    it writes (in place of Whoosh's merging of small segments: an add's, `kb.engine.indexes.patch_index`)."""
    read_lengths_once(writer)
    try:
        yield
    except BaseException:
        writer.cancel()
        raise
    writer.commit(mergetype=kept)


class Lengths:
    """A segment's per-document reader, as a writer reads the lengths of the fields when it writes
    their postings (once for each posting): each field's lengths are read once, into a list, and
    a field without lengths (not scorable) is known to have none after one look."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.tables: dict[str, list[Any]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> Any:
        table = self.tables.get(fieldname)
        if table is None:
            table = self.tables[fieldname] = self._table(fieldname)
        return table[docnum] if table else default

    def _table(self, fieldname: str) -> list[Any]:
        """The length of field ``fieldname`` of each document, as the reader gives it; none when it has none."""
        if not self.reader.has_column(_lenfield(fieldname)):
            return []
        return [self.reader.doc_field_length(n, fieldname) for n in range(self.reader.doc_count_all())]

    def close(self) -> None:
        self.reader.close()


def read_lengths_once(writer: Any) -> None:
    """Have ``writer`` read field lengths through `Lengths` when it commits (a writer of one
    process only: others read lengths in their own ways)."""
    if type(writer) is not SegmentWriter:
        return
    opened = writer.per_document_reader
    writer.per_document_reader = lambda: Lengths(opened())
