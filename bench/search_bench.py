"""Benchmark: build time, index size and query latency of `rulings` against SQLite FTS5.

Run: ``make bench`` (or ``.venv/bin/python bench/search_bench.py [WORKDIR]`` to keep the
generated library in WORKDIR between runs; add ``--reuse`` to reuse its knowledge base too). Generates the scaled
library of `bench/generate.py` (about 90,000 versions) in a temporary directory, builds the
knowledge base with the real pipeline, builds an SQLite FTS5 table (bm25, the same
headword/cards/text columns and weights) from the same versions as the baseline, then
times the same realistic queries on both, in this one process, and prints medians, p99s
and ratios.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generate import generate  # noqa: E402

from kb.build import BuildReport, build  # noqa: E402
from kb.completion import complete  # noqa: E402
from kb.paths import current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.questions import read_query  # noqa: E402
from kb.search import run, search  # noqa: E402

QUERIES = {
    "single word": ["conundrum", "dilemma", "stopped", "ship", "personnel", "mission", "battle", "outpost",
                    "artifact", "seed", "damaged", "affiliation", "spaceline", "equipment", "wormhole"],
    "two words": ["mission attempt", "damaged ship", "seed deck", "away team", "mirror universe", "report duty",
                  "dilemma stopped", "ship battle", "outpost shields", "random selection"],
    "phrase": ['"away team"', '"mission attempt"', '"spaceline location"', '"draw deck"', '"seed phase"'],
    "field": ['card:"Yellow Alert"', "card:Runabout", 'card:"Female\'s Love Interest"', "card:Wormhole",
              'card:"U.S.S. Galaxy"'],
    "fuzzy": ["conondrum", "dilema", "spacelin", "persnnel", "artefact"],
    "question": ["can conundrum target a cloaked ship", "may i abort a mission attempt", "how do i seed the spaceline",
                 "where do commandeered cards go when destroyed", "does a damaged ship lose its shields"],
}  # fmt: skip
FTS = {
    "single word": None, "two words": None, "phrase": None, "fuzzy": None,
    "question": lambda q: " OR ".join(w for w in q.split() if w not in ("can", "may", "i", "how", "do", "a", "the")),
    "field": lambda q: "cards:" + q.split(":", 1)[1],
}  # fmt: skip
PREFIXES = ["con", "mi", "sh", "ye", "u.s", "kl", "a", "d", "tor", "wor", "ga", "pa"]
REPEAT = 5
SQL_IN_FORCE = (
    "SELECT rowid FROM v WHERE v MATCH ? AND valid_from <= ? AND valid_to > ? ORDER BY bm25(v, 4.0, 2.0, 1.0) LIMIT 20"
)
SQL_ALL = "SELECT rowid FROM v WHERE v MATCH ? ORDER BY bm25(v, 4.0, 2.0, 1.0) LIMIT 20"


def _fts_query(category: str, text: str) -> str:
    convert = FTS.get(category)
    if convert:
        return convert(text)
    if category == "fuzzy":
        return text[:4] + "*"
    return text.replace("'", "''")


def build_fts(kb: KnowledgeBase, path: Path) -> float:
    started = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute("CREATE VIRTUAL TABLE v USING fts5(headword, cards, text, valid_from UNINDEXED, valid_to UNINDEXED)")
    rows = []
    for version in kb.every_version():
        names = " | ".join(kb.cards_of([version]))
        start = version.valid_from.toordinal() if version.valid_from else dt.date.max.toordinal()
        end = version.valid_to.toordinal() if version.valid_to else dt.date.max.toordinal()
        rows.append((version.id, version.headword, names, version.text, start, end))
    db.executemany("INSERT INTO v (rowid, headword, cards, text, valid_from, valid_to) VALUES (?,?,?,?,?,?)", rows)
    db.commit()
    db.close()
    return time.perf_counter() - started


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def measure(
    kb: KnowledgeBase, fts: sqlite3.Connection, category: str, queries: list[str], on: dt.date | None, sql: str,
    args: tuple[int, ...],
) -> tuple[list[float], list[float], list[float]]:  # fmt: skip
    """Latencies (ms) of the Whoosh query alone, of search() whole, and of FTS5, each query
    run once untimed to warm caches, then REPEAT times."""
    searcher, allowed = kb.searcher(on)
    match = [_fts_query(category, text) for text in queries]
    for text, fts_text in zip(queries, match, strict=True):
        run(searcher, read_query(text), allowed, None, None, 20)
        fts.execute(sql, (fts_text, *args)).fetchall()
    ours, full, base = [], [], []
    for _ in range(REPEAT):
        for text, fts_text in zip(queries, match, strict=True):
            ours.append(timed(lambda t=text: run(searcher, read_query(t), allowed, None, None, 20)))
            full.append(timed(lambda t=text: search(kb, t, as_of=on, every_version=on is None)))
            base.append(timed(lambda q=fts_text: fts.execute(sql, (q, *args)).fetchall()))
    return ours, full, base


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        paths = [a for a in sys.argv[1:] if not a.startswith("--")]
        root = Path(paths[0]) if paths else Path(work)
        if not (root / "library").exists():
            generate(root / "library")
        documents = len(list((root / "library" / "stccg").iterdir()))
        if "--reuse" in sys.argv and (root / "kb" / "current").exists():
            report = BuildReport(current(root / "kb"), [], float("nan"))
        else:
            report = build(root / "library", root / "kb", procs=2)
        kb = KnowledgeBase(report.directory)
        (root / "fts.sqlite").unlink(missing_ok=True)
        fts_seconds = build_fts(kb, root / "fts.sqlite")
        fts = sqlite3.connect(root / "fts.sqlite")
        today = dt.date.today().toordinal()
        print(f"library: {documents} documents, {len(kb.every_version()):,} versions, {len(kb.topics()):,} topics")
        print(f"build: rulings {report.seconds:.1f} s (parse, versions, links, SQLite and Whoosh); "
              f"FTS5 table alone {fts_seconds:.1f} s")  # fmt: skip
        print(
            f"size: Whoosh index {size(report.directory / 'index') / 1e6:.1f} MB, SQLite store "
            f"{size(report.directory / 'kb.sqlite') / 1e6:.1f} MB, FTS5 {size(root / 'fts.sqlite') / 1e6:.1f} MB"
        )
        search(kb, "warm up")
        today_date = dt.date.today()
        print(f"\n{'queries (ms)':<28}{'ours p50':>9}{'p99':>8}{'full p50':>9}{'p99':>8}{'FTS5 p50':>9}{'p99':>8}"
              f"{'p99 ratio':>10}")  # fmt: skip
        for scope, on, sql, args in (
            ("in force", today_date, SQL_IN_FORCE, (today, today)),
            ("all versions", None, SQL_ALL, ()),
        ):
            for category, queries in QUERIES.items():
                ours, full, base = measure(kb, fts, category, queries, on, sql, args)
                o50, o99 = percentiles(ours)
                f50, f99 = percentiles(full)
                b50, b99 = percentiles(base)
                print(f"{scope + ': ' + category:<28}{o50:>9.1f}{o99:>8.1f}{f50:>9.1f}{f99:>8.1f}{b50:>9.1f}{b99:>8.1f}"
                      f"{o99 / b99 if b99 else float('inf'):>9.1f}x")  # fmt: skip
        names = sorted((n.lower(), n) for n in kb.names().values())
        fts.execute("CREATE TABLE names (key TEXT PRIMARY KEY, name TEXT)")
        fts.executemany("INSERT OR IGNORE INTO names VALUES (?, ?)", names)
        ours_c, base_c = [], []
        for _ in range(REPEAT * 4):
            for prefix in PREFIXES:
                ours_c.append(timed(lambda p=prefix: complete(kb, p)))
                base_c.append(
                    timed(
                        lambda p=prefix: fts.execute(
                            "SELECT name FROM names WHERE key >= ? AND key < ? LIMIT 10", (p, p + "\uffff")
                        ).fetchall()
                    )
                )
        o50, o99 = percentiles(ours_c)
        b50, b99 = percentiles(base_c)
        print(f"{'autocomplete':<28}{o50:>9.2f}{o99:>8.2f}{'':>17}{b50:>9.2f}{b99:>8.2f}{o99 / b99:>9.1f}x")
        print(
            "\nours = the Whoosh query alone; full = search() as the CLI and web call it (snippets, citations, "
            "did-you-mean); FTS5 fuzzy = a 4-letter prefix query (FTS5 has no fuzzy matching)."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
