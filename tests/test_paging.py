"""Long answers come a page at a time, each page bounded, and costly ones take turns (issue 22, item 6)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kb.paging import EVERYTHING, SECONDS, Paging, page_of
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

KINDS = ("added", "changed", "rescinded", "pending")
START, END = dt.date(2000, 10, 1), dt.date(2000, 12, 31)


def _pages(ask: Any, size: int) -> list[Any]:
    """Every page of an answer, following ``next`` from the first."""
    pages, offset = [], 0
    while offset is not None:
        answer = ask(Paging(offset, size))
        pages.append(answer)
        offset = answer["page"]["next"]
    return pages


def test_the_pages_of_a_diff_are_the_whole_diff(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    whole = kb.diff(START, END, paging=EVERYTHING)
    assert whole["counts"] == {k: len(whole[k]) for k in KINDS}  # type: ignore[literal-required]
    total = sum(whole["counts"].values())
    assert whole["counts"] == {"added": 42, "changed": 9, "rescinded": 1, "pending": 1}
    assert whole["page"] == {"offset": 0, "size": total, "total": total, "next": None}
    pages = _pages(lambda paging: kb.diff(START, END, paging=paging), 7)
    assert [p["page"]["offset"] for p in pages] == list(range(0, total, 7))
    assert [p["page"]["size"] for p in pages] == [7] * (total // 7) + ([total % 7] if total % 7 else [])
    assert all(p["counts"] == whole["counts"] for p in pages)
    for kind in KINDS:
        assert [i for p in pages for i in p[kind]] == whole[kind]  # type: ignore[literal-required]
    assert kb.diff(START, END, paging=Paging(total + 50, 7))["page"] == {"offset": total, "size": 0, "total": total,
                                                                          "next": None}  # fmt: skip
    kb.close()


def test_the_pages_of_as_of_and_of_a_deck_are_the_whole_answer(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    on = dt.date(2000, 12, 1)
    whole = kb.as_of(on, paging=EVERYTHING)
    pages = _pages(lambda paging: kb.as_of(on, paging=paging), 5)
    assert len(pages) == -(-len(whole["topics"]) // 5) > 2
    assert [t for p in pages for t in p["topics"]] == whole["topics"]
    deck = "2x Q-Flash\nNebula\n1 Conundrum\nNo Such Card Here"
    every = kb.deck(deck, on, paging=EVERYTHING)
    assert [c["name"] for c in every["cards"]] == ["Q-Flash", "Nebula", "Conundrum"]
    firsts = _pages(lambda paging: kb.deck(deck, on, paging=paging), 2)
    assert [[c["name"] for c in p["cards"]] for p in firsts] == [["Q-Flash", "Nebula"], ["Conundrum"]]
    assert [p["page"] for p in firsts] == [{"offset": 0, "size": 2, "total": 3, "next": 2},
                                           {"offset": 2, "size": 1, "total": 3, "next": None}]  # fmt: skip
    assert all(p["total"] == 5 and [u["name"] for u in p["unknown"]] == ["No Such Card Here"] for p in firsts)
    kb.close()


def test_a_page_ends_when_its_work_is_spent() -> None:
    def costly(item: int) -> int:  # 0.2 s of this thread's CPU time: no clock ends the page
        began = time.thread_time()
        while time.thread_time() - began < 0.2:
            pass
        return item * 10

    assert SECONDS == 5.0  # only a safety limit
    made, page = page_of(list(range(10)), Paging(0, 100, work=5), costly, weigh=lambda made: 2)
    assert made == [0, 10, 20] and page == {"offset": 0, "size": 3, "total": 10, "next": 3}
    made, page = page_of(list(range(10)), Paging(9, 100, work=1), costly, weigh=lambda made: 50)  # at least one item
    assert made == [90] and page == {"offset": 9, "size": 1, "total": 10, "next": None}
    made, page = page_of(list(range(10)), Paging(0, 4), lambda item: item)  # one unit an item unless weighed
    assert made == [0, 1, 2, 3] and page["next"] == 4


def test_pages_on_the_web_and_the_command_line(history_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client = create_app({"KB": str(history_root), "TESTING": True}).test_client()
    whole = client.get("/diff.json?from=2000-10-01&to=2000-12-31&size=1000").get_json()
    total = sum(whole["counts"].values())
    first = client.get("/diff.json?from=2000-10-01&to=2000-12-31&size=10").get_json()
    assert first["page"] == {"offset": 0, "size": 10, "total": total, "next": 10}
    assert first["changed"] == whole["changed"][:10]  # changed first, as shown
    page = client.get("/diff?from=2000-10-01&to=2000-12-31&size=10&offset=10").get_data(as_text=True)
    assert f"Changes 11–20 of {total}." in page
    here = "/diff?from=2000-10-01&amp;to=2000-12-31&amp;size=10"
    assert f'<a rel="next" href="{here}&amp;offset=20">Next page</a>' in page
    assert f'<a rel="first" href="{here}">First page</a>' in page
    asof = client.get("/asof/2000-12-01.json?size=3&offset=3").get_json()
    assert asof["page"]["offset"] == 3 and asof["page"]["size"] == 3 and len(asof["topics"]) == 3
    for bad in ("size=0", "size=1001", "offset=-1", "offset=x"):
        assert client.get(f"/diff.json?{bad}").status_code == 400, bad
    assert main(["diff", "2000-10-01", "2000-12-31", "--size", "3", "--offset", "3", "--kb", str(history_root)]) == 0
    printed = capsys.readouterr().out
    assert f"(changes 4-6 of {total}; the next page: --offset 6)" in printed
    assert printed.count("\n~ ") + printed.startswith("~ ") == 3


def test_a_diff_pages_changed_first_and_each_count_finds_its_page(
    history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 52 item 5b: the page shows Changed first, but the items were paged added first, so on
    a diff of many items "10 changed" linked to an empty Changed section of page 1."""
    client = create_app({"KB": str(history_root), "TESTING": True}).test_client()
    whole = client.get("/diff.json?from=2000-10-30&to=2000-11-27&size=1000").get_json()
    assert whole["counts"] == {"added": 40, "changed": 10, "rescinded": 0, "pending": 0}
    assert whole["starts"] == {"changed": 0, "added": 10, "rescinded": 50, "pending": 50}
    first = client.get("/diff.json?from=2000-10-30&to=2000-11-27&size=10").get_json()
    assert first["changed"] == whole["changed"] and first["added"] == []
    second = client.get("/diff.json?from=2000-10-30&to=2000-11-27&size=10&offset=10").get_json()
    assert second["changed"] == [] and second["added"] == whole["added"][:10]
    page = client.get("/diff?from=2000-10-30&to=2000-11-27&size=10").get_data(as_text=True)
    here = "/diff?from=2000-10-30&amp;to=2000-11-27&amp;size=10"
    assert '<a href="#changed">10 changed</a>, <a href="' + here + '&amp;offset=10#added">40 added</a>' in page
    later = client.get("/diff?from=2000-10-30&to=2000-11-27&size=10&offset=20").get_data(as_text=True)
    assert '<a href="' + here + '#changed">10 changed</a>, <a href="#added">40 added</a>' in later
    assert main(["diff", "2000-10-30", "2000-11-27", "--size", "3", "--kb", str(history_root)]) == 0
    printed = capsys.readouterr().out
    assert "Changes from 2000-10-30 to 2000-11-27: 10 changed, 40 added, 0 rescinded, 0 pending" in printed
    assert printed.count("\n~ ") == 3 and printed.count("\n+ ") == 0


def test_costly_answers_take_turns_and_a_search_goes_on(bundled_root: Path) -> None:
    app = create_app({"KB": str(bundled_root), "TESTING": True, "COSTLY_WAITING": 1})
    client = app.test_client()
    turns = app.extensions["costly_turns"]
    assert turns.enter()  # a costly answer is being made
    answered: list[int] = []
    waiting = threading.Thread(target=lambda: answered.append(client.get("/asof/2000-12-01.json").status_code))
    waiting.start()  # waits for its turn
    time.sleep(0.3)
    for url in ("/diff.json", "/asof/2000-12-01", "/changes.atom", "/deck.json?list=Nebula"):  # the line is full
        refused = client.get(url)
        assert (refused.status_code, refused.headers["Retry-After"]) == (503, "2"), url
    assert client.get("/index.json?q=ship").status_code == 200  # cheap answers go on
    assert client.get("/complete.json?q=con").status_code == 200  # (an entry page takes the same turns: heavy)
    assert answered == []
    turns.leave()
    waiting.join()
    assert answered == [200]
    assert client.get("/diff.json").status_code == 200
    assert turns.held == 0
