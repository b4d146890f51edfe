"""Reads under concurrency: the same questions asked from many threads get exactly the answers
one thread gets (results, order and snippets), on the shared knowledge base and through the app;
a knowledge base switched 50 times leaves no open files or loaded knowledge bases behind."""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import os
import shutil
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import g

from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app

THREADS = 16
ROUNDS = 3
QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("sh*", {}),
    ("sh*", {"every_version": True}),
    ("s*", {"as_of": dt.date(2000, 11, 1)}),
    ("con*", {}),
    ('"mission attempt"', {}),
    ('"personnel removed"', {"as_of": dt.date(2000, 11, 1)}),
    ("damaged ship", {}),
    ("damaged ship", {"as_of": dt.date(2000, 11, 1)}),
    ("conundrum target", {}),
    ("conondrum", {}),
    ("mirror universe", {"every_version": True}),
    ("dilemma -ship", {"limit": 50}),
    ("card:nebula", {}),
    ("tent", {"as_of": dt.date(2000, 12, 18)}),
    ("tent", {"as_of": dt.date(2000, 12, 1)}),
    ("Q-Continuum", {"every_version": True}),
    ("a*", {"kind": "rulebook"}),
]
PAGES = [
    "/index.json?q=sh*",
    "/index.json?q=sh*&as_of=2000-11-01",
    "/index.json?q=s*&limit=100",
    "/index.json?q=%22mission+attempt%22",
    "/index.json?q=damaged+ship&as_of=1999-01-01",
    "/index.json?q=conondrum",
    "/index.json?q=tent&as_of=2000-12-18",
    "/complete.json?q=con",
    "/entry/stccg:conundrum.json",
    "/card/Nebula.json",
    "/diff.json?from=2000-10-30&to=2000-11-27",
    "/?q=sh*",
]


def answers(ask: Callable[[Any], Any], questions: list[Any], threads: int) -> list[list[Any]]:
    """Every thread asks every question ``ROUNDS`` times, each thread in its own order, all
    starting together; returns each thread's answers in question order (the last round)."""
    start = threading.Barrier(threads)
    out: list[list[Any]] = [[] for _ in range(threads)]
    errors: list[BaseException] = []

    def work(number: int) -> None:
        start.wait()
        try:
            order = list(range(len(questions)))
            for rounds in range(ROUNDS):
                shift = (number * 5 + rounds) % len(order)
                got: dict[int, Any] = {}
                for index in order[shift:] + order[:shift]:
                    got[index] = ask(questions[index])
                out[number] = [got[i] for i in range(len(questions))]
        except BaseException as err:  # reported in the main thread
            errors.append(err)

    workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    return out


@pytest.mark.parametrize("root", ["bundled_root", "history_root"])
def test_sixteen_threads_get_the_single_thread_answers(root: str, request: pytest.FixtureRequest) -> None:
    kb = KnowledgeBase(current(request.getfixturevalue(root)))
    alone = [kb.search(text, **options) for text, options in QUERIES]
    assert sum(len(a["results"]) for a in alone) > 15  # the questions find things
    assert any("<mark" in r["snippet"] for a in alone for r in a["results"])
    for got in answers(lambda question: kb.search(question[0], **question[1]), QUERIES, THREADS):
        assert got == alone
    assert kb.open_searchers() <= 2 * (THREADS + 1)
    later = threading.Thread(target=kb.search, args=("ship",), kwargs={"every_version": True})
    later.start()
    later.join()
    assert kb.open_searchers() == 3  # the ended threads' searchers were closed: the main thread's two, the new one
    kb.close()
    assert kb.open_searchers() == 0


def test_a_fresh_knowledge_base_gives_the_same_snippets(bundled_root: Path) -> None:
    first = KnowledgeBase(current(bundled_root))
    again = KnowledgeBase(current(bundled_root))
    asked = [first.search(text, **options) for text, options in QUERIES]
    assert [again.search(text, **options) for text, options in QUERIES] == asked
    assert [first.search(text, **options) for text, options in reversed(QUERIES)] == asked[::-1]


def test_a_snippet_does_not_depend_on_the_other_hits(bundled_root: Path) -> None:
    kb = KnowledgeBase(current(bundled_root))
    many = {r["version"]: r["snippet"] for r in kb.search("sh*", limit=200)["results"]}
    few = kb.search("sh*", limit=3)["results"]
    assert len(many) > 3 and [r["snippet"] for r in few] == [many[r["version"]] for r in few]
    rulebook = kb.search("sh*", kind="rulebook", limit=100)["results"]  # other hits before each
    assert len(rulebook) > 3 and [r["snippet"] for r in rulebook] == [many[r["version"]] for r in rulebook]
    for hit in kb.search("sh*", limit=8)["results"][4:]:  # the same hit first, with no hits before it
        alone = kb.search(f'sh* headword:"{hit["headword"]}"')["results"]
        assert [r["snippet"] for r in alone if r["version"] == hit["version"]] == [hit["snippet"]]


@pytest.mark.parametrize("root", ["bundled_root", "history_root"])
def test_sixteen_threads_through_the_app(root: str, request: pytest.FixtureRequest) -> None:
    app = create_app({"KB": str(request.getfixturevalue(root)), "TESTING": True})

    def ask(url: str) -> tuple[int, Any]:
        response = app.test_client().get(url)
        return response.status_code, response.get_json() if url.count(".json") else response.get_data(as_text=True)

    alone = [ask(url) for url in PAGES]
    assert [status for status, _ in alone] == [200] * len(PAGES)
    for got in answers(ask, PAGES, THREADS):
        assert got == alone


def open_files(under: Path) -> tuple[int, int]:
    """(open file descriptors of this process, files under ``under`` it holds open or mapped)."""
    held = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(FileNotFoundError):  # the descriptor listdir itself used
            held.add(os.readlink(f"/proc/self/fd/{fd}"))
    mapped = {line.split(None, 5)[-1].strip() for line in Path("/proc/self/maps").read_text().splitlines()}
    prefix = str(under.resolve())
    return len(held), sum(1 for name in held | mapped if name.startswith(prefix))


def test_fifty_switches_leave_no_open_files_and_no_loaded_knowledge_bases(bundled_root: Path, tmp_path: Path) -> None:
    """Three builds, the ``current`` link flipped between them 50 times while requests run:
    each switch is seen on the next request and the knowledge base left closes its files."""
    built = current(bundled_root)
    root = tmp_path / "kb"
    for number in range(3):
        shutil.copytree(built, root / "builds" / f"b{number}")
    (root / "current").symlink_to(Path("builds") / "b0")
    app = create_app({"KB": str(root), "TESTING": True})
    client = app.test_client()
    loaded: list[weakref.ref[KnowledgeBase]] = []
    held = threading.Event()
    in_flight: list[int] = []

    def slow_reader() -> None:  # a request that is still running when its knowledge base is switched away
        with app.test_request_context("/"):
            app.preprocess_request()
            held_kb.append(g.kb)
            held.wait()
            in_flight.append(len(g.kb.search("sh*")["results"]))

    held_kb: list[KnowledgeBase] = []
    counts = []
    for switch in range(50):
        link = root / "current.new"
        link.symlink_to(Path("builds") / f"b{switch % 3}")
        link.replace(root / "current")
        for url, status in [("/index.json?q=sh*", 200), ("/index.json?q=ship&as_of=2000-11-01", 200),
                            ("/entry/stccg:conundrum.json", 200), ("/entry/stccg:no-such-entry", 404)]:  # fmt: skip
            assert client.get(url).status_code == status
        with app.test_request_context("/"):
            app.preprocess_request()
            loaded.append(weakref.ref(g.kb))
        if switch == 10:
            reader = threading.Thread(target=slow_reader)
            reader.start()
        if switch == 12:
            held.set()
            reader.join()
        counts.append(open_files(root))
    gc.collect()
    print("open files after each switch:", counts)
    print("alive", sum(ref() is not None for ref in loaded))
    assert max(fds for fds, _ in counts) - counts[3][0] <= 4
    assert max(kb_files for _, kb_files in counts) <= 2 * counts[3][1]
    assert sum(ref() is not None for ref in loaded) <= 2
    assert in_flight and in_flight[0] > 5  # the held knowledge base answered after two switches
    assert held_kb[0].store.closed and held_kb[0].open_searchers() == 0
