"""Every page is bounded and heavy ones take turns, so a search never waits behind them; budgets
count a request's own work, so its answer does not depend on what others ask (issue 33, items 5
and 6)."""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_serve import port_of, serving

from kb.engine import budget
from kb.paging import Paging
from kb.paths import current
from kb.query import KnowledgeBase
from kb.search.in_force import run
from kb.search.questions import read_query
from web.app import create_app

CARD = "U.S.S. Defiant"
"""A card of the bundled library that three topics name."""
SEARCHES = ("ship", "dilemma mission", "personnel", "conundrum target", "mirror universe", "card", "damaged ship")


def test_a_card_page_comes_a_page_of_topics_at_a_time(bundled_root: Path) -> None:
    client = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    whole = client.get(f"/card/{CARD}.json").get_json()
    assert whole["page"] == {"offset": 0, "size": 3, "total": 3, "next": None}
    assert [e["topic"] for e in whole["entries"]] == [
        "neutral-zone:federation.u-s-s-defiant",
        "neutral-zone:deploy-and-move",
        "neutral-zone:attacking",
    ]
    pages, offset = [], 0
    while offset is not None:
        answer = client.get(f"/card/{CARD}.json?size=1&offset={offset}").get_json()
        pages.append(answer)
        offset = answer["page"]["next"]
    assert [p["page"] for p in pages] == [
        {"offset": 0, "size": 1, "total": 3, "next": 1},
        {"offset": 1, "size": 1, "total": 3, "next": 2},
        {"offset": 2, "size": 1, "total": 3, "next": None},
    ]
    assert [e for p in pages for e in p["entries"]] == whole["entries"]
    assert sorted(r["key"] for p in pages for r in p["rulings"]) == sorted(r["key"] for r in whole["rulings"])
    assert [e["topic"] for e in pages[0]["headed"]] == ["neutral-zone:federation.u-s-s-defiant"] and pages[1][
        "headed"
    ] == []
    html = client.get(f"/card/{CARD}?size=1&offset=1").get_data(as_text=True)
    assert "Entries 2–2 of 3." in html
    assert '<a rel="next" href="/card/U.S.S.%20Defiant?size=1&amp;offset=2">Next page</a>' in html
    assert 'class="pager"' not in client.get(f"/card/{CARD}").get_data(as_text=True)  # one page: no pager


def test_a_search_takes_no_turn_and_heavy_pages_do(bundled_root: Path) -> None:
    app = create_app({"KB": str(bundled_root), "TESTING": True, "PAGES_WAITING": 0})
    client = app.test_client()
    pages, costly = app.extensions["page_turns"], app.extensions["costly_turns"]
    for url in ("/?q=ship", "/index.json?q=conondrum", "/complete.json?q=con"):
        assert client.get(url).status_code == 200, url
    assert (pages.taken, costly.taken) == (0, 0)  # the cheap path takes no turn of either line
    for url in (f"/card/{CARD}", "/entry/stccg:conundrum.json", f"/cards?names={CARD},Nebula"):
        assert client.get(url).status_code == 200, url
    assert (pages.taken, costly.taken) == (3, 0)
    assert pages.enter()  # a heavy page is being made, and none may wait: the line is full
    refused = client.get(f"/card/{CARD}.json")
    assert (refused.status_code, refused.headers["Retry-After"]) == (503, "2")
    assert client.get("/index.json?q=ship").status_code == 200
    assert costly.enter(wait=0.01) is False and costly.held == 0  # the two lines take turns with each other
    pages.leave()
    assert client.get("/diff.json").status_code == 200
    assert client.get(f"/card/{CARD}.json").status_code == 200 and pages.held == 0


def _get(port: int, path: str) -> tuple[int, float]:
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - began
    finally:
        connection.close()


def test_a_search_goes_on_while_heavy_pages_are_hammered(bundled_root: Path, tmp_path: Path) -> None:
    card = CARD.replace(" ", "%20")
    heavy = [f"/card/{card}", "/entry/stccg:conundrum", f"/cards?names={card},Nebula", "/diff", "/deck?list=Nebula"]
    with serving(bundled_root, tmp_path / "serve.log", "--workers", "1", "--threads", "8") as process:
        port = port_of(process)
        assert _get(port, "/index.json?q=ship")[0] == 200  # warm
        stop = threading.Event()
        statuses: list[int] = []

        def hammer(number: int) -> None:
            for n in range(400):  # bounded, stopped once the searches are timed
                if stop.is_set():
                    return
                statuses.append(_get(port, heavy[(number + n) % len(heavy)])[0])

        hammers = [threading.Thread(target=hammer, args=(n,)) for n in range(12)]
        for thread in hammers:
            thread.start()
        time.sleep(0.5)
        searched = [_get(port, f"/index.json?q={q.replace(' ', '+')}") for q in SEARCHES * 2]
        stop.set()
        for thread in hammers:
            thread.join()
    assert [status for status, _ in searched] == [200] * len(searched)
    assert max(seconds for _, seconds in searched) < 10  # generous: the structure is the test above
    assert set(statuses) <= {200, 503} and 200 in statuses


def _deck(kb_root: Path) -> str:
    with sqlite3.connect(current(kb_root) / "kb.sqlite") as store:
        return "\n".join(f"1 {name}" for (name,) in store.execute("SELECT name FROM cards ORDER BY name"))


def _beside_searching_threads(ask: Any, kb: KnowledgeBase, times: int) -> list[Any]:
    """``ask()`` ``times`` times while 7 other threads search ``kb`` without pause."""
    stop = threading.Event()

    def search(number: int) -> None:
        for n in range(10_000):  # bounded
            if stop.is_set():
                return
            kb.search(SEARCHES[(number + n) % len(SEARCHES)])

    others = [threading.Thread(target=search, args=(n,)) for n in range(7)]
    for thread in others:
        thread.start()
    try:
        time.sleep(0.2)
        return [ask() for _ in range(times)]
    finally:
        stop.set()
        for thread in others:
            thread.join()


def test_a_deck_is_the_same_alone_and_beside_seven_searching_threads(bundled_root: Path) -> None:
    kb = KnowledgeBase(current(bundled_root))
    deck = _deck(bundled_root)
    alone = kb.deck(deck, paging=Paging(0, 1000, work=60))
    weights = [1 + sum(len(e["parts"]) for e in c["entries"]) for c in alone["cards"]]
    assert sum(weights[:-1]) < 60 <= sum(weights)  # the page ended when its work was spent
    assert alone["page"]["next"] == len(alone["cards"]) < alone["page"]["total"] == 118
    assert _beside_searching_threads(lambda: kb.deck(deck, paging=Paging(0, 1000, work=60)), kb, 5) == [alone] * 5
    kb.close()


@pytest.mark.parametrize("text", ["ship", "personnel mission"])
def test_a_search_is_the_same_alone_and_beside_seven_searching_threads(bundled_root: Path, text: str) -> None:
    kb = KnowledgeBase(current(bundled_root))

    def ask() -> tuple[list[tuple[int, str]], int, bool]:
        searcher, allowed = kb.searchers.searcher(kb.built_on)
        work = budget.Work(documents=7)
        return run(searcher, read_query(text), allowed, None, None, 5, work=work), work.examined, work.stopped

    alone = ask()
    assert alone[1:] == (7, True) and len(alone[0]) == 5
    assert _beside_searching_threads(ask, kb, 5) == [alone] * 5
    kb.close()
