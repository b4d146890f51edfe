"""Benchmark: what a search costs the first time its words are asked, beside the next time.

Run: ``.venv/bin/python bench/first_search.py KB_DIRECTORY [...]`` (a knowledge base folder,
as ``--kb`` takes it, e.g. one `bench/search_bench.py WORKDIR` built). For the benchmark's
one-word, two-word, phrase and question queries (`bench/search_bench.py`), over every version
and as of the middle of the library, it times `search()` on the searching thread's CPU clock
with what searches keep for the next emptied first (the postings read whole,
`kb.engine.postings.KEPT`; the words' positions decoded, `kb.engine.version_keys.DECODED`; each
searcher's scored words and stored topics, `kb.engine.memo`; the words'
terms, `kb.search.plans.ANALYSED`; the snippets' texts split, `kb.engine.passages.LAYOUTS`), then again
at once (warm), three rounds, and prints both medians. Each query is
run once before, untimed, so the store's pages and versions are warm in both.
"""

from __future__ import annotations

import datetime as dt
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import QUERIES, middle_date  # noqa: E402

from kb.engine import (  # noqa: E402
    highlighting,
    memo,
    postings,
    version_keys,
)
from kb.paths import current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.search import history, plans  # noqa: E402

ROUNDS = 3
CATEGORIES = ("single word", "two words", "phrase", "question")


def bench(kb: KnowledgeBase, on: dt.date | None, every: bool, queries: list[str]) -> tuple[float, float]:
    """The median CPU ms of `search()` with nothing kept, and warm."""
    for text in queries:
        kb.search(text, as_of=on, every_version=every)
    emptied: list[float] = []
    warm: list[float] = []
    for _ in range(ROUNDS):
        for text in queries:
            postings.KEPT.empty()
            version_keys.DECODED.empty()
            memo.forget()
            plans.forget()
            history.MARKING.layouts.empty()
            highlighting.TEXT_TOKENS.layouts.empty()
            for times in (emptied, warm):
                started = time.thread_time()
                kb.search(text, as_of=on, every_version=every)
                times.append((time.thread_time() - started) * 1000)
    return statistics.median(emptied), statistics.median(warm)


def main() -> int:
    for root in map(Path, sys.argv[1:]):
        directory = current(root)
        kb = KnowledgeBase(directory)
        past = middle_date(directory / "kb.sqlite")
        print(f"\n== {root}\n{'scope and query':<36}{'emptied p50':>12}{'warm p50':>10}")
        for scope, on, every in (("every version", None, True), (f"as of {past}", past, False)):
            for category in CATEGORIES:
                emptied, warm = bench(kb, on, every, QUERIES[category])
                print(f"{scope + ': ' + category:<36}{emptied:>12.1f}{warm:>10.1f}")
        kb.close()
    print("\nCPU ms on the searching thread; emptied: what searches keep for the next emptied before each search.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
