"""The tables searchers keep (`kb.engine.memo`) weigh at most the process's `memo.MEMO_BYTES`
together, however many threads search: 8 threads asking distinct questions keep the pool within
its bound, its count equal to what the live tables hold, and the process's memory flat after
warm-up (1,992 questions; 10,608 when CI=true); and a table counts all that its entries take."""

from __future__ import annotations

import datetime as dt
import gc
import re
import threading
import tracemalloc
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS
from kb.engine import memo
from kb.engine.searching import Searcher
from kb.paths import current
from kb.query import KnowledgeBase

THREADS = 8
BOUND = 512 << 10
"""The pool's bound in this test: small, so that the knowledge base's tables would pass it."""


def rss() -> int:
    """The process's resident memory, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def questions(pairs: int = 0) -> list[tuple[str, dict[str, object]]]:
    """Distinct questions made of the fixture library's words: words, pairs, prefixes, as of dates;
    and ``pairs`` more pairs of each word with others, asked over every version, as of a date or
    in force, in turn."""
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "library" / "stccg").glob("*.txt")))
    text += (SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt").read_text(encoding="utf-8")
    words = sorted({w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)})
    asked: list[tuple[str, dict[str, object]]] = []
    for k, word in enumerate(words):
        asked.append((word, {}))
        asked.append((f"{word} {words[(k * 7 + 3) % len(words)]}", {"every_version": True}))
        asked.append((f"{word[:3]}*", {"as_of": dt.date(2000, 9 + k % 4, 1 + k % 28)}))
        for j in range(pairs):
            other = words[(k * (11 + j) + 5 + j) % len(words)]
            ways: list[dict[str, object]] = [
                {},
                {"every_version": True},
                {"as_of": dt.date(2000, 9 + j % 4, 1 + k % 28)},
            ]
            asked.append((f"{word} {other}", ways[(k + j) % 3]))
    unique = dict.fromkeys((q, tuple(sorted(o.items()))) for q, o in asked)
    return [(q, dict(o)) for q, o in unique]


def live_weight(pool: memo.Pool) -> int:
    """What the tables of the live searchers that take from ``pool`` weigh, by their own count (the
    searchers of earlier tests, still alive in a whole run, take from the process's own pool)."""
    return sum(table.size for shared in memo.memos() for table in shared.tables() if table.pool is pool)


@pytest.mark.parametrize(
    ("pairs", "distinct"), [(0, 1992), pytest.param(13, 10_608, marks=pytest.mark.slow)], ids=["1992", "10608"]
)
def test_eight_threads_of_distinct_searches_keep_the_tables_within_the_process_bound(
    history_root: Path, monkeypatch: pytest.MonkeyPatch, pairs: int, distinct: int
) -> None:
    pool = memo.Pool(BOUND)
    monkeypatch.setattr(memo, "POOL", pool)
    kb = KnowledgeBase(current(history_root))
    asked = questions(pairs)
    assert len(asked) == distinct
    errors: list[BaseException] = []
    warmed = threading.Barrier(THREADS + 1)
    done = threading.Barrier(THREADS + 1)
    highest = [0]

    def work(number: int) -> None:
        mine = asked[number::THREADS]
        try:
            for k, (text, options) in enumerate(mine):
                if k == len(mine) // 4:
                    warmed.wait()
                kb.search(text, **options)
                highest[0] = max(highest[0], pool.holds())
        except BaseException as err:  # reported in the main thread
            errors.append(err)
            warmed.abort()
        finally:
            done.wait()

    workers = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for worker in workers:
        worker.start()
    warmed.wait()
    gc.collect()
    after_warm_up = rss()
    done.wait()
    gc.collect()
    at_the_end = rss()
    for worker in workers:
        worker.join()
    assert errors == []
    assert BOUND // 2 < highest[0] <= BOUND  # the tables filled the pool, and never passed it
    assert pool.holds() == live_weight(pool) <= BOUND
    assert at_the_end - after_warm_up < 16 << 20, (after_warm_up, at_the_end)
    kb.close()
    gc.collect()
    assert pool.holds() == live_weight(pool)


FIXED = 1024


STACK = 32
"""Frames tracemalloc keeps of each allocation: enough to reach `kb.search.validity` from inside
Whoosh's reading of stored fields and numpy."""


def test_what_the_table_of_days_weighs_counts_what_reading_them_allocates(history_root: Path) -> None:
    """The history index's versions and their days in force (`kb.search.validity`), read once for
    the searches as of a date: what reading them allocates and keeps, measured by tracemalloc, is
    what their table says it weighs, but for costs fixed whatever the library's size (``FIXED``:
    the entry's place in the table, numpy's shapes beside each array's data, 600 bytes here)."""
    from kb.search import validity

    kb = KnowledgeBase(current(history_root))
    searcher = kb.searchers.history_searcher(None)
    assert searcher is not None
    table = memo.of(searcher).days
    validity.of(searcher)  # the index's files opened by its reader, and kept open, before counting
    table.empty()
    table.put("another", ())  # the table's own dictionaries made before counting
    held = table.size
    gc.collect()
    # only what this reading allocates, with `validity` on its stack: tracemalloc counts every
    # thread's allocations, and a thread an earlier test left running (the whole suite in one
    # process) once added some 1 KB to the count in the window
    ours = [tracemalloc.Filter(True, validity.__file__, all_frames=True)]
    tracemalloc.start(STACK)
    try:
        before = tracemalloc.take_snapshot().filter_traces(ours)
        read = validity.of(searcher)
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(ours)
    finally:
        tracemalloc.stop()
    taken = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert len(table) == 2 and len(read.topics) == searcher.doc_count_all() == 52
    weighed = table.size - held
    assert taken - FIXED <= weighed < 1.5 * taken, (taken, weighed)
    kb.close()


def test_the_searchers_of_one_index_share_its_tables_whatever_thread_opened_them(history_root: Path) -> None:
    """Each thread searches with its own searchers, but what one thread's search read of the index
    the others find kept: the same search in 8 other threads adds nothing to the tables (each
    thread's searcher kept its own before, 8 copies)."""
    kb = KnowledgeBase(current(history_root))
    opened: list[Searcher] = []

    def search() -> None:
        kb.search("mission attempt", as_of=dt.date(2000, 10, 1))
        searcher = kb.searchers.history_searcher(None)
        assert searcher is not None
        opened.append(searcher)

    def weighed() -> list[int]:
        return [table.size for table in memo.of(opened[0]).tables()]

    first = threading.Thread(target=search)
    first.start()
    first.join()
    after_one = weighed()
    others = [threading.Thread(target=search) for _ in range(THREADS)]
    for thread in others:
        thread.start()
    for thread in others:
        thread.join()
    assert len({id(searcher) for searcher in opened}) == THREADS + 1
    assert len({id(memo.of(searcher)) for searcher in opened}) == 1
    assert after_one[1] > 0 and weighed() == after_one
    kb.close()
