"""The fresh-queries benchmark's query stream (`bench/query_stream.py`) on the bundled library:
seeded, every query distinct, every class, scope and frequency band there, each query what its
class says it is (so the benchmark cannot slide back into asking the same few queries)."""

from __future__ import annotations

import importlib
import re
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import pytest

from helpers import ROOT
from kb.paths import current

sys.path.insert(0, str(ROOT / "bench"))
STREAM = importlib.import_module("query_stream")
COMMON = importlib.import_module("common")
COUNT = 600


@pytest.fixture(scope="module")
def store(bundled_root: Path) -> Path:
    return current(bundled_root) / "kb.sqlite"


@pytest.fixture(scope="module")
def queries(store: Path) -> list[object]:
    return STREAM.stream(store, COUNT, 37)  # type: ignore[attr-defined,no-any-return]


def test_seeded_and_distinct(store: Path, queries: list[object]) -> None:
    assert STREAM.stream(store, COUNT, 37) == queries  # type: ignore[attr-defined]
    assert STREAM.stream(store, COUNT, 38) != queries  # type: ignore[attr-defined]
    texts = [q.text for q in queries]  # type: ignore[attr-defined]
    assert len(texts) == COUNT
    assert len(set(texts)) == COUNT


def test_classes_and_scopes(queries: list[object]) -> None:
    kinds = Counter(q.kind for q in queries)  # type: ignore[attr-defined]
    assert kinds == {"word": 240, "pair": 72, "phrase": 72, "question": 72, "field": 72, "fuzzy": 72}
    assert Counter(q.scope for q in queries) == {"in force": 200, "every version": 200, "as of": 200}  # type: ignore[attr-defined]
    assert all((q.day is not None) == (q.scope == "as of") for q in queries)  # type: ignore[attr-defined]


def test_words_banded_by_versions_holding_them(store: Path, queries: list[object]) -> None:
    """Each word's band holds the number of versions whose headword, card names or text have it,
    counted here again with a word-boundary search; rare words (in at most 6 versions) are there."""
    texts = [f"{r.headword} {r.cards} {r.text}".lower() for r in COMMON.version_rows(store)]  # type: ignore[attr-defined]
    words = [q for q in queries if q.kind == "word"]  # type: ignore[attr-defined]
    bands = Counter(q.band for q in words)  # type: ignore[attr-defined]
    assert bands["1-6"] >= 60
    assert len(bands) >= 2
    for q in words[:40]:
        holding = sum(1 for t in texts if re.search(rf"(?<![a-z]){q.text}(?![a-z])", t))  # type: ignore[attr-defined]
        assert holding == q.frequency  # type: ignore[attr-defined]
        low, high = q.band.split("-")  # type: ignore[attr-defined]
        assert int(low) <= holding <= int(high)


def test_each_query_is_of_its_class(store: Path, queries: list[object]) -> None:
    rows = COMMON.version_rows(store)  # type: ignore[attr-defined]
    joined = [" ".join(re.findall(r"[a-z]{3,}", r.text.lower())) for r in rows]
    all_words = set(" ".join(joined).split())
    with sqlite3.connect(store) as db:
        cards = {name for (name,) in db.execute("SELECT name FROM cards")}
    for q in queries:
        text = q.text  # type: ignore[attr-defined]
        if q.kind == "question":  # type: ignore[attr-defined]
            assert 6 <= len(text.split()) <= 10, text
        elif q.kind == "phrase":  # type: ignore[attr-defined]
            assert text.startswith('"') and any(text.strip('"') in j for j in joined), text
        elif q.kind == "field":  # type: ignore[attr-defined]
            name, value = text.split(":", 1)
            assert (name == "card" and value.strip('"') in cards) or (name == "headword" and value.isalpha()), text
        elif q.kind == "fuzzy":  # type: ignore[attr-defined]
            assert text not in all_words
            assert any(_one_edit(text, w) for w in all_words if abs(len(w) - len(text)) <= 1), text


def _one_edit(typo: str, word: str) -> bool:
    """Whether ``typo`` is ``word`` with one letter dropped, doubled, or two neighbours swapped."""
    if len(typo) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typo, word, strict=True)) if a != b]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and typo[diff[0]] == word[diff[1]]
    short, long = sorted((typo, word), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
