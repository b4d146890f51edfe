"""Costly answers take turns, so they cannot starve the cheap ones.

A diff, an as-of view, the feed or a deck costs up to a page's budget of CPU time
(`kb.paging`), a search far less. Left alone, two dozen costly requests at once took every
thread of the server and a search waited behind them for over a minute. So in each server
process:

- at most `AT_ONCE` costly answers are made at a time;
- at most ``waiting`` more wait for their turn (``COSTLY_WAITING`` in the app's config;
  ``rulings serve`` sets it so that costly requests hold at most half the threads), each for
  at most `WAIT` seconds;
- any other costly request is refused at once with a 503 and ``Retry-After``, and every
  thread left over answers searches and pages as if nothing else ran.

Heavy pages (a card, an entry, two cards together: up to a second for a card with hundreds of
rulings) take the same turns (`heavy`: one costly answer or heavy page made at a time in a
process) but wait in a line of their own (``PAGES_WAITING`` in the app's config), so a flood of
card pages cannot fill the line of the diffs, nor the other way round. ``rulings serve`` gives
the pages half of the threads and the long answers a quarter, so at least a quarter is always
left to the cheap answers.
A search, an autocompletion and a document page take no turn at all: they never wait behind a
costly answer.
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


class Turns:
    """The costly answers of one process: `AT_ONCE` made, at most ``waiting`` in line; lines
    given the same ``running`` semaphore take turns with each other."""

    def __init__(self, waiting: int, running: threading.BoundedSemaphore | None = None) -> None:
        self.running = running or threading.BoundedSemaphore(AT_ONCE)
        self.lock = threading.Lock()
        self.waiting = waiting
        self.held = 0
        """Requests running or waiting (guarded by ``lock``)."""
        self.taken = 0
        """Turns taken since the start (guarded by ``lock``): how a test sees which views take turns."""

    def enter(self, wait: float = WAIT) -> bool:
        """Take a turn (perhaps after waiting); False when the line is full or the wait too long."""
        with self.lock:
            if self.held >= AT_ONCE + self.waiting:
                return False
            self.held += 1
        if self.running.acquire(timeout=wait):
            with self.lock:
                self.taken += 1
            return True
        with self.lock:
            self.held -= 1
        return False

    def leave(self) -> None:
        self.running.release()
        with self.lock:
            self.held -= 1


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

    return in_turn
