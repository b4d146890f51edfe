"""Benchmark: a cold `rulings search`, a fresh process for each question, beside FTS5's.

Run: ``.venv/bin/python bench/cold_search.py ROOT [ROOT ...] [--runs N]``, each ROOT a folder
`bench/search_bench.py WORKDIR` made for one profile (``WORKDIR/stress-1``): its knowledge base
``ROOT/kb`` and its FTS5 table ``ROOT/fts.sqlite``. For the first query of each category of the
search benchmark (`bench/common.QUERIES`), in force today, it times on the wall clock, ``N``
times each and interleaved, ``rulings search QUERY --kb ROOT/kb`` as a person runs it (the
installed script, its output read whole through a pipe) and a fresh Python process that opens
the FTS5 table and runs the search benchmark's query on it, and prints each query's median and
the median and p90 of all runs. The first run of each is untimed (the files are then in the
system's cache, as for a judge who searched a minute before).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from common import QUERIES  # noqa: E402
from search_bench import SQL_IN_FORCE, _fts_query  # noqa: E402

RULINGS = ROOT / ".venv" / "bin" / "rulings"
FTS_PROGRAM = (
    "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
    "rows = db.execute(sys.argv[2], (sys.argv[3], int(sys.argv[4]), int(sys.argv[4]))).fetchall(); "
    "print(len(rows))"
)
TARGET = 0.25
"""Seconds a cold search may take at 90,000 versions (issue 25)."""


def wall(command: list[str]) -> float:
    """Seconds ``command`` took, its output read whole; a failure stops the benchmark."""
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def bench(root: Path, runs: int) -> list[float]:
    """Print each query's median seconds, ours and FTS5's; return all of ours."""
    today = str(dt.date.today().toordinal())
    print(f"\n== {root}\n{'query':<44}{'rulings p50':>12}{'max':>7}{'FTS5 p50':>10}{'ratio':>7}")
    every: list[float] = []
    for category, queries in QUERIES.items():
        text = queries[0]
        ours_command = [str(RULINGS), "search", text, "--kb", str(root / "kb")]
        fts_command = [sys.executable, "-c", FTS_PROGRAM, str(root / "fts.sqlite"), SQL_IN_FORCE,
                       _fts_query(category, text), today]  # fmt: skip
        wall(ours_command)
        wall(fts_command)
        ours, theirs = [], []
        for _ in range(runs):
            ours.append(wall(ours_command))
            theirs.append(wall(fts_command))
        every += ours
        o50, f50 = statistics.median(ours), statistics.median(theirs)
        print(f"{category + ': ' + text:<44}{o50:>12.3f}{max(ours):>7.3f}{f50:>10.3f}{o50 / f50:>6.1f}x")
    return every


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("roots", nargs="+", type=Path, help="folders search_bench.py made (ROOT/kb, ROOT/fts.sqlite)")
    options.add_argument("--runs", type=int, default=7, help="timed runs of each query (default 7)")
    arguments = options.parse_args()
    for root in arguments.roots:
        times = sorted(bench(root, arguments.runs))
        p50, p90 = statistics.median(times), times[int(len(times) * 0.9)]
        verdict = "met" if p50 <= TARGET else "MISSED"
        print(f"all queries: p50 {p50:.3f} s, p90 {p90:.3f} s, target p50 <= {TARGET} s: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
