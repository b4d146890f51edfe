"""What a searcher's index tells a search, kept for that searcher's later searches.

A Whoosh searcher reads one fixed state of its index: an add or a build opens new searchers
(`kb.search.searchers`), so what the index answered a searcher stays true as long as it
lives. A searcher belongs to one thread, and so does its `Memo`: no lock is needed for its
tables. Each table is bounded in bytes, and forgotten whole when full (the searches that follow
read again); and all the tables of a process together weigh at most `MEMO_BYTES` (`POOL`),
however many threads (each with its searchers) a server runs: a table that cannot take its
share from the pool forgets what it held, and keeps nothing more while the others hold it all.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kb.engine.searching import Searcher

Key = TypeVar("Key")
Value = TypeVar("Value")

MEMO_BYTES = 256 << 20
"""What the tables of every searcher of a process weigh at most together, in bytes. 64 MiB held a
worker of 8 threads on the 90k stress knowledge base at 341 MB over 10,000 distinct searches, but
made them three times slower (a full pool leaves new tables nothing); 256 MiB: 443 MB, as fast as
without a bound (467 MB and rising)."""
ENTRY = 120
"""What an entry of a table costs beyond its value: its key, its place, a small object."""
VALUE_BYTES = 41
"""What one encoded position (a bytes object) costs beyond its length, and its place."""


class Pool:
    """The bytes the tables of a process hold together, at most ``most``. Tables of any thread
    take from it under its lock; what a table gives back (emptied, or collected with its searcher,
    perhaps inside another `take`) is queued without the lock and counted at the next `take`."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.held = 0
        self._given: list[int] = []
        self._lock = threading.Lock()

    def take(self, size: int) -> bool:
        """Whether ``size`` more bytes fit (then they are held)."""
        with self._lock:
            while self._given:
                self.held -= self._given.pop()
            if self.held + size > self.most:
                return False
            self.held += size
            return True

    def give(self, size: int) -> None:
        """Give back ``size`` bytes (safe anywhere, even in a finalizer: no lock)."""
        if size:
            self._given.append(size)

    def holds(self) -> int:
        """The bytes held now."""
        self.take(0)
        return self.held


POOL = Pool(MEMO_BYTES)
"""The process's pool of the tables' bytes."""


def _one(value: object) -> int:
    return 1


@dataclass
class Table(Generic[Key, Value]):
    """A table of entries weighing ``most`` at most (each ``weight`` of it, in bytes unless it
    counts entries), emptied when one more would weigh it over or the process's `POOL` has no
    room for it."""

    most: int
    weight: Callable[[Value], int] = _one
    held: dict[Key, Value] = field(default_factory=dict)
    weighs: int = 0
    pool: Pool = field(default_factory=lambda: POOL)

    def get(self, key: Key) -> Value | None:
        return self.held.get(key)

    def put(self, key: Key, value: Value) -> Value:
        """Keep ``value`` under ``key`` if it fits (see the class); return it either way."""
        weight = self.weight(value)
        if weight > self.most:
            return value
        if self.weighs + weight > self.most or not self.pool.take(weight):
            self.empty()
            if not self.pool.take(weight):
                return value  # the other threads' tables hold the process's share: keep nothing
        self.held[key] = value
        self.weighs += weight
        return value

    def empty(self) -> None:
        """Forget everything, giving its bytes back to the pool."""
        self.held.clear()
        self.pool.give(self.weighs)
        self.weighs = 0

    def __del__(self) -> None:
        self.pool.give(self.weighs)


def _bytes(read: Any) -> int:
    """What a term's scored postings (`kb.engine.postings.Read`) weigh: its arrays' bytes, and its
    encoded positions (their bytes and each one's place)."""
    values = read.values or ()
    return int(read.ids.nbytes + read.scores.nbytes) + sum(map(len, values)) + VALUE_BYTES * len(values) + ENTRY


def _deep(value: Any) -> int:
    """What ``value`` (text, a number, or tuples and lists of them) takes in memory, its parts
    included: Python's own size of each object (the small numbers Python shares cost nothing)."""
    if isinstance(value, (tuple, list)):
        return sys.getsizeof(value) + sum(map(_deep, value))
    if isinstance(value, int) and -5 <= value <= 256:
        return 0
    return sys.getsizeof(value)


def _stored_bytes(stored: dict[str, Any]) -> int:
    """What a topic document's stored fields weigh: the dict, its names and values (the topic, the
    versions' spans, the days their versions in force change: `kb.search.history`), all parts
    counted."""
    return ENTRY + sys.getsizeof(stored) + sum(_deep(name) + _deep(value) for name, value in stored.items())


def _entry(value: float) -> int:
    return ENTRY


@dataclass
class Memo:
    """One searcher's tables: terms' scored postings (`kb.search.bulk.scored`, 16 MiB at most),
    topic documents' stored fields (`kb.search.history`, 40 MiB: as many topics as the 16 MiB held
    when the days their versions change went uncounted, about 2.4 times fewer bytes), and terms' occurrences
    (`kb.search.matching.rarity`, 1 MiB); all of them within the process's `POOL`."""

    scored: Table[tuple[int, str, bytes], Any] = field(default_factory=lambda: Table(16 << 20, _bytes))
    stored: Table[int, dict[str, Any]] = field(default_factory=lambda: Table(40 << 20, _stored_bytes))
    frequency: Table[tuple[str, Any], float] = field(default_factory=lambda: Table(1 << 20, _entry))


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
