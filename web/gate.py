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

Heavy pages (a card, an entry, two cards together: up to a second for a card with hundreds of
rulings) take the same turns (`heavy`: one costly answer or heavy page made at a time in a
process) but wait in a line of their own (``PAGES_WAITING`` in the app's config), so a flood of
card pages cannot fill the line of the diffs, nor the other way round.

Both lines together hold at most ``COSTLY_THREADS`` threads, running or waiting (`Gate`): a
request that would hold one more is refused at once, however short its line. ``rulings serve``
sets it so that at least half of a process's threads (all but the one, with one thread) are
left to the cheap answers: with its 8 threads, one costly answer is made, three more wait, and
four threads answer searches as if nothing else ran. A search, an autocompletion and a
document page take no turn at all: they never wait behind a costly answer for a thread (and in
the server's queue they go first: `web.cli.dispatch`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

from flask import current_app
from werkzeug.exceptions import ServiceUnavailable

AT_ONCE = 1
"""Costly answers made at a time in one process (the GIL lets one thread run Python at a time anyway)."""
WAITING = 64
"""Costly requests that may wait for their turn, unless the app's config says otherwise."""
WAIT = 10.0
"""Seconds a costly request waits for its turn before it is refused."""
RETRY_AFTER = 2
"""Seconds a refused client is asked to wait before asking again."""


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
    """Make the view's answer only in its turn among the long answers (`Turns`); a 503 with
    ``Retry-After`` when the server is busy with others of its kind."""
    busy = "The server is busy with other long answers (diffs, as-of views, decks); try again shortly."
    return _in_turn(view, "costly_turns", busy)


def heavy(view: Callable[..., Any]) -> Callable[..., Any]:
    """Make the page only in its turn among the heavy pages (cards, entries, pairs of cards)."""
    busy = "The server is busy with other large pages (cards, entries); try again shortly."
    return _in_turn(view, "page_turns", busy)


def _in_turn(view: Callable[..., Any], line: str, busy: str) -> Callable[..., Any]:
    @functools.wraps(view)
    def in_turn(*args: Any, **kwargs: Any) -> Any:
        turns: Turns = current_app.extensions[line]
        if not turns.enter():
            raise ServiceUnavailable(busy, retry_after=RETRY_AFTER)
        try:
            return view(*args, **kwargs)
        finally:
            turns.leave()

    in_turn.turns = line  # type: ignore[attr-defined]  # how the server tells costly requests (web.cli.dispatch)
    return in_turn
