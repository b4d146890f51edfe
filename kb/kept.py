"""Tables of what searches read, kept in memory for the searches that follow, bounded in bytes.

A `Kept` table is shared by the threads of a process: what it holds is never changed once put,
and its table is changed only under its lock (read without it: its keys are plain values, whose
lookups run in C, uninterrupted). Beyond its bound the least recently asked entries are
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
from collections.abc import Callable, Collection, Hashable, Iterable
from itertools import chain
from typing import Any, Generic, TypeVar, cast

Value = TypeVar("Value")


ENTRY = 120
"""What an entry of a table costs beyond its value: its key, its place, a small object."""


def size(value: object) -> int:
    """What ``value`` takes in memory with its parts: Python's own size of each object, walking
    tuples, lists, sets, dicts and dataclasses. A small number Python shares costs nothing
    alone; but the parts of a container of plain values, or of tuples of them (rows), are
    weighed at C speed, each counted whole (a number as `_INT`), not walked one by one."""
    sizer = _SIZERS.get(type(value))
    if sizer is not None:
        return sizer(value)
    for kind, sizer in _SIZERS.items():  # a subclass: a named tuple, say
        if isinstance(value, kind):
            return sizer(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [getattr(value, field.name) for field in dataclasses.fields(value)]
        return sys.getsizeof(value) + _parts(fields)  # not vars(): that would give it a dict for good
    return sys.getsizeof(value)


def _int(value: int) -> int:
    return 0 if -5 <= value <= 256 else sys.getsizeof(value)


def _parts(values: Iterable[object]) -> int:
    """The sizes of ``values`` together: at C speed when they are all plain, or all tuples of
    plain values (a table's rows, say), or tuples of those."""
    values = tuple(values)
    return _of_kinds(values, set(map(type, values)))


def _of_kinds(values: tuple[object, ...], kinds: set[type]) -> int:
    if kinds == _INTS:  # not one by one: rows of numbers are most of what a table weighs
        return _INT * len(values)
    if kinds <= _PLAIN:
        return sum(map(sys.getsizeof, values))
    if kinds == _TUPLES:
        cells: tuple[object, ...] = tuple(chain.from_iterable(cast("tuple[tuple[object, ...], ...]", values)))
        inner = set(map(type, cells))
        if inner <= _PLAIN or inner == _TUPLES:
            return _TUPLE * len(values) + _CELL * len(cells) + _of_kinds(cells, inner)
    return sum(map(size, values))


def _items(value: Collection[object]) -> int:
    return sys.getsizeof(value) + _parts(value)


def _mapping(value: dict[object, object]) -> int:
    return sys.getsizeof(value) + _parts(value.keys()) + _parts(value.values())


_PLAIN = frozenset({int, float, str, bytes, bool, type(None), dt.date})
"""The types of plain values, holding no others."""
_TUPLES = {tuple}
_INTS = {int}
_INT = sys.getsizeof(1 << 20)
"""What a number takes (`sys.getsizeof`), up to 2**30."""
_TUPLE = sys.getsizeof(())
_CELL = sys.getsizeof((0,)) - _TUPLE
"""What a tuple takes (`sys.getsizeof`): the first, and the second for each of its cells."""
_SIZERS: dict[type, Callable[[Any], int]] = {
    int: _int, **dict.fromkeys((float, str, bytes, bool, type(None), dt.date), sys.getsizeof),
    **dict.fromkeys((tuple, list, set, frozenset), _items), dict: _mapping,
}  # fmt: skip
"""How a value of each type is weighed (`size`)."""


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
        """The value kept under ``key``, now the most recently asked; None if none is. Without
        the lock: each step is one call into the C of CPython's ordered dict, which no other
        thread interrupts, and an entry dropped between the two only misses its move."""
        found = self._held.get(key)
        if found is not None:
            try:  # noqa: SIM105 (contextlib.suppress would cost a context manager on every hit)
                self._held.move_to_end(key)
            except KeyError:
                pass
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
