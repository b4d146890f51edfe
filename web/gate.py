"""Costly answers take turns and hold few threads, so they cannot starve the cheap ones.

A diff, an as-of view, the feed or a deck costs up to a page's budget of CPU time
(`kb.paging`), a search far less. Left alone, two dozen costly requests at once took every
thread of the server and a search waited behind them for over a minute. So in each server
process:

- at most `AT_ONCE` costly answers are made at a time;
- at most ``waiting`` more wait for their turn (``COSTLY_WAITING`` in the app's config;
  ``rulings serve`` sets it to a quarter of the threads, less the one made), each for at most
  `WAIT` seconds;
- any other costly request is refused at once with a 503 and ``Retry-After``.

Which requests take turns, and in which line, is decided by what they will cost (`web.costs`:
what the same request, or one of its shape, cost the last times), not by their page: a request
estimated under `costs.CHEAP` seconds of CPU (an entry page of a few milliseconds, a diff whose
changes are kept) takes no turn at all; one under `costs.LONG` waits in the pages' line
(``PAGES_WAITING`` in the app's config), a longer one in the long answers' line, so a flood of
one cannot fill the line of the other. The two lines take the same turns (one answer made at a
time in a process). A view never answered yet is deemed costly (`costly`: a diff, an as-of
view, the feed, a deck) or a page (`heavy`: a card, an entry, two cards together).

Both lines together hold at most ``COSTLY_THREADS`` threads, running or waiting (`Gate`): a
request that would hold one more is refused at once, however short its line. ``rulings serve``
sets it so that at least half of a process's threads (all but the one, with one thread) are
left to the cheap answers: with its 8 threads, one costly answer is made, three more wait, and
four threads answer searches as if nothing else ran. A search, an autocompletion and a
document page (and any request known to be cheap) take no turn at all: they never wait behind a
costly answer for a thread (and in the server's queue they go first: `web.cli.dispatch`).

Nor do searches wait behind a costly answer for Python's lock or for the machine's cores
(`Searches`): only one thread of a process runs Python at a time, and the workers share the
cores, so a search of 20-200 ms of CPU waited up to 2.7 s with 6 mixed clients while diffs and
decks were being made. While a search (or an autocompletion) is answered in any worker, a costly
answer or a heavy page pauses at its next item (`kb.paging.pause`: between items, topics, and
every `kb.read.reader.PAUSE_ROWS` versions read) once it has run `QUANTUM` seconds of CPU since
its last pause, and waits until no search is left, at most `PAUSE` seconds a time (so that it
still moves on under a steady stream of searches).

And searches take turns among themselves, in the order they came (`searching`, `Line`):
`SEARCHES_AT_ONCE` answered at a time in a process, the others waiting in line. A process runs one
thread of Python at a time anyway, so this costs no throughput; but where 25 searches shared a
core in slices, a search of 0.2 s of CPU took 25 slices' worth of everyone's turns and waited
over a second, while in line it waits for the searches before it only.
"""

from __future__ import annotations

import functools
import multiprocessing
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app, request
from werkzeug.exceptions import ServiceUnavailable

from kb.paging import yielding
from web import costs

AT_ONCE = 1
"""Costly answers made at a time in one process (the GIL lets one thread run Python at a time anyway)."""
WAITING = 64
"""Costly requests that may wait for their turn, unless the app's config says otherwise."""
WAIT = 10.0
"""Seconds a costly request waits for its turn before it is refused."""
RETRY_AFTER = 2
"""Seconds a refused client is asked to wait before asking again."""
LONG_PRIOR = 1.0
"""CPU seconds a long answer (`costly`) is deemed to cost until one like it has been answered."""
QUANTUM = 0.01
"""CPU seconds a costly answer or heavy page runs between two pauses while searches are answered."""
PAUSE = 0.25
"""Seconds a costly answer or heavy page waits at most, a time, for the searches to be answered."""
LOOK = 0.005
"""Seconds between two looks of a pausing answer at the searches of the other workers."""
SEARCHES_AT_ONCE = 1
"""Searches answered at a time in one process; the others wait in line, first come first served."""


class Searches:
    """The searches being answered, in this process and in every worker forked from the process
    that made the app (gunicorn's, sharing the machine's cores), for which costly answers pause
    (`pauses`)."""

    def __init__(self, at_once: int = SEARCHES_AT_ONCE) -> None:
        self.line = Line(at_once)
        """The searches' turns in this process, first come first served (taken by `searching`)."""
        self.changed = threading.Condition()
        self.everywhere = multiprocessing.RawValue("i", 0)
        """Searches being answered in every worker (memory shared by the workers forked after it was
        made; changed under ``counting``, read without it as a hint)."""
        self.counting = multiprocessing.Lock()
        self.paused = 0
        """Pauses made since the start (guarded by ``changed``): how a test sees a search go first."""
        self.waiting = 0
        """Costly answers pausing now (guarded by ``changed``)."""

    @contextmanager
    def search(self) -> Iterator[None]:
        """Within, a search is being answered (or waits in `line` for its turn, which is waiting
        for the CPU too): costly answers pause at their next item."""
        self._count(1)
        try:
            yield
        finally:
            self._count(-1)

    def _count(self, change: int) -> None:
        with self.changed:
            with self.counting:
                self.everywhere.value = max(0, self.everywhere.value + change)
            if change < 0:
                self.changed.notify_all()

    def pauses(self) -> Callable[[], None]:
        """The pause of one costly answer (`kb.paging.yielding`): when a search is being answered
        and the answer has run `QUANTUM` of CPU since it last paused, wait (holding no lock that
        Python's threads need) until none is, or `PAUSE` seconds."""
        resumed = [time.thread_time()]

        def pause() -> None:
            if not self.everywhere.value or time.thread_time() - resumed[0] < QUANTUM:
                return
            with self.changed:
                self.paused += 1
                self.waiting += 1
                until = time.monotonic() + PAUSE
                while self.everywhere.value and (left := until - time.monotonic()) > 0:
                    self.changed.wait(min(left, LOOK))  # woken at once by a search of this process
                self.waiting -= 1
            resumed[0] = time.thread_time()

        return pause


class Line:
    """Turns taken in the order asked: ``at_once`` held at a time, the next one handed to the
    oldest waiting (`threading.Lock` promises no order)."""

    def __init__(self, at_once: int, calling: Callable[[], threading.Event] = threading.Event) -> None:
        self.calling = calling
        """What a thread waiting is called by (a test's may be interrupted)."""
        self.lock = threading.Lock()
        self.free = at_once
        self.waiting: deque[threading.Event] = deque()
        self.longest = 0
        """The most ever waiting at once (guarded by ``lock``): how a test sees the line kept."""

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Within, this thread holds one of the turns."""
        called: threading.Event | None = None
        with self.lock:
            if self.free and not self.waiting:
                self.free -= 1
            else:
                called = self.calling()
                self.waiting.append(called)
                self.longest = max(self.longest, len(self.waiting))
        if called is not None:
            try:
                called.wait()  # the turn is handed over by the one leaving (`free` unchanged)
            except BaseException:  # interrupted while waiting (Ctrl-C in the main thread)
                with self.lock:
                    if called in self.waiting:  # not called yet: leave the line
                        self.waiting.remove(called)
                        raise
                self._hand_on()  # called meanwhile: the turn it was given goes to the next
                raise
        try:
            yield
        finally:
            self._hand_on()

    def _hand_on(self) -> None:
        """Give the turn held to the one waiting longest, or back when none waits."""
        with self.lock:
            if self.waiting:
                self.waiting.popleft().set()
            else:
                self.free += 1


def searching(view: Callable[..., Any]) -> Callable[..., Any]:
    """A search's view (a search, an autocompletion): answered in its turn (`Searches.line`), and
    while it waits or is answered, costly answers pause (`Searches`)."""

    @functools.wraps(view)
    def search(*args: Any, **kwargs: Any) -> Any:
        searches: Searches = current_app.extensions["searches"]
        with searches.search(), searches.line.turn():
            return view(*args, **kwargs)

    return search


class Gate:
    """The turns of one process, whatever the line: `AT_ONCE` made at a time, and at most
    ``most`` threads held by costly requests and heavy pages, running or waiting (no bound but
    the lines' when None)."""

    def __init__(self, most: int | None = None) -> None:
        self.running = threading.BoundedSemaphore(AT_ONCE)
        self.lock = threading.Lock()
        self.most = most
        self.held = 0
        """Threads held by the lines, running or waiting (guarded by ``lock``)."""
        self.peak = 0
        """The most threads ever held at once (guarded by ``lock``): how a test sees the bound kept."""

    def full(self) -> bool:
        """Whether one more request would hold more threads than allowed (call with ``lock`` held)."""
        return self.most is not None and self.held >= self.most


class Turns:
    """One line of costly answers: `AT_ONCE` made, at most ``waiting`` in line; lines given the
    same `Gate` take turns with each other and share its bound on threads."""

    def __init__(self, waiting: int, gate: Gate | None = None) -> None:
        self.gate = gate or Gate()
        self.waiting = waiting
        self.held = 0
        """Requests of this line running or waiting (guarded by the gate's lock)."""
        self.taken = 0
        """Turns taken since the start (guarded by the gate's lock): how a test sees which views take turns."""

    def enter(self, wait: float = WAIT) -> bool:
        """Take a turn (perhaps after waiting); False when the line or the gate is full or the wait too long."""
        gate = self.gate
        with gate.lock:
            if self.held >= AT_ONCE + self.waiting or gate.full():
                return False
            self.held += 1
            gate.held += 1
            gate.peak = max(gate.peak, gate.held)
        if gate.running.acquire(timeout=wait):
            with gate.lock:
                self.taken += 1
            return True
        self._out()
        return False

    def leave(self) -> None:
        self.gate.running.release()
        self._out()

    def _out(self) -> None:
        with self.gate.lock:
            self.held -= 1
            self.gate.held -= 1


def costly(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view whose answer may be long (a diff, an as-of view, the feed, a deck): until requests
    like it have been answered, it is deemed to cost `LONG_PRIOR` and waits in the long answers'
    line; then as its cost says (`web.costs`)."""
    return _in_turn(view, LONG_PRIOR)


def heavy(view: Callable[..., Any]) -> Callable[..., Any]:
    """A page that may be long (a card, an entry, two cards together): until pages like it have
    been answered, it is deemed to cost `costs.CHEAP` and waits in the pages' line; then as its
    cost says: an entry page of a few milliseconds takes no turn at all."""
    return _in_turn(view, costs.CHEAP)


BUSY = {
    "costly_turns": "The server is busy with other long answers (diffs, as-of views, decks); try again shortly.",
    "page_turns": "The server is busy with other large pages (cards, entries); try again shortly.",
}


def line_of(estimate: float) -> str | None:
    """The line a request of ``estimate`` CPU seconds waits in: none when cheap."""
    if estimate < costs.CHEAP:
        return None
    return "page_turns" if estimate < costs.LONG else "costly_turns"


def _in_turn(view: Callable[..., Any], prior: float) -> Callable[..., Any]:
    @functools.wraps(view)
    def in_turn(*args: Any, **kwargs: Any) -> Any:
        known: costs.Costs = current_app.extensions["costs"]
        endpoint, query = request.endpoint or "", request.query_string.decode("latin-1")
        line = line_of(known.estimate(endpoint, request.path, query, prior))
        turns: Turns | None = None if line is None else current_app.extensions[line]
        if turns is not None and not turns.enter():
            raise ServiceUnavailable(BUSY[str(line)], retry_after=RETRY_AFTER)
        searches: Searches = current_app.extensions["searches"]
        began = time.thread_time()
        try:
            if turns is None:  # a cheap answer does not pause
                return view(*args, **kwargs)
            with yielding(searches.pauses()):
                return view(*args, **kwargs)
        finally:
            known.record(endpoint, request.path, query, time.thread_time() - began)
            if turns is not None:
                turns.leave()

    in_turn.prior = prior  # type: ignore[attr-defined]  # how the server tells costly requests (web.cli.dispatch)
    return in_turn
