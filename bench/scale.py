"""Benchmark of scale (issue 13): cold commands, serving, history search, build and add, as the library grows.

Run: ``.venv/bin/python bench/scale.py [--profiles stress,realistic] [--shares 0.25,0.5,1] [--repeat 3]``
(``make bench`` runs every profile and share). For the bundled library, then for each profile of
`bench/generate.py` (``realistic`` only when ``../shared/cards`` is there; the output says when it
is not) and each share of its documents (0.25: the first quarter, in date order), generated into a
temporary directory, prints one column of:

- ``rulings show HEADWORD`` and ``rulings search HEADWORD`` in a fresh process: wall time and peak
  resident memory (``getrusage`` of that child, as ``/usr/bin/time`` reports them), median of
  ``--repeat`` runs; HEADWORD is the topic with the longest history in that library;
- the first request after ``rulings serve`` (default workers) accepts connections, and the
  resident memory of the server's processes together after 200 more requests: the sum of their
  RSS (checked against the target; the pages the workers share with the process they were
  forked from count once in each) and, beside it, of their PSS (shared pages divided);
- search over every version, and as of the middle date of the library, p50/p99 of ``search()``
  (as the CLI and the web call it) beside SQLite FTS5 on the same versions (`search_bench.measure`),
  for phrases, two words and one word;
- a full ``rulings build`` (wall and CPU time) and ``rulings add`` of one Current Rulings Update
  dated after every document (25 rulings restated with one sentence changed).

Each figure is marked ✓ or ✗ against the target of issue 13 (targets are for the 100% library;
the as-of search has the all-versions target). Nothing here is timed in the tests.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import month_after, rulings_in_force, update_text  # noqa: E402
from generate import CARDS, PROFILES, generate  # noqa: E402

RULINGS = [sys.executable, "-m", "web.cli"]
SEARCHES = ("phrase", "two words", "single word")
"""The query categories of `common.QUERIES` measured here."""
ROWS: dict[str, tuple[str, str]] = {
    "library": ("library: documents / versions / topics", ""),
    "show": ("`rulings show HEADWORD`, fresh process", "≤ 0.3 s, ≤ 80 MB"),
    "search": ("`rulings search HEADWORD`, fresh process", "≤ 0.3 s"),
    "first": ("first request after `rulings serve` starts", "≤ 100 ms"),
    "rss": ("server RSS after 200 requests (PSS: shared pages divided)", "≤ 120 MB"),
    **{f"all {c}": (f"all-versions search, {c}: p50 / p99 (FTS5)", "p99 ≤ 50 ms") for c in SEARCHES},
    **{f"asof {c}": (f"as-of search, {c}: p50 / p99 (FTS5)", "p99 ≤ 50 ms") for c in SEARCHES},
    "build": ("full build: wall (CPU)", "≤ 60 s"),
    "add": ("`rulings add` of one update: wall (CPU)", "≤ 5 s"),
}


def mark(value: float, limit: float | None) -> str:
    return "" if limit is None else (" ✓" if value <= limit else " ✗")


LAUNCHER = """
import os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
seconds, cpu = time.perf_counter() - started, usage.ru_utime + usage.ru_stime
print(seconds, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""
"""Runs a command and prints its wall and CPU seconds, peak resident KB and exit code. Linux
counts in a child's peak the memory of the process it was forked from, so the command is
forked from this small process, not from the benchmark (a few hundred MB by then)."""


def timed(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident MB of ``command`` run in a child process, which must succeed."""
    run = subprocess.run([sys.executable, "-c", LAUNCHER, *command], cwd=ROOT, capture_output=True, text=True)
    seconds, cpu, peak, code = run.stdout.split()
    if run.returncode != 0 or code != "0":
        raise SystemExit(f"{' '.join(command)} failed: {run.stderr}")
    return float(seconds), float(cpu), int(peak) / 1024


def cold(kb: Path, repeat: int, *arguments: str) -> tuple[float, float]:
    """Median wall seconds and peak MB of a fresh ``rulings`` process."""
    runs = [timed([*RULINGS, *arguments, "--kb", str(kb)]) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[2] for r in runs)


def store(kb: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{kb / 'current' / 'kb.sqlite'}?mode=ro", uri=True)


def longest_history(kb: Path) -> tuple[str, str]:
    """The headword and topic id of the topic with the most versions (the first such, by id)."""
    with store(kb) as db:
        row = db.execute(
            "SELECT headword, topic_id FROM versions GROUP BY topic_id ORDER BY count(*) DESC, topic_id LIMIT 1"
        ).fetchone()
    return str(row[0]), str(row[1])


def write_update(library: Path, out: Path, kb: Path, count: int = 25) -> dt.date:
    """A Current Rulings Update dated the month after the library's last document: ``count``
    rulings of the knowledge base restated, each with one sentence changed."""
    manifest = (library / "library.toml").read_text(encoding="utf-8")
    last = max(dt.date.fromisoformat(d) for d in re.findall(r'^date = "([\d-]+)"', manifest, re.M))
    when = month_after(last)
    with store(kb) as db:
        rows = rulings_in_force(db)
    chosen = rows[:: max(1, len(rows) // count)][:count]
    out.write_text(update_text(when, chosen, f"This is clarified in the update of {when.isoformat()}."))
    return when


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def tree_memory(pid: int) -> tuple[float, float]:
    """Resident MB of a process and its children, summed: RSS (pages shared by the processes,
    as those a gunicorn arbiter forks its workers with, counted in each) and PSS (each shared
    page divided among the processes sharing it, from ``/proc/PID/smaps_rollup``)."""
    rss, pss, pids = 0.0, 0.0, [pid]
    while pids:
        current = pids.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            pids += [int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split()]
        except OSError:
            continue
        rss += int(re.search(r"VmRSS:\s+(\d+)", status)[1]) / 1024  # type: ignore[index]
        pss += int(re.search(r"^Pss:\s+(\d+)", rollup, re.M)[1]) / 1024  # type: ignore[index]
    return rss, pss


def serving(kb: Path, requests: list[str]) -> tuple[float, float, float]:
    """Milliseconds of the first request once ``rulings serve`` accepts connections, and the
    server's resident MB after 200 more: RSS and PSS (`tree_memory`)."""
    port = free_port()
    server = subprocess.Popen([*RULINGS, "serve", "--kb", str(kb), "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"rulings serve --kb {kb} did not accept connections") from None
                time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        started = time.perf_counter()
        connection.request("GET", requests[0])
        connection.getresponse().read()
        first = (time.perf_counter() - started) * 1000
        for number in range(200):
            connection.request("GET", requests[number % len(requests)])
            connection.getresponse().read()
        connection.close()
        return first, *tree_memory(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=60)


def latencies(kb: Path, on: str) -> dict[str, list[float]]:
    """In this process (run as a child by `column`): p50 and p99 of ``search()`` and FTS5 per category,
    over every version and as of ``on``."""
    from common import QUERIES
    from search_bench import SQL_ALL, SQL_IN_FORCE, build_fts, measure, percentiles

    from kb.paths import DB_NAME
    from kb.query import KnowledgeBase

    knowledge = KnowledgeBase((kb / "current").resolve())
    with tempfile.TemporaryDirectory() as work:
        build_fts(knowledge.directory / DB_NAME, Path(work) / "fts.sqlite")
        fts = sqlite3.connect(Path(work) / "fts.sqlite")
        knowledge.search("warm up")
        day = dt.date.fromisoformat(on)
        figures: dict[str, list[float]] = {}
        for scope, when, sql, args in (("all", None, SQL_ALL, ()),
                                       ("asof", day, SQL_IN_FORCE, (day.toordinal(), day.toordinal()))):  # fmt: skip
            for category in SEARCHES:
                _, full, base, _ = measure(knowledge, fts, category, QUERIES[category], when, when is None, sql, args)
                figures[f"{scope} {category}"] = [*percentiles(full), *percentiles(base)]
        fts.close()
    return figures


def column(name: str, library: Path, work: Path, repeat: int) -> dict[str, str]:
    """The figures of one library (copied into ``work``), each with its mark."""

    def say(what: str) -> None:
        print(f"{name}: {what} ...", file=sys.stderr, flush=True)

    shutil.copytree(library, work / "library")
    kb = work / "kb"
    say("building")
    build_wall, build_cpu, _ = timed([*RULINGS, "build", "--library", str(work / "library"), "--kb", str(kb)])
    headword, topic = longest_history(kb)
    with store(kb) as db:
        counts = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("documents", "versions", "topics")]
        dates = [r[0] for r in db.execute("SELECT date FROM documents WHERE date IS NOT NULL ORDER BY date")]
    say(f"cold commands on {headword!r}")
    show = cold(kb, repeat, "show", headword)
    found = cold(kb, repeat, "search", headword)
    say("serving")
    word = headword.split()[0].lower()
    asked = [f"/?q={word}", f"/entry/{topic}", "/index.json?q=ship", f"/complete.json?q={word[:3]}", "/docs"]
    first, rss, pss = serving(kb, asked)
    say("searching (and building the FTS5 table)")
    middle = dates[len(dates) // 2] if dates else dt.date.today().isoformat()
    run = subprocess.run([sys.executable, __file__, "--latencies", str(kb), middle], cwd=ROOT, capture_output=True,
                         text=True, check=False)  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"search latencies on {kb} failed: {run.stderr.strip()}")
    searched: dict[str, list[float]] = json.loads(run.stdout)
    say("adding an update")
    update = work / "update.txt"
    when = write_update(work / "library", update, kb)
    add_wall, add_cpu, _ = timed([*RULINGS, "add", str(update), "--kind", "current-rulings-update", "--date",
                            when.isoformat(), "--library", str(work / "library"), "--kb", str(kb)])  # fmt: skip
    figures = {
        "library": f"{counts[0]:,} / {counts[1]:,} / {counts[2]:,}",
        "show": f"{show[0]:.3f} s{mark(show[0], 0.3)}, {show[1]:.0f} MB{mark(show[1], 80.0)}",
        "search": f"{found[0]:.3f} s{mark(found[0], 0.3)}, {found[1]:.0f} MB",
        "first": f"{first:,.0f} ms{mark(first, 100.0)}",
        "rss": f"{rss:,.0f} MB{mark(rss, 120.0)} (PSS {pss:,.0f} MB)",
        "build": f"{build_wall:.1f} s ({build_cpu:.1f} s){mark(build_wall, 60.0)}",
        "add": f"{add_wall:.1f} s ({add_cpu:.1f} s){mark(add_wall, 5.0)}",
    }
    for key, (p50, p99, f50, f99) in searched.items():
        figures[key] = f"{p50:.0f} / {p99:.0f} ms ({f50:.0f} / {f99:.0f}){mark(p99, 50.0)}"
    return figures


def table(columns: dict[str, dict[str, str]]) -> str:
    lines = [f"| what | {' | '.join(columns)} | target at 90k |", f"| --- |{' --- |' * len(columns)} --- |"]
    for key, (label, target) in ROWS.items():
        lines.append(f"| {label} | {' | '.join(c.get(key, '') for c in columns.values())} | {target} |")
    return "\n".join(lines)


def _floats(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part]


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Benchmark of scale (issue 13).")
    parser.add_argument("--profiles", default=",".join(PROFILES), help="comma-separated profiles of bench/generate.py")
    parser.add_argument("--shares", type=_floats, default=[0.25, 0.5, 1.0], help="comma-separated shares (0 to 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each cold command (the median is shown)")
    parser.add_argument("--no-bundled", action="store_true", help="leave out the bundled library's column")
    parser.add_argument("--latencies", nargs=2, metavar=("KB", "DATE"), help=argparse.SUPPRESS)
    options = parser.parse_args(arguments)
    if options.latencies:
        print(json.dumps(latencies(Path(options.latencies[0]), options.latencies[1])))
        return 0
    profiles = [p for p in options.profiles.split(",") if p]
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown or not all(0 < s <= 1 for s in options.shares):
        parser.error(f"profiles are {', '.join(PROFILES)}; shares are between 0 and 1")
    notes = []
    if "realistic" in profiles and not any(CARDS.glob("*.csv")):
        profiles.remove("realistic")
        notes.append(f"realistic profile left out: no card files in {CARDS}")
    columns: dict[str, dict[str, str]] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rulings-scale-") as temporary:
        work = Path(temporary)
        plan: list[tuple[str, Callable[[Path], object]]] = [] if options.no_bundled else [
            ("bundled", lambda target: shutil.copytree(ROOT / "data", target))]  # fmt: skip
        for profile in profiles:
            for share in options.shares:
                plan.append((f"{profile} {share:.0%}",
                             lambda target, p=profile, s=share: generate(target, profile=p, share=s)))  # fmt: skip
        for number, (name, make) in enumerate(plan):
            place = work / f"column-{number}"
            place.mkdir()
            make(place / "source")
            columns[name] = column(name, place / "source", place, options.repeat)
            print(f"{name}: {json.dumps(columns[name], ensure_ascii=False)}", file=sys.stderr, flush=True)
            shutil.rmtree(place, ignore_errors=True)
    print(table(columns))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    seconds = time.perf_counter() - started
    print(f"\n{cores} cores, load average {os.getloadavg()[0]:.1f} at the end, {seconds:.0f} s in all. "
          "Cold commands: median of the runs; searches: search() whole beside the FTS5 query alone.")  # fmt: skip
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
