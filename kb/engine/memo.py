"""What a knowledge base's index tells its searches, kept for the searches that follow.

A Whoosh searcher reads one fixed state of its index: a build or an add writes a new build and
opens new searchers on it (`kb.search.searchers`), so what an index answered stays true as long
as its build is read. Each thread has its own searchers (Whoosh's are not thread-safe), but
they all read the same files: the searchers of one index share one `Memo`, whose tables
(`kb.kept.Kept`) any thread reads, and fills under their locks. Each table is bounded in
bytes, its least recently asked entries dropped first; and all the tables of a process together
weigh at most `MEMO_BYTES` (`POOL`), however many threads search and builds are read.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kb.engine.handles import Index
from kb.engine.postings import Read, size_of
from kb.kept import ENTRY, Kept, Pool, sized

Value = TypeVar("Value")

MEMO_BYTES = 128 << 20
"""What the tables of a process's searchers weigh at most together, in bytes."""
POOL = Pool(MEMO_BYTES)
"""The process's pool of the tables' bytes."""


def _bytes(read: Read) -> int:
    """What a term's scored postings (`kb.engine.postings.Read`) weigh: as its postings read whole."""
    return size_of((read.ids, read.scores, read.values)) + ENTRY


def _entry(value: float) -> int:
    return ENTRY


def _table(most: int, weight: Callable[[Value], int]) -> Kept[Value]:
    return Kept(most, weight, POOL, largest=most // 2)


@dataclass
class Memo:
    """The tables of one index's searchers: terms' scored postings (`kb.engine.bulk.scored`,
    16 MiB at most), the history index's versions and their days in force
    (`kb.search.validity.Validity`, 16 MiB: about 1.3 MiB for 90,000 versions; with them each
    document's key ordering equal scores, `kb.engine.steady.order_keys`) and terms'
    occurrences (`kb.engine.version_matching.rarity`, 1 MiB) and the terms of the headwords of documents
    a search read (`kb.search.in_force._named`, 4 MiB); all of them within the process's `POOL`.
    An entry may weigh half its table at most."""

    scored: Kept[Read] = field(default_factory=lambda: _table(16 << 20, _bytes))
    days: Kept[Any] = field(default_factory=lambda: _table(16 << 20, sized))
    frequency: Kept[float] = field(default_factory=lambda: _table(1 << 20, _entry))
    headwords: Kept[frozenset[str]] = field(default_factory=lambda: _table(4 << 20, sized))

    def tables(self) -> tuple[Kept[Read], Kept[Any], Kept[float], Kept[frozenset[str]]]:
        return self.scored, self.days, self.frequency, self.headwords

    def empty(self) -> None:
        """Forget everything, giving the bytes back to the pool."""
        for table in self.tables():
            table.empty()


def shared(searcher: Index, memo: Memo) -> Index:
    """``searcher``, its tables now ``memo`` (which the other searchers of its index share)."""
    with _LOCK:
        _MEMOS[searcher] = memo
    return searcher


def of(searcher: Index) -> Memo:
    """The tables of ``searcher``: those it shares (`shared`), else its own (made on first use,
    gone with it)."""
    memo = _MEMOS.get(searcher)
    if memo is None:
        with _LOCK:
            memo = _MEMOS.setdefault(searcher, Memo())
    return memo


def memos() -> list[Memo]:
    """The tables of the live searchers, each once."""
    with _LOCK:
        found = list(_MEMOS.values())
    return list({id(memo): memo for memo in found}.values())


def forget() -> None:
    """Empty every searcher's tables (a benchmark's first search of its words: `bench/first_search.py`)."""
    for memo in memos():
        memo.empty()


_LOCK = threading.Lock()
_MEMOS: weakref.WeakKeyDictionary[Index, Memo] = weakref.WeakKeyDictionary()
