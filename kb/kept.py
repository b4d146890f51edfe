"""Tables of what searches read, kept in memory for the searches that follow, bounded in bytes.

A `Kept` table is shared by the threads of a process: what it holds is never changed once put,
and its table only under its lock. Beyond its bound the least recently asked entries are
dropped, one at a time, so a full table stays full (it is never emptied whole, which would
make the searches that follow read everything again at once). A table may also take its bytes
from a `Pool` that several tables share: the process's bound for all of them together.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


ENTRY = 120
"""What an entry of a table costs beyond its value: its key, its place, a small object."""


def size(value: object) -> int:
    """What ``value`` takes in memory with its parts: Python's own size of each object, walking
    tuples, lists, sets, dicts and dataclasses (the small numbers Python shares cost nothing,
    but in a container of plain values only, each counted whole: those are sized at C speed)."""
    if isinstance(value, int):
        return 0 if -5 <= value <= 256 else sys.getsizeof(value)
    if isinstance(value, (float, str, bytes, dt.date)) or value is None:
        return sys.getsizeof(value)
    if isinstance(value, (tuple, list, set, frozenset)):
        if _PLAIN.issuperset(map(type, value)):
            return sys.getsizeof(value) + sum(map(sys.getsizeof, value))
        return sys.getsizeof(value) + sum(map(size, value))
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size(k) + size(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + size(vars(value))
    return sys.getsizeof(value)


_PLAIN = frozenset({int, float, str, bytes, bool, type(None), dt.date})
"""The types of plain values, holding no others."""


def sized(value: object) -> int:
    """What an entry holding ``value`` costs: `size` and `ENTRY`."""
    return ENTRY + size(value)


class Pool:
    """The bytes the tables of a process hold together, at most ``most``. Tables of any thread
    take from it under its lock; what a table gives back (dropped, or collected with it,
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


class Kept(Generic[Value]):
    """Entries weighing ``most`` bytes at most together (each ``weight(value)``), the least
    recently asked dropped first; an entry over ``largest`` (an eighth of ``most`` unless said)
    is not kept, so that one does not push out the rest. With a ``pool``, each entry's bytes
    are taken from it too: when the pool is full, the table drops its own least recently asked
    entries until the new one fits, and keeps nothing more if none are left."""

    def __init__(
        self,
        most: int,
        weight: Callable[[Value], int] = lambda value: 1,
        pool: Pool | None = None,
        largest: int | None = None,
    ) -> None:
        self.most = most
        self.weight = weight
        self.pool = pool
        self.largest = most // 8 if largest is None else largest
        self.size = 0
        self._held: OrderedDict[Hashable, Value] = OrderedDict()
        self._sizes: dict[Hashable, int] = {}
        """Each key's weight, apart: a (value, size) pair per entry would be one more object for
        Python's cyclic collector to walk at each full collection."""
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Value | None:
        with self._lock:
            found = self._held.get(key)
            if found is not None:
                self._held.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Value) -> Value:
        """Keep ``value`` under ``key`` if it may be (see the class); return what is kept there,
        or ``value`` when nothing is."""
        size = self.weight(value)
        if size > self.largest:
            return value
        with self._lock:
            found = self._held.get(key)
            if found is not None:
                return found
            while self._held and self.size + size > self.most:
                self._drop_oldest()
            while self.pool is not None and not self.pool.take(size):
                if not self._held:
                    return value  # the other tables hold the whole pool
                self._drop_oldest()
            self._held[key] = value
            self._sizes[key] = size
            self.size += size
        return value

    def _drop_oldest(self) -> None:
        key, _ = self._held.popitem(last=False)
        dropped = self._sizes.pop(key)
        self.size -= dropped
        if self.pool is not None:
            self.pool.give(dropped)

    def empty(self) -> None:
        """Forget everything, giving its bytes back to the pool."""
        with self._lock:
            self._held.clear()
            self._sizes.clear()
            if self.pool is not None:
                self.pool.give(self.size)
            self.size = 0

    def asked(self) -> list[Hashable]:
        """The keys held, the least recently asked first."""
        with self._lock:
            return list(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def __del__(self) -> None:
        if self.pool is not None:
            self.pool.give(self.size)
