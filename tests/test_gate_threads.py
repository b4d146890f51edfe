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
from waitress.server import create_server

from web.app import create_app
from web.cli.arguments import parser
from web.cli.serving import app_settings, strict, waitress_settings

COSTLY = ["/diff.json", "/asof/2000-12-01.json", "/changes.atom", "/deck.json?list=Nebula"]
HEAVY = ["/card/U.S.S.%20Defiant.json", "/entry/stccg:conundrum.json", "/cards?names=Nebula,U.S.S.%20Defiant",
         "/card/Nebula"]  # fmt: skip
CHEAP = ["/index.json?q=ship", "/?q=damaged+ship", "/complete.json?q=con",
         "/docs/stccg-cr-update-2000-11-27?lines=79-83"]  # fmt: skip


@contextmanager
def served(kb: Path, threads: int) -> Iterator[tuple[Flask, Any]]:
    """The app and the waitress server of ``rulings serve --threads THREADS`` on a free loopback port."""
    args = parser().parse_args(["serve", "--kb", str(kb), "--port", "0", "--threads", str(threads)])
    app = create_app(app_settings(args))
    server = strict(create_server(app, **waitress_settings(args)))
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


def held(app: Flask) -> int:
    """Requests of both lines running or waiting."""
    return int(app.extensions["costly_turns"].held + app.extensions["page_turns"].held)


@pytest.mark.parametrize(("threads", "waiting"), [(8, 2), (2, 0)])
def test_costly_requests_hold_few_threads_and_a_search_goes_on(bundled_root: Path, threads: int, waiting: int) -> None:
    with served(bundled_root, threads) as (app, server):
        port = server.effective_port
        assert [get(port, path)[0] for path in CHEAP] == [200] * len(CHEAP)  # warm
        costly = app.extensions["costly_turns"]
        assert costly.enter()  # a costly answer is being made: every other one must wait or be refused
        answers: list[tuple[str, tuple[int, str | None]]] = []
        asked = [
            threading.Thread(target=lambda p=path: answers.append((p, get(port, p)))) for path in [*COSTLY, *HEAVY]
        ]
        for thread in asked:
            thread.start()
        for _ in range(300):  # until each request is refused or waits in a line, its thread idle (at most 30 s)
            if len(answers) + held(app) - 1 == len(asked) and server.task_dispatcher.active_count == held(app) - 1:
                break
            time.sleep(0.1)
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
