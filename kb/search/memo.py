"""What a searcher's index tells a search, kept for that searcher's later searches.

A Whoosh searcher reads one fixed state of its index: an add or a build opens new searchers
(`kb.search.searchers`), so what the index answered a searcher stays true as long as it
lives. A searcher belongs to one thread, and so does its `Memo`: no lock is needed. Each
table is bounded, and forgotten whole when full (the searches that follow read again).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from whoosh.searching import Searcher

if TYPE_CHECKING:
    from kb.search.postings import Read

Key = TypeVar("Key")
Value = TypeVar("Value")


@dataclass
class Table(Generic[Key, Value]):
    """A table of at most ``most`` entries, emptied when one more is put."""

    most: int
    held: dict[Key, Value] = field(default_factory=dict)

    def get(self, key: Key) -> Value | None:
        return self.held.get(key)

    def put(self, key: Key, value: Value) -> Value:
        if len(self.held) >= self.most:
            self.held.clear()
        self.held[key] = value
        return value


@dataclass
class Memo:
    """One searcher's tables: terms' scored postings (`kb.search.bulk.scored`), topic documents'
    stored fields (`kb.search.history`), and terms' occurrences (`kb.search.matching.rarity`)."""

    scored: Table[tuple[int, str, bytes], Read] = field(default_factory=lambda: Table(4096))
    stored: Table[int, dict[str, Any]] = field(default_factory=lambda: Table(50_000))
    frequency: Table[tuple[str, Any], float] = field(default_factory=lambda: Table(4096))


def of(searcher: Searcher) -> Memo:
    """The tables of ``searcher`` (made on first use, gone with it)."""
    memo = _MEMOS.get(searcher)
    if memo is None:
        memo = _MEMOS[searcher] = Memo()
    return memo


_MEMOS: weakref.WeakKeyDictionary[Searcher, Memo] = weakref.WeakKeyDictionary()
