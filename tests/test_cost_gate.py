"""Requests take turns by what they cost, not by their page (issue 48, item 6): while the long
answers hold every turn and line, an entry or card page known to be cheap is answered, and one
that proved costly waits its turn or is refused like a diff.

The server is waitress made as ``rulings serve --threads 2`` makes it (one turn, no place in
line: any request that takes a turn while the test holds it is refused at once)."""

from __future__ import annotations

import time
from pathlib import Path

from test_gate_threads import COSTLY, fire, get, held, served, until

from web.costs import CHEAP, Costs, exact_key, shape


def test_cheap_pages_are_answered_while_the_long_answers_hold_the_gate(bundled_root: Path) -> None:
    with served(bundled_root, 2) as (app, server):
        port = server.effective_port
        asked_before = "/entry/stccg:conundrum.json"
        assert get(port, asked_before)[0] == 200  # what it costs is known now: a few milliseconds
        assert get(port, "/card/Nebula.json")[0] == 200  # and what a card page costs
        turns = app.extensions["costly_turns"]
        assert turns.enter()  # a long answer is being made: the gate is full
        try:
            answers: list[tuple[str, tuple[int, str | None]]] = []
            for thread in fire(port, COSTLY, answers):
                thread.join()
            assert [answer for _, answer in answers] == [(503, "2")] * len(COSTLY)  # never asked: deemed long
            began = time.monotonic()
            assert get(port, asked_before) == (200, None)  # asked before: cheap
            assert get(port, "/entry/stccg:mission-attempt.json") == (200, None)  # never asked; its shape is cheap
            assert get(port, "/card/U.S.S.%20Defiant.json") == (200, None)
            assert time.monotonic() - began < 5  # answered, not waiting for the turn
            app.extensions["costs"].record("cards.card", "/card/Nebula", "", 0.5)  # as if it had cost half a second
            assert get(port, "/card/Nebula") == (503, "2")  # it takes a turn now, and there is none
        finally:
            turns.leave()
        until(lambda: held(app) == 0)
        assert get(port, "/card/Nebula")[0] == 200  # in its turn


def test_a_diff_asked_again_is_cheap_and_takes_no_turn(bundled_root: Path) -> None:
    with served(bundled_root, 2) as (app, server):
        port = server.effective_port
        diff = "/diff.json?from=2000-10-30&to=2000-11-27"
        assert get(port, diff)[0] == 200  # made in its turn, its changes kept
        taken = app.extensions["costly_turns"].taken
        assert get(port, diff)[0] == 200
        cost = app.extensions["costs"].estimate("changes.diff", "/diff.json", "from=2000-10-30&to=2000-11-27", 1.0)
        assert cost < CHEAP and app.extensions["costly_turns"].taken == taken  # no turn taken the second time


def test_costs_are_remembered_per_request_then_per_shape_and_bounded() -> None:
    costs = Costs()
    assert costs.estimate("changes.diff", "/diff", "to=2001-02-01&from=2001-01-01", 1.0) == 1.0  # the prior
    costs.record("changes.diff", "/diff", "from=2001-01-01&to=2001-02-01", 0.02)
    assert costs.estimate("changes.diff", "/diff", "to=2001-02-01&from=2001-01-01", 1.0) == 0.02  # any order
    assert costs.estimate("changes.diff", "/diff", "from=2002-01-01&to=2002-02-01", 1.0) == 0.02  # its shape
    assert costs.estimate("changes.diff", "/diff", "from=2002-01-01&to=2002-02-01&size=1000", 1.0) == 1.0
    costs.record("changes.diff", "/diff", "from=2003-01-01&to=2003-02-01", 1.02)
    assert round(costs.estimate("changes.diff", "/diff", "from=2004-01-01&to=2004-02-01", 1.0), 3) == 0.32
    for _ in range(20):  # a diff kept, asked over and over: cheap itself, but no new one is
        costs.record("changes.diff", "/diff", "from=2003-01-01&to=2003-02-01", 0.001)
    assert costs.estimate("changes.diff", "/diff", "from=2003-01-01&to=2003-02-01", 1.0) == 0.001
    assert round(costs.estimate("changes.diff", "/diff", "from=2004-01-01&to=2004-02-01", 1.0), 3) == 0.32
    assert shape("changes.diff", "to=1&from=2&size=7") == "changes.diff(from,size,to;size=7)"
    assert exact_key("/diff", "to=1&from=2") == "/diff?from=2&to=1"
    for number in range(10_000):
        costs.record("entries.entry", f"/entry/{number}", f"x{number}=1&size={number}", 0.001)
    assert len(costs.exact) == len(costs.shapes) == 4096
    costs.record("search.index", "/", "q=" + "a" * 100_000, 0.001)  # a 100 KB query is kept by its digest
    assert costs.estimate("search.index", "/", "q=" + "a" * 100_000, 1.0) == 0.001
    assert max(len(key) for key in costs.exact) < 600 and max(len(key) for key in costs.shapes) <= 512
