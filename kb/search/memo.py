"""What a searcher's index tells a search, kept for that searcher's later searches.

A Whoosh searcher reads one fixed state of its index: an add or a build opens new searchers
(`kb.search.searchers`), so what the index answered a searcher stays true as long as it
lives. A searcher belongs to one thread, and so does its `Memo`: no lock is needed. Each
table is bounded, and forgotten whole when full (the searches that follow read again).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kb.engine.searching import Searcher

Key = TypeVar("Key")
Value = TypeVar("Value")


@dataclass
class Table(Generic[Key, Value]):
    """A table of entries weighing ``most`` at most (each ``weight`` of it: 1 unless told),
    emptied when one more would weigh it over."""

    most: int
    weight: Callable[[Value], int] = lambda value: 1
    held: dict[Key, Value] = field(default_factory=dict)
    weighs: int = 0

    def get(self, key: Key) -> Value | None:
        return self.held.get(key)

    def put(self, key: Key, value: Value) -> Value:
        weight = self.weight(value)
        if self.weighs + weight > self.most:
            self.held.clear()
            self.weighs = 0
        self.held[key] = value
        self.weighs += weight
        return value


def _bytes(read: Any) -> int:
    """What a term's scored postings (`kb.engine.postings.Read`) weigh: its arrays' bytes."""
    return int(read.ids.nbytes + read.scores.nbytes)


@dataclass
class Memo:
    """One searcher's tables: terms' scored postings (`kb.search.bulk.scored`, 16 MiB of arrays at
    most), topic documents' stored fields (`kb.search.history`), and terms' occurrences
    (`kb.search.matching.rarity`)."""

    scored: Table[tuple[int, str, bytes], Any] = field(default_factory=lambda: Table(16 << 20, _bytes))
    stored: Table[int, dict[str, Any]] = field(default_factory=lambda: Table(50_000))
    frequency: Table[tuple[str, Any], float] = field(default_factory=lambda: Table(4096))


def of(searcher: Searcher) -> Memo:
    """The tables of ``searcher`` (made on first use, gone with it)."""
    memo = _MEMOS.get(searcher)
    if memo is None:
        memo = _MEMOS[searcher] = Memo()
    return memo


def forget() -> None:
    """Forget every searcher's tables (a benchmark's first search of its words: `bench/first_search.py`)."""
    _MEMOS.clear()


_MEMOS: weakref.WeakKeyDictionary[Searcher, Memo] = weakref.WeakKeyDictionary()
