"""The indexes as the writers describe them (`kb.engine.indexes`): the schema the engine makes of
each description is, field for field, the one the writers made of Whoosh's fields themselves
(types, stored, unique, boosts, analysers' chains); the fused analysers are one for each kind of
word field; an index's segments are counted, and an add's copy of an index is its first segment
and one more, on the bundled library's own indexes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from kb.analysis import WORD
from kb.engine.indexes import fused_analysers, patch_index, schema_of, segment_sizes
from kb.index import history
from kb.index import writer as kb_index
from kb.layout import MARK, STRIDE
from kb.paths import CURRENT_DIR, INDEX_DIR, current


def shape(described: Any) -> list[tuple[Any, ...]]:
    """Each field of the schema made of ``described``: its name, type, whether stored and unique,
    its boost, and its analyser's chain (the classes and whether a compound's joined form is kept)."""
    found = []
    for name, field in schema_of(described).items():
        analyser = getattr(field, "analyzer", None)
        chain = getattr(analyser, "items", [analyser]) if analyser else []
        steps = [type(step).__name__ + _detail(step) for step in chain]
        boost = field.format.field_boost if field.format else None
        found.append((name, type(field).__name__, field.stored, getattr(field, "unique", False), boost, steps))
    return found


PATTERNS = {WORD: "word", f"{WORD}|{MARK}": "word|mark", rf"[^\s{MARK}]+|{MARK}": "label|mark"}


def _detail(step: Any) -> str:
    """What a step of a chain is made with: a tokenizer's expression (`PATTERNS`), a fold's
    keeping of a compound's joined form, a stem's function."""
    if hasattr(step, "expression"):
        return f"({PATTERNS.get(step.expression.pattern, step.expression.pattern)})"
    if hasattr(step, "joined"):
        return "(joined)" if step.joined else "()"
    if hasattr(step, "stemfn"):
        return f"({step.stemfn.__name__})"
    return ""


NAMES = ["RegexTokenizer(word)", "FoldFilter(joined)", "LowercaseFilter"]
WORDS = [*NAMES, "StemFilter(inflection_stem)"]
LAYERED_NAMES = ["RegexTokenizer(word|mark)", "FoldFilter(joined)", "Strata", "LowercaseFilter"]
LAYERED_WORDS = [*LAYERED_NAMES, "StemFilter(inflection_stem)"]
KEY = ["IDTokenizer"]


def test_the_in_force_index_is_the_schema_it_was() -> None:
    assert shape(kb_index.FIELDS) == [
        ("cards", "TEXT", False, None, 2.0, NAMES),
        ("cardstem", "TEXT", False, None, 1.5, WORDS),
        ("doc", "ID", True, False, 1.0, KEY),
        ("extra", "TEXT", False, None, 0.8, WORDS),
        ("game", "ID", True, False, 1.0, KEY),
        ("headstem", "TEXT", False, None, 2.5, WORDS),
        ("headword", "TEXT", True, None, 4.0, NAMES),
        ("kind", "ID", False, False, 1.0, KEY),
        ("series", "ID", True, False, 1.0, KEY),
        ("text", "TEXT", True, None, 1.0, WORDS),
        ("topic", "ID", True, False, 1.0, KEY),
        ("valid_from", "NUMERIC", True, False, 1.0, KEY),
        ("valid_to", "NUMERIC", True, False, 1.0, KEY),
        ("version", "NUMERIC", True, True, 1.0, KEY),
    ]


def test_the_history_index_is_the_schema_it_was() -> None:
    labels = ["RegexTokenizer(label|mark)", "Strata"]
    assert shape(history.FIELDS) == [
        ("cards", "TEXT", False, None, 2.0, LAYERED_NAMES),
        ("cardstem", "TEXT", False, None, 1.5, LAYERED_WORDS),
        ("doc", "TEXT", False, None, 1.0, labels),
        ("extra", "TEXT", False, None, 0.8, LAYERED_WORDS),
        ("game", "TEXT", False, None, 1.0, labels),
        ("headstem", "TEXT", False, None, 2.5, LAYERED_WORDS),
        ("headword", "TEXT", False, None, 4.0, LAYERED_NAMES),
        ("kind", "TEXT", False, None, 1.0, labels),
        ("series", "TEXT", False, None, 1.0, labels),
        ("text", "TEXT", False, None, 1.0, LAYERED_WORDS),
        ("topic", "ID", True, True, 1.0, KEY),
        ("versions", "STORED", True, None, None, []),
    ]


def test_one_fused_analyser_for_each_kind_of_word_field() -> None:
    fused = fused_analysers(kb_index.FIELDS)
    assert sorted(fused) == ["cards", "cardstem", "extra", "headstem", "headword", "text"]
    assert fused["headword"] is fused["cards"] and not fused["cards"].stemmed and fused["cards"].mark == ""
    assert fused["headstem"] is fused["cardstem"] is fused["text"] is fused["extra"] and fused["text"].stemmed
    layered = fused_analysers(history.FIELDS)
    assert sorted(layered) == sorted(fused) and layered["cards"] is layered["headword"]
    assert {(a.stemmed, a.mark, a.stride) for a in layered.values()} == {(False, MARK, STRIDE), (True, MARK, STRIDE)}


def test_segments_counted_and_an_add_keeps_two(bundled_root: Path, tmp_path: Path) -> None:
    """The bundled library's 157 versions (all in force) and 156 topics, one segment each; an
    add's copy removes one version and adds two documents: the first segment with one deleted,
    and a second; a copy of that copy writes its tail again, beside the first segment."""
    build = current(bundled_root)
    assert segment_sizes(build / CURRENT_DIR) == [(157, 157)]
    assert segment_sizes(build / INDEX_DIR) == [(156, 156)]
    added = [
        dict(version=1000 + n, topic=f"t{n}", headword="Zzyzx", text="a zzyzx ship", valid_from=0, valid_to=1)
        for n in range(2)
    ]
    patch_index(build / CURRENT_DIR, tmp_path / "one", kb_index.FIELDS, "version", {1}, added)
    assert segment_sizes(tmp_path / "one") == [(157, 156), (2, 2)]
    patch_index(tmp_path / "one", tmp_path / "two", kb_index.FIELDS, "version", {1000}, [])
    assert segment_sizes(tmp_path / "two") == [(157, 156), (1, 1)]
    assert segment_sizes(build / CURRENT_DIR) == [(157, 157)]  # the source untouched
    shutil.rmtree(tmp_path / "one")
    assert segment_sizes(tmp_path / "two") == [(157, 156), (1, 1)]  # its own files
