"""The indexes as the writers describe them, in our own terms, and written: each field a
`Field` (what it holds, whether it is stored or unique, its boost), made into Whoosh's schema
here (`schema_of`) and nowhere else; an index created from its description and documents
(`create_index`), an index copied with some documents replaced (`patch_index`, an add's), and
how many documents each segment of an index holds (`segment_sizes`).

What is indexed (the fields, their boosts, the documents) is the writers' (`kb.index`); how
it is written (Whoosh's fields, analysers' chains, files, segments, commits) is here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from whoosh import fields, index
from whoosh.reading import SegmentReader

from kb.engine.analysers import label_analyzer, layered_analyzer, name_analyzer, text_analyzer
from kb.engine.fused import FusedAnalyzer
from kb.engine.writing import POOL_MB, committed, fused_writing
from kb.layout import MARK, STRIDE

Kind = Literal["number", "key", "names", "words", "labels", "kept"]
"""What a field holds: a whole number (``number``); one whole value (``key``); words folded
(``names``: headwords, card names) or folded and stemmed (``words``: texts); a history
document's whole values, one per version (``labels``); a value only kept, never searched (``kept``)."""


@dataclass(frozen=True)
class Field:
    """One field of an index: what it holds (`Kind`), whether its value is stored (given back
    with a hit) or unique (a document's key, for replacing it), its boost in the ranking, and
    whether it is a history document's (its versions' values joined by `kb.layout.MARK`, the
    k-th version's words from ``k * STRIDE`` on: ``layered``)."""

    kind: Kind
    stored: bool = False
    unique: bool = False
    boost: float = 1.0
    layered: bool = False


Fields = Mapping[str, Field]
"""An index's fields by name, in the writers' order."""


def schema_of(described: Fields) -> fields.Schema:
    """Whoosh's schema of the fields ``described``: the one place a schema is made."""
    return fields.Schema(**{name: _field(field) for name, field in described.items()})


def _field(field: Field) -> Any:
    """Whoosh's field type of ``field``."""
    if field.kind == "number":
        return fields.NUMERIC(int, stored=field.stored, unique=field.unique)
    if field.kind == "key":
        return fields.ID(stored=field.stored, unique=field.unique)
    if field.kind == "kept":
        return fields.STORED()
    if field.kind == "labels":
        analyser = label_analyzer()
    elif field.layered:
        analyser = layered_analyzer(field.kind == "words")
    else:
        analyser = name_analyzer() if field.kind == "names" else text_analyzer()
    return fields.TEXT(analyzer=analyser, field_boost=field.boost, stored=field.stored)


def fused_analysers(described: Fields) -> dict[str, FusedAnalyzer]:
    """What the word fields of ``described`` (``names`` and ``words``) are analysed with when
    written (`kb.engine.fused`): one analyser for each kind of word field, shared by its fields."""
    shared: dict[tuple[bool, bool], FusedAnalyzer] = {}
    found = {}
    for name, field in described.items():
        if field.kind in ("names", "words"):
            key = (field.kind == "words", field.layered)
            if key not in shared:
                mark, stride = (MARK, STRIDE) if field.layered else ("", 0)
                shared[key] = FusedAnalyzer(stemmed=key[0], mark=mark, stride=stride)
            found[name] = shared[key]
    return found


def create_index(directory: Path, described: Fields, documents: Iterable[dict[str, Any]]) -> None:
    """Write a new index of the fields ``described`` into the empty folder ``directory``: the
    ``documents`` (field name -> value) in their order, committed whole or not at all."""
    writer = index.create_in(str(directory), schema_of(described)).writer(limitmb=POOL_MB)
    with committed(writer), fused_writing(writer, fused_analysers(described)):
        for document in documents:
            writer.add_document(**document)


def patch_index(
    source: Path,
    target: Path,
    described: Fields,
    key: str,
    removed: set[Any],
    added: list[dict[str, Any]],
) -> None:
    """Make ``target`` a copy of the index ``source`` (of the fields ``described``) without the
    documents whose unique field ``key`` is among ``removed``, and with the ``added`` documents.
    The first segment (a full build's) is kept, its files hard-linked and its removed documents
    deleted; the documents of the others (earlier adds') still live are written again, before
    the ``added``, into one new segment that replaces them: an index is never more than two
    segments (why: `kb.index.writer.extend_indexes`)."""
    target.mkdir()
    for path in source.iterdir():
        if path.suffix == ".toc":  # replaced by the next commit: a copy of its own
            shutil.copy2(path, target / path.name)
        elif path.suffix == ".seg":
            os.link(path, target / path.name)  # the tail's, read here once, is gone after the commit
    writer = index.open_dir(str(target)).writer(limitmb=256)
    with committed(writer, kept=_first):
        with writer.searcher() as searcher:
            for value in sorted(removed):
                writer.delete_by_term(key, value, searcher=searcher)
        for segment in writer.segments[1:]:
            tail = SegmentReader(writer.storage, writer.schema, segment)
            try:
                writer.add_reader(tail)  # its live documents, in their order
            finally:
                tail.close()
        with fused_writing(writer, fused_analysers(described)):
            for document in added:
                writer.add_document(**document)


def _first(writer: Any, segments: list[Any]) -> list[Any]:
    """Of an index's segments, those an add's commit keeps: the first (see `patch_index`)."""
    return segments[:1]


def segment_sizes(directory: Path) -> list[tuple[int, int]]:
    """Each segment of the index in ``directory``, in order: how many documents it holds, and
    how many of them are live (not deleted)."""
    with index.open_dir(str(directory)).reader() as reader:
        return [(leaf.doc_count_all(), leaf.doc_count()) for leaf, _ in reader.leaf_readers()]
