"""Under ``rulings serve``'s settings, costly requests and heavy pages hold few threads, the rest
are refused at once, and a search is answered while they wait (issue 33, item 5).

The server is waitress made as ``rulings serve`` makes it (`web.cli.serving`), in this process so
that the test can hold the one turn (`web.gate`) and count waitress's busy threads."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from waitress.adjustments import Adjustments
from waitress.parser import HTTPRequestParser
from waitress.server import create_server

from web.app import create_app
from web.cli import dispatch
from web.cli.arguments import parser
from web.cli.dispatch import CheapFirst, cheap_first
from web.cli.serving import app_settings, strict, waitress_settings

COSTLY = ["/diff.json", "/asof/2000-12-01.json", "/changes.atom", "/deck.json?list=Nebula"]
HEAVY = ["/card/U.S.S.%20Defiant.json", "/entry/stccg:conundrum.json", "/cards?names=Nebula,U.S.S.%20Defiant",
         "/card/Nebula"]  # fmt: skip
CHEAP = ["/index.json?q=ship", "/?q=damaged+ship", "/complete.json?q=con",
         "/docs/stccg-cr-update-2000-11-27?lines=79-83"]  # fmt: skip


@contextmanager
def served(kb: Path, threads: int, **changed: Any) -> Iterator[tuple[Flask, Any]]:
    """The app and the waitress server of ``rulings serve --threads THREADS`` on a free loopback
    port (the app's settings ``changed`` as given)."""
    args = parser().parse_args(["serve", "--kb", str(kb), "--port", "0", "--threads", str(threads)])
    app = create_app({**app_settings(args), **changed})
    server = cheap_first(strict(create_server(app, **waitress_settings(args))), app)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield app, server
    finally:
        server.close()


def get(port: int, path: str) -> tuple[int, str | None]:
    """The status and ``Retry-After`` of one request on a fresh connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After")
    finally:
        connection.close()


def fire(port: int, paths: list[str], answers: list[tuple[str, tuple[int, str | None]]]) -> list[threading.Thread]:
    """Each request of ``paths`` sent from a thread of its own, its answer appended to ``answers``."""
    asked = [threading.Thread(target=lambda p=path: answers.append((p, get(port, p)))) for path in paths]
    for thread in asked:
        thread.start()
    return asked


def until(condition: Any) -> None:
    """Wait until ``condition()`` (at most 30 s, on a busy machine)."""
    for _ in range(300):
        if condition():
            return
        time.sleep(0.1)


def held(app: Flask) -> int:
    """Requests of both lines running or waiting."""
    return int(app.extensions["costly_turns"].held + app.extensions["page_turns"].held)


@pytest.mark.parametrize(("threads", "waiting"), [(8, 3), (2, 0)])
def test_costly_requests_hold_few_threads_and_a_search_goes_on(bundled_root: Path, threads: int, waiting: int) -> None:
    with served(bundled_root, threads) as (app, server):
        port = server.effective_port
        assert [get(port, path)[0] for path in CHEAP] == [200] * len(CHEAP)  # warm
        costly = app.extensions["costly_turns"]
        assert costly.enter()  # a costly answer is being made: every other one must wait or be refused
        answers: list[tuple[str, tuple[int, str | None]]] = []
        asked = fire(port, [*COSTLY, *HEAVY], answers)
        until(  # each request refused or waiting in a line, and the threads that refused them idle
            lambda: len(answers) + held(app) - 1 == len(asked) and server.task_dispatcher.active_count == held(app) - 1
        )
        refused = len(asked) - waiting
        assert [answer for _, answer in answers] == [(503, "2")] * refused, answers  # refused at once
        assert held(app) - 1 == waiting == server.task_dispatcher.active_count  # the threads they hold
        for path in CHEAP:  # answered while the others wait: not queued behind them
            assert get(port, path)[0] == 200, path
        assert held(app) - 1 == waiting and len(answers) == refused
        costly.leave()
        for thread in asked:
            thread.join()
        assert sorted(status for _, (status, _) in answers) == [200] * waiting + [503] * refused
        assert held(app) == 0 and costly.gate.peak == waiting + 1 == app.config["COSTLY_THREADS"]


def test_a_search_waiting_for_a_thread_goes_before_the_costly_requests_that_came_first(bundled_root: Path) -> None:
    unbounded = {"COSTLY_THREADS": None, "COSTLY_WAITING": 64, "PAGES_WAITING": 64}  # a gate that lets all wait
    with served(bundled_root, 2, **unbounded) as (app, server):
        port = server.effective_port
        assert get(port, CHEAP[0])[0] == 200  # warm
        costly = app.extensions["costly_turns"]
        assert costly.enter()
        answers: list[tuple[str, tuple[int, str | None]]] = []
        asked = fire(port, COSTLY[:2], answers)  # they hold both threads, waiting for their turn
        until(lambda: held(app) == 3 and server.task_dispatcher.active_count == 2)
        queue = server.task_dispatcher.queue
        asked += fire(port, HEAVY, answers)  # no thread for them: they wait in waitress's queue
        until(lambda: len(queue) == len(HEAVY))
        asked += fire(port, CHEAP[:1], answers)  # came last
        until(lambda: len(queue) == len(HEAVY) + 1)
        assert [task.requests[0].path for task in queue.cheap] == ["/index.json"]  # first out
        assert len(queue.costly) == len(HEAVY) and answers == []
        costly.leave()
        for thread in asked:
            thread.join()
        assert sorted(status for _, (status, _) in answers) == [200] * (len(HEAVY) + 3)
        assert held(app) == 0 and len(queue) == 0


def _waiting(app: Flask, path: str) -> Any:
    """A connection of waitress's with the request for ``path`` read, as the queue holds them."""
    request = HTTPRequestParser(Adjustments())
    request.received(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return type("Channel", (), {"requests": [request]})()


def test_cheap_requests_leave_first_until_a_costly_one_has_waited_long(
    bundled_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app({"KB": str(bundled_root)})
    queue = CheapFirst(app)
    tasks = {path: _waiting(app, path) for path in [*COSTLY[:2], HEAVY[0], *CHEAP, "/nowhere", "/static/app.css"]}
    for task in tasks.values():
        queue.append(task)
    out = [queue.popleft() for _ in range(len(tasks))]
    assert [task.requests[0].path.split("?")[0] for task in out] == [
        "/index.json", "/", "/complete.json", "/docs/stccg-cr-update-2000-11-27", "/nowhere", "/static/app.css",
        "/diff.json", "/asof/2000-12-01.json", "/card/U.S.S. Defiant.json",
    ]  # fmt: skip
    monkeypatch.setattr(dispatch, "PATIENCE", 0.0)  # every costly request has waited long enough
    for task in tasks.values():
        queue.append(task)
    assert queue.popleft() is tasks[COSTLY[0]] and len(queue) == len(tasks) - 1
