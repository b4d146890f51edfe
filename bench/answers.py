"""Search answers with and without the bulk evaluation of postings (`kb.engine.bulk`), side by side.

Run: ``.venv/bin/python bench/answers.py KB_DIRECTORY [--record FILE | --compare FILE]``. For
every query of the relevance sets (`bench/relevance.toml`, `bench/relevance-heldout.toml`) and
of the benchmark (`bench/search_bench.py`) in every scope (in force today, every version, as
of a few dates of the library), it runs `kb.search.search` with Whoosh's matchers alone and
with the bulk evaluation, and prints each answer that differs (results, their order,
`matching` versions, snippets, corrections, `partial`); the matcher path excludes and ranks
as Whoosh means to (`mended`, `exhaustive`). ``--record`` saves the answers
(of the code as it is) to compare later code with (``--compare``). `tests/test_engine_bulk.py` runs
the same comparison on the test libraries.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import sqlite3
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from whoosh.matching.binary import AndNotMatcher

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import QUERIES  # noqa: E402

from kb.engine import bulk  # noqa: E402
from kb.paths import INDEX_DIR, current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.search import history  # noqa: E402

BENCH = {
    **QUERIES,
    "shapes": ['ship -"away team"', "dilemma -ship", "mis* attempt", "seed kind:ruling", '"away team" ship',
               "ship yard", "bio-ship", "co*", "ship -dilemma -mission"],
}  # fmt: skip
"""The benchmark's queries (`common.QUERIES`, those `bench/search_bench.py` times), and a few more shapes."""


def texts(relevance: bool = True) -> list[str]:
    """Every query compared: the relevance sets' (unless not ``relevance``) and the benchmark's, each once."""
    found: list[str] = []
    for name in ("relevance.toml", "relevance-heldout.toml") if relevance else ():
        found += [str(q["q"]) for q in tomllib.loads((ROOT / "bench" / name).read_text("utf-8"))["query"]]
    for group in BENCH.values():
        found += group
    return list(dict.fromkeys(found))


def scopes(kb: KnowledgeBase) -> list[tuple[str, dt.date | None, bool]]:
    """In force today, every version, and as of the first, middle and last document dates."""
    store = sqlite3.connect(kb.directory / "kb.sqlite")
    dates = sorted(dt.date.fromisoformat(d) for (d,) in store.execute("SELECT date FROM documents") if d)
    store.close()
    chosen = dict.fromkeys([dates[0], dates[len(dates) // 2], dates[-1] - dt.timedelta(days=1)]) if dates else {}
    return [("in force", None, False), ("every version", None, True)] + [(f"as of {d}", d, False) for d in chosen]


def _find_first(self: Any) -> None:
    """Whoosh's ``AndNotMatcher._find_first``, mended: Whoosh 2.7.4 checks the excluded
    matcher only when both start on the same document, so a query ``a -b`` keeps its first
    document when ``b`` matches it and an earlier one (``dilemma -ship`` finds a version with
    "ship" in its text). The bulk evaluation excludes it; the matcher path compared with it
    here does too."""
    if self.a.is_active() and self.b.is_active():
        if self.b.id() < self.a.id():
            self.b.skip_to(self.a.id())
        if self.b.is_active() and self.a.id() == self.b.id():
            self._find_next()


@contextlib.contextmanager
def mended() -> Iterator[None]:
    """Within the block, Whoosh's exclusions exclude their first document too (`_find_first`)."""
    original = AndNotMatcher._find_first
    AndNotMatcher._find_first = _find_first
    try:
        yield
    finally:
        AndNotMatcher._find_first = original


@contextlib.contextmanager
def exhaustive() -> Iterator[None]:
    """Within the block, the history search's ranking of the best few topics on Whoosh's
    matchers is the best few of all the topics ranked: Whoosh's top-N collection skips the
    blocks of postings it judges unable to reach the N best, and misses topics that do (on
    the 90k benchmark libraries, "uss galaxy" over every version misses topics scoring 51.8
    and 51.1 among its best 28). The bulk evaluation ranks every topic."""
    original = history.ranking

    def ranked(searcher: Any, loose: Any, depth: int | None, work: Any) -> list[tuple[int, float]]:
        found = original(searcher, loose, None, work)
        return found if depth is None else found[:depth]

    history.ranking = ranked
    try:
        yield
    finally:
        history.ranking = original


def answer(kb: KnowledgeBase, text: str, on: dt.date | None, every: bool, fast: bool) -> dict[str, Any]:
    """One search's answer, the matcher path (``fast`` False: Whoosh's exclusions `mended`, its
    ranking `exhaustive`) or the bulk one."""
    bulk.ENABLED = fast
    try:
        with mended(), exhaustive():
            return dict(kb.search(text, as_of=on, every_version=every))
    finally:
        bulk.ENABLED = True


def differences(
    kb: KnowledgeBase, recorded: dict[str, Any] | None = None, relevance: bool = True, only: list[str] | None = None
) -> tuple[int, list[str]]:
    """How many answers were compared, and a line for each that differs (the bulk answer against
    the matcher path's, or against ``recorded``); answers cut short (``partial``) either way
    are counted apart, not compared (but for a prefix with more expansions than searched).
    ``only``: these of the queries (`texts`), not all."""
    compared, lines = 0, []
    for label, on, every in scopes(kb):
        for text in texts(relevance) if only is None else only:
            key = f"{label}|{text}"
            fast = answer(kb, text, on, every, True)
            slow = recorded[key] if recorded is not None else answer(kb, text, on, every, False)
            if slow["partial"] != fast["partial"] or (slow["partial"] and not _capped(kb, text)):
                lines.append(f"PARTIAL {key}: matcher {slow['partial']}, bulk {fast['partial']}")
                continue
            compared += 1
            if json.loads(json.dumps(fast)) != slow:
                lines.append(f"DIFFERS {key}: matcher {_brief(slow)} bulk {_brief(fast)}")
    return compared, lines


def _capped(kb: KnowledgeBase, text: str) -> bool:
    """Whether ``text`` is partial for its prefixes' expansions alone (the same either way)."""
    from kb.engine import budget
    from kb.search.plans import built_query
    from kb.search.questions import read_query

    work = budget.Work()
    built_query(kb.searchers.index_searcher(INDEX_DIR), read_query(text), work)
    return work.capped


def record(kb: KnowledgeBase) -> dict[str, Any]:
    """Every answer of the matcher path, by scope and query."""
    return {
        f"{label}|{text}": json.loads(json.dumps(answer(kb, text, on, every, False)))
        for label, on, every in scopes(kb)
        for text in texts()
    }


def _brief(found: dict[str, Any]) -> str:
    return str([(r["version"], r.get("matching")) for r in found["results"]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kb", type=Path, help="a knowledge base directory (or its parent with current)")
    parser.add_argument("--record", type=Path, help="save the matcher path's answers here")
    parser.add_argument("--compare", type=Path, help="compare the bulk answers with answers saved by --record")
    arguments = parser.parse_args()
    directory = current(arguments.kb) if (arguments.kb / "current").exists() else arguments.kb
    kb = KnowledgeBase(directory)
    if arguments.record:
        arguments.record.write_text(json.dumps(record(kb)))
        return 0
    saved = json.loads(arguments.compare.read_text()) if arguments.compare else None
    compared, lines = differences(kb, saved)
    print("\n".join(lines))
    print(f"{compared} answers compared, {sum(1 for x in lines if x.startswith('DIFFERS'))} differ, "
          f"{sum(1 for x in lines if x.startswith('PARTIAL'))} cut short")  # fmt: skip
    return 1 if any(x.startswith("DIFFERS") for x in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
