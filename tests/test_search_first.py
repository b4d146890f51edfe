"""While a search is answered, a costly answer being made pauses between its items, so that the
search has Python's lock to itself (issue 48, item 6: a cheap search never waits behind a diff).

The server is waitress made as ``rulings serve`` makes it (`test_gate_threads.served`), in this
process so that the test can hold a search "being answered" (`web.gate.Searches.search`) and see
the costly answer paused: turns and order, never milliseconds."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from test_gate_threads import fire, get, served, until
from test_serve import serving, worker_processes

from kb.paging import Paging, page_of, pause, yielding
from web import gate

DIFF = "/diff.json?from=1990-01-01&to=2030-01-01&size=1000"
"""A diff of every change of the bundled library: many items, each a point where it may pause."""


def test_a_costly_answer_waits_while_a_search_is_answered(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate, "QUANTUM", 0.0)  # pause at the first item (the bundled diff is short)
    monkeypatch.setattr(gate, "PAUSE", 120.0)  # and wait for the search to end, however long
    with served(bundled_root, 8) as (app, server):
        port = server.effective_port
        assert get(port, "/index.json?q=ship")[0] == 200  # warm
        searches = app.extensions["searches"]
        answers: list[tuple[str, tuple[int, str | None]]] = []
        with searches.search():  # a search is being answered
            asked = fire(port, [DIFF], answers)
            until(lambda: searches.waiting == 1)
            assert searches.waiting == 1 and answers == []  # the diff waits for the search
            assert get(port, "/index.json?q=damaged+ship")[0] == 200  # another search goes on meanwhile
            assert searches.waiting == 1 and answers == []
        for thread in asked:
            thread.join()
        assert answers == [(DIFF, (200, None))] and searches.waiting == 0 and searches.paused == 1
        assert get(port, DIFF)[0] == 200 and searches.paused == 1  # no search answered: no pause


def test_a_costly_answer_still_moves_on_under_a_steady_stream_of_searches(
    bundled_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gate, "QUANTUM", 0.0)
    monkeypatch.setattr(gate, "PAUSE", 0.01)  # a pause is short: the diff goes on while searches last
    with served(bundled_root, 8) as (app, server):
        port = server.effective_port
        searches = app.extensions["searches"]
        with searches.search():  # searches answered all along
            assert get(port, DIFF)[0] == 200
            assert searches.paused > 1 and searches.waiting == 0  # it paused at item after item


def test_a_long_answer_pauses_at_each_item_only_where_a_way_to_wait_was_given() -> None:
    paused: list[int] = []
    seen: list[int] = []

    def make(item: int) -> int:
        seen.append(item)
        return item

    with yielding(lambda: paused.append(len(seen))):
        made, _ = page_of(list(range(5)), Paging(0, 5), make)
    assert made == [0, 1, 2, 3, 4] and paused == [0, 1, 2, 3, 4]  # before each item
    pause()  # outside: nothing to call
    other: list[int] = []
    thread = threading.Thread(target=pause)  # another thread has no way to wait
    with yielding(lambda: other.append(1)):
        thread.start()
        thread.join()
    assert other == []


def opened_store(pid: int) -> bool:
    """Whether process ``pid`` holds a knowledge base's ``kb.sqlite`` open."""
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd).endswith("kb.sqlite"):
                return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("workers", ["1", "2"])
def test_each_process_opens_the_knowledge_base_before_its_first_request(
    bundled_root: Path, tmp_path: Path, workers: str
) -> None:
    """Before, the first searches of a worker waited for it to open the knowledge base (up to 4.3 s
    for the quarter-size stress library on a worker just forked): now each process opens it, and
    answers a search, before it takes a connection. No request is sent here."""
    with serving(bundled_root, tmp_path / "serve.log", "--workers", workers) as server:
        pids = [server.pid] if workers == "1" else worker_processes(server.pid, wanted=2)
        for _ in range(300):  # up to 30 s on a busy machine
            if all(opened_store(pid) for pid in pids):
                break
            time.sleep(0.1)
        assert [opened_store(pid) for pid in pids] == [True] * len(pids)


def test_searches_take_turns_in_the_order_they_came() -> None:
    """A process answers one search at a time (`web.gate.Line`), the next the one waiting longest:
    a search of 0.2 s no longer shares a core in slices with two dozen others."""
    line = gate.Line(1)
    served_order: list[int] = []
    with line.turn():  # a search being answered
        waiting = []
        for number in range(5):  # each comes once the one before waits in line
            thread = threading.Thread(target=lambda n=number: _in_turn(line, served_order, n))
            thread.start()
            waiting.append(thread)
            until(lambda n=number: len(line.waiting) == n + 1)
            assert len(line.waiting) == number + 1
        assert served_order == []  # none answered while the turn is held
    for thread in waiting:
        thread.join()
    assert served_order == [0, 1, 2, 3, 4] and line.longest == 5 and line.free == 1
    with line.turn():  # no one waiting: the turn is taken at once
        assert line.free == 0 and not line.waiting
    assert line.free == 1


def _in_turn(line: gate.Line, served_order: list[int], number: int) -> None:
    with line.turn():
        served_order.append(number)


def test_a_search_waits_for_the_search_before_it_in_the_server(bundled_root: Path) -> None:
    """Through the real server: while a search holds the process's turn, the next search is not
    answered; it is once the turn is given back."""
    with served(bundled_root, 8) as (app, server):
        port = server.effective_port
        assert get(port, "/index.json?q=ship")[0] == 200  # warm
        searches = app.extensions["searches"]
        answers: list[tuple[str, tuple[int, str | None]]] = []
        with searches.line.turn():
            asked = fire(port, ["/index.json?q=damaged+ship"], answers)
            until(lambda: len(searches.line.waiting) == 1)
            assert len(searches.line.waiting) == 1 and answers == []
        for thread in asked:
            thread.join()
        assert answers == [("/index.json?q=damaged+ship", (200, None))] and not searches.line.waiting


@pytest.mark.parametrize("after_call", [False, True])
def test_a_search_interrupted_in_line_leaves_it_and_loses_no_turn(after_call: bool) -> None:
    """A thread interrupted while it waits in line (KeyboardInterrupt in the main thread) leaves
    the line; one interrupted just after it was called passes its turn on. Either way the next
    search still gets a turn: none is lost for good."""
    line = gate.Line(1, lambda: Interrupted(after_call))
    interrupted: list[bool] = []
    with line.turn():
        thread = threading.Thread(target=lambda: _interrupted_in_line(line, interrupted))
        thread.start()
        until(lambda: len(line.waiting) == 1 or bool(interrupted))
        if not after_call:
            thread.join()
            assert interrupted == [True] and not line.waiting  # it left the line, uncalled
        else:
            assert len(line.waiting) == 1 and interrupted == []  # it waits to be called
    thread.join()
    assert interrupted == [True] and not line.waiting and line.free == 1  # the turn came back
    served_order: list[int] = []
    _in_turn(line, served_order, 7)
    assert served_order == [7] and line.free == 1


class Interrupted(threading.Event):
    """An event whose wait is interrupted: at once, or once it is set (``after_call``)."""

    def __init__(self, after_call: bool) -> None:
        super().__init__()
        self.after_call = after_call

    def wait(self, timeout: float | None = None) -> bool:
        if self.after_call:
            super().wait(timeout)
        raise KeyboardInterrupt


def _interrupted_in_line(line: gate.Line, interrupted: list[bool]) -> None:
    try:
        with line.turn():
            pass
    except KeyboardInterrupt:
        interrupted.append(True)
