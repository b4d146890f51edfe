"""Benchmark: build time, index size and query latency of `rulings` against SQLite FTS5.

Run: ``make bench`` (or ``.venv/bin/python bench/search_bench.py [WORKDIR] [--profile P] [--share S]``
to keep the generated libraries in WORKDIR between runs; add ``--reuse`` to reuse their
knowledge bases too). For each profile of `bench/generate.py` (stress and realistic; by
default the first quarter of each, ``--share 1`` for the whole ~90,000 versions), it
generates the library, builds the knowledge base with the real pipeline, builds an SQLite
FTS5 table (bm25, the same headword/cards/text columns and weights) from the same versions
(read from the store) as the baseline, then times the same realistic queries on both, in
this one process: in force today, over every version, and as of a past date (the middle of
the library). It prints medians, p99s and the p99 ratio, and checks the all-versions and
as-of-past p99 of phrases, two words and one word against the target.
"""

from __future__ import annotations

import argparse
import datetime as dt
import pickle
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import QUERIES, built_library, middle_date, percentiles, version_rows  # noqa: E402

from kb.index.history import write_history  # noqa: E402
from kb.index.writer import version_document, write_index  # noqa: E402
from kb.ingest import incremental  # noqa: E402
from kb.ingest.pipeline import BuildReport, card_names_of  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.search import history as history_search  # noqa: E402
from kb.search.in_force import run  # noqa: E402
from kb.search.questions import read_query  # noqa: E402

FTS = {
    "single word": None, "two words": None, "phrase": None, "fuzzy": None,
    "question": lambda q: " OR ".join(w for w in q.split() if w not in ("can", "may", "i", "how", "do", "a", "the")),
    "field": lambda q: "cards:" + q.split(":", 1)[1],
}  # fmt: skip
PREFIXES = ["con", "mi", "sh", "ye", "u.s", "kl", "a", "d", "tor", "wor", "ga", "pa"]
REPEAT = 5
TARGET_MS = 50.0
"""p99 target of a phrase, two-word or one-word search over every version or as of a past date."""
HISTORY_CATEGORIES = ("phrase", "two words", "single word")
EVERY_VERSION_CATEGORIES = (*HISTORY_CATEGORIES, "question")
"""Searched over every version and as of a past date (questions: no target, a ratio to FTS5)."""
PROFILES = ("stress", "realistic")
SQL_IN_FORCE = (
    "SELECT rowid FROM v WHERE v MATCH ? AND valid_from <= ? AND valid_to > ? ORDER BY bm25(v, 4.0, 2.0, 1.0) LIMIT 20"
)
SQL_ALL = "SELECT rowid FROM v WHERE v MATCH ? ORDER BY bm25(v, 4.0, 2.0, 1.0) LIMIT 20"
SNIPPETS = "SELECT rowid, headword, cards, snippet(v, 2, '<mark>', '</mark>', ' … ', 32) FROM"
"""FTS5 showing its hits (each with its headword, cards and a snippet of its text marked): the
bare ranking's SQL with these columns, a baseline nearer to what `search()` answers."""


def _fts_query(category: str, text: str) -> str:
    convert = FTS.get(category)
    if convert:
        return convert(text)
    if category == "fuzzy":
        return text[:4] + "*"
    return text.replace("'", "''")


def build_fts(store: Path, path: Path) -> float:
    """The FTS5 baseline of the versions in the SQLite ``store``; its build time."""
    started = time.perf_counter()
    rows = [(r.id, r.headword, r.cards, r.text, r.start, r.end) for r in version_rows(store)]
    db = sqlite3.connect(path)
    db.execute("CREATE VIRTUAL TABLE v USING fts5(headword, cards, text, valid_from UNINDEXED, valid_to UNINDEXED)")
    db.executemany("INSERT INTO v (rowid, headword, cards, text, valid_from, valid_to) VALUES (?,?,?,?,?,?)", rows)
    db.commit()
    db.close()
    return time.perf_counter() - started


CLOCK = {"wall": time.perf_counter, "cpu": time.thread_time}
clock = time.perf_counter
"""The clock latencies are read on (``--clock cpu``: the searching thread's CPU time, steadier on a shared machine)."""


def timed(action: Callable[[], object]) -> float:
    started = clock()
    action()
    return (clock() - started) * 1000


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def measure(
    kb: KnowledgeBase, fts: sqlite3.Connection, category: str, queries: list[str], on: dt.date | None,
    every: bool, sql: str, args: tuple[int, ...],
) -> tuple[list[float], list[float], list[float], list[float], int]:  # fmt: skip
    """Latencies (ms) of the Whoosh query alone, of search() whole, of FTS5 ranking and of FTS5
    showing its hits with snippets (`SNIPPETS`), each query
    run once untimed to warm caches (search() too: the first search of a query reads its
    topics' versions for the citations, up to 30 ms more at 90k), then REPEAT times; and how
    many of the queries search() answered ``partial`` (cut short) in the untimed run.
    ``every``: over every version (or as of ``on``, a past date), through the history index."""
    history = kb.searchers.history_searcher(None if every else on)
    day = on.toordinal() if on and history is not None else None

    def ours(text: str) -> object:
        if history is not None:
            return history_search.run(history, read_query(text), day, None, None, 20)
        searcher, allowed = kb.searchers.searcher(on)
        return run(searcher, read_query(text), allowed, None, None, 20)

    match = [_fts_query(category, text) for text in queries]
    shown = sql.replace("SELECT rowid FROM", SNIPPETS)
    partial = 0
    for text, fts_text in zip(queries, match, strict=True):
        ours(text)
        partial += kb.search(text, as_of=on, every_version=every)["partial"]  # its citations read the versions once
        fts.execute(sql, (fts_text, *args)).fetchall()
        fts.execute(shown, (fts_text, *args)).fetchall()
    alone, full, base, snipped = [], [], [], []
    for _ in range(REPEAT):
        for text, fts_text in zip(queries, match, strict=True):
            alone.append(timed(lambda t=text: ours(t)))
            full.append(timed(lambda t=text: kb.search(t, as_of=on, every_version=every)))
            base.append(timed(lambda q=fts_text: fts.execute(sql, (q, *args)).fetchall()))
            snipped.append(timed(lambda q=fts_text: fts.execute(shown, (q, *args)).fetchall()))
    return alone, full, base, snipped, partial


def index_cost(directory: Path, work: Path) -> str:
    """The CPU time of writing the index of every version of the build ``directory`` both
    ways, from the state the build saved: one document per version (builds before the
    history index) and one per topic (`kb.index.history`)."""
    try:  # the saved state, even when made by other code than this (`incremental.load_state` would refuse it)
        with (directory / incremental.STATE).open("rb") as file:
            state = pickle.load(file)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return "index write: no saved state to rewrite the index from"
    versions, topics, seen = state.ledger.versions, state.ledger.topics, state.seen
    names = card_names_of(state.links, state.catalog)
    started = time.process_time()
    write_index(work / "per-version", versions, topics, names, seen)
    per_version = time.process_time() - started
    started = time.process_time()
    write_history(work / "per-topic", (version_document(v, topics, names, seen) for v in versions))
    per_topic = time.process_time() - started
    return (f"index of every version, written in one process: {per_version:.1f} s CPU with one document per version, "
            f"{per_topic:.1f} s with one per topic")  # fmt: skip


def bench_profile(root: Path, profile: str, share: float, reuse: bool, index_costs: bool) -> list[str]:
    """Build (or reuse) the library of ``profile`` in ``root`` and print its table; the
    all-versions and as-of-past rows over the target."""
    directory, seconds = built_library(root, profile, share, reuse)
    report = BuildReport(directory, [], seconds)
    documents = len(list((root / "library" / "stccg").iterdir()))
    kb = KnowledgeBase(report.directory)
    (root / "fts.sqlite").unlink(missing_ok=True)
    fts_seconds = build_fts(report.directory / "kb.sqlite", root / "fts.sqlite")
    fts = sqlite3.connect(root / "fts.sqlite")
    store = sqlite3.connect(report.directory / "kb.sqlite")
    versions, topics = (store.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("versions", "topics"))
    store.close()
    past = middle_date(report.directory / "kb.sqlite")
    print(f"\n== {profile} profile, share {share:g}: {documents} documents, {versions:,} versions, {topics:,} topics")
    print(f"build: rulings {report.seconds:.1f} s (parse, versions, links, SQLite and Whoosh); "
          f"FTS5 table alone {fts_seconds:.1f} s")  # fmt: skip
    print(
        f"size: Whoosh indexes {size(report.directory / 'index') / 1e6:.1f} MB (every version, one document per "
        f"topic) + {size(report.directory / 'index-current') / 1e6:.1f} MB (in force), SQLite store "
        f"{size(report.directory / 'kb.sqlite') / 1e6:.1f} MB, FTS5 {size(root / 'fts.sqlite') / 1e6:.1f} MB"
    )
    if index_costs:
        with tempfile.TemporaryDirectory() as scratch:
            print(index_cost(report.directory, Path(scratch)))
    kb.search("warm up")
    today_date = dt.date.today()
    today = today_date.toordinal()
    print(f"\n{'queries (ms)':<32}{'ours p50':>9}{'p99':>8}{'full p50':>9}{'p99':>8}{'FTS5 p50':>9}{'p99':>8}"
          f"{'p50 ratio':>10}{'p99 ratio':>10}{'target':>8}{'partial':>8}"
          f"{'snip p50':>9}{'p99':>7}{'ratios':>12}")  # fmt: skip
    missed = []
    for scope, on, every, sql, args in (
        ("in force", today_date, False, SQL_IN_FORCE, (today, today)),
        ("all versions", None, True, SQL_ALL, ()),
        (f"as of {past}", past, False, SQL_IN_FORCE, (past.toordinal(), past.toordinal())),
    ):
        for category, queries in QUERIES.items():
            if scope != "in force" and category not in EVERY_VERSION_CATEGORIES:
                continue
            ours, full, base, snipped, partial = measure(kb, fts, category, queries, on, every, sql, args)
            o50, o99 = percentiles(ours)
            f50, f99 = percentiles(full)
            b50, b99 = percentiles(base)
            s50, s99 = percentiles(snipped)
            verdict = ""
            if scope != "in force" and category in HISTORY_CATEGORIES:
                verdict = "met" if f99 <= TARGET_MS else "MISSED"
                if f99 > TARGET_MS:
                    missed.append(f"{profile} {scope}: {category} p99 {f99:.0f} ms")
            print(f"{scope + ': ' + category:<32}{o50:>9.1f}{o99:>8.1f}{f50:>9.1f}{f99:>8.1f}{b50:>9.1f}{b99:>8.1f}"
                  f"{f50 / b50 if b50 else float('inf'):>9.1f}x{f99 / b99 if b99 else float('inf'):>9.1f}x"
                  f"{verdict:>8}{partial:>8}{s50:>9.1f}{s99:>7.1f}{f50 / s50:>6.1f}x{f99 / s99:>5.1f}x")  # fmt: skip
    names = sorted((n.lower(), n) for n in kb.names().values())
    fts.execute("CREATE TABLE names (key TEXT PRIMARY KEY, name TEXT)")
    fts.executemany("INSERT OR IGNORE INTO names VALUES (?, ?)", names)
    ours_c, base_c = [], []
    for _ in range(REPEAT * 4):
        for prefix in PREFIXES:
            ours_c.append(timed(lambda p=prefix: kb.complete(p)))
            base_c.append(
                timed(
                    lambda p=prefix: fts.execute(
                        "SELECT name FROM names WHERE key >= ? AND key < ? LIMIT 10", (p, p + "\uffff")
                    ).fetchall()
                )
            )
    o50, o99 = percentiles(ours_c)
    b50, b99 = percentiles(base_c)
    print(f"{'autocomplete':<32}{o50:>9.2f}{o99:>8.2f}{'':>17}{b50:>9.2f}{b99:>8.2f}{o99 / b99:>9.1f}x")
    fts.close()
    kb.close()
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workdir", nargs="?", type=Path, help="keep the libraries (and knowledge bases) here")
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument("--share", type=float, default=0.25, help="the first share of each library (1: ~90k versions)")
    parser.add_argument("--reuse", action="store_true", help="reuse the knowledge bases built in WORKDIR")
    parser.add_argument("--index-cost", action="store_true", help="also time writing the index both ways")
    parser.add_argument("--clock", choices=sorted(CLOCK), default="wall", help="time latencies on this clock")
    arguments = parser.parse_args()
    global clock
    clock = CLOCK[arguments.clock]
    missed = []
    with tempfile.TemporaryDirectory() as work:
        base = arguments.workdir or Path(work)
        for profile in PROFILES if arguments.profile == "both" else (arguments.profile,):
            root = base / f"{profile}-{arguments.share:g}"
            missed += bench_profile(root, profile, arguments.share, arguments.reuse, arguments.index_cost)
    print(
        "\nours = the Whoosh query alone (every version and as of a past date: the history index, one document "
        f"per topic); latencies on the {arguments.clock} clock; full = search() as the CLI and web call it "
        "(snippets, citations, did-you-mean); "
        f"target = full p99 <= {TARGET_MS:.0f} ms (questions: none); ratios: full over FTS5; "
        "partial = queries cut short; snip = FTS5 showing its hits with snippets (ratios: full over it, p50 and "
        "p99); FTS5 fuzzy = a 4-letter prefix query (FTS5 has no fuzzy matching)."
    )
    print("targets: all met" if not missed else "targets missed: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
