"""Benchmark of scale: cold commands, the server's first request and memory, build and add.

Run: ``.venv/bin/python bench/scale.py [--large LIBRARY] [--large-kb KB] [--skip-large]``.
For the bundled library and for a large one (the library of `bench/generate.py`, about
90,000 versions, generated into a temporary directory unless ``--large`` names a library),
each copied into a temporary directory, prints:

- ``build``: a full ``rulings build`` (wall time);
- ``add``: ``rulings add`` of one Current Rulings Update dated after every document (25
  rulings restated with one sentence changed), on that build;
- cold ``rulings show Conundrum`` and ``rulings search conundrum`` in a fresh process: wall
  time and peak resident memory (``getrusage`` of that child), median of 3;
- the first request after ``rulings serve`` (default workers) accepts connections, and the
  resident memory of the server's processes together after 200 more requests.

``--large-kb`` measures the commands and the server on an existing large knowledge base
(read only) instead of the one built here. Nothing is timed in the tests; the targets of
issue 13 are printed beside the figures.
"""

from __future__ import annotations

import datetime as dt
import http.client
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generate import generate  # noqa: E402

RULINGS = [sys.executable, "-m", "web.cli"]
TARGETS = {"show": "≤ 0.3 s, ≤ 80 MB", "search": "≤ 0.3 s", "first": "≤ 100 ms", "rss": "≤ 120 MB",
           "build": "≤ 60 s", "add": "≤ 5 s"}  # fmt: skip
REQUESTS = ["/?q=conundrum", "/entry/stccg:conundrum", "/index.json?q=ship", "/complete.json?q=con", "/docs"]


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of ``command`` run in a child process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: "no entry" (the generated library has no Conundrum)
        raise SystemExit(f"{' '.join(command)} failed: {child.stderr.read().decode() if child.stderr else ''}")
    return seconds, usage.ru_maxrss / 1024


def cold(kb: Path, *arguments: str) -> tuple[float, float]:
    runs = [timed([*RULINGS, *arguments, "--kb", str(kb)]) for _ in range(3)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def write_update(library: Path, out: Path, kb: Path, count: int = 25) -> dt.date:
    """A Current Rulings Update dated the month after the library's last document: ``count``
    rulings of the knowledge base restated, each with one sentence changed."""
    manifest = (library / "library.toml").read_text(encoding="utf-8")
    last = max(dt.date.fromisoformat(d) for d in re.findall(r'^date = "([\d-]+)"', manifest, re.M))
    when = dt.date(last.year + (last.month == 12), last.month % 12 + 1, 1)
    with sqlite3.connect(f"file:{kb / 'current' / 'kb.sqlite'}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT headword, text FROM versions WHERE series = 'current-rulings' AND valid_to IS NULL"
            " AND text != '' AND instr(headword, ' - ') = 0 ORDER BY id"
        ).fetchall()
    chosen = rows[:: max(1, len(rows) // count)][:count]
    body = "\n\n".join(
        f"{headword} - {text.split(chr(10))[0]} This is clarified in the update of {when.isoformat()}."
        for headword, text in chosen
    )
    us = f"{when.month}/{when.day}/{when.year % 100:02d}"
    out.write_text(f"STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n{us}\n\nRULINGS\n\n{body}\n")
    return when


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def tree_rss(pid: int) -> float:
    """Resident MB of a process and its children."""
    total, pids = 0.0, [pid]
    while pids:
        current = pids.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            pids += [int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split()]
        except OSError:
            continue
        total += int(re.search(r"VmRSS:\s+(\d+)", status)[1]) / 1024  # type: ignore[index]
    return total


def serving(kb: Path) -> tuple[float, float]:
    """Milliseconds of the first request once ``rulings serve`` accepts connections, and the
    server's resident MB after 200 more."""
    port = free_port()
    server = subprocess.Popen([*RULINGS, "serve", "--kb", str(kb), "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.perf_counter()
        connection.request("GET", "/?q=conundrum")
        connection.getresponse().read()
        first = (time.perf_counter() - started) * 1000
        for number in range(200):
            connection.request("GET", REQUESTS[number % len(REQUESTS)])
            connection.getresponse().read()
        connection.close()
        return first, tree_rss(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)


def measure(name: str, library: Path, work: Path, given_kb: Path | None = None) -> dict[str, str]:
    """The row of figures of one library."""
    print(f"{name}: building {library} ...", file=sys.stderr, flush=True)
    shutil.copytree(library, work / "library")
    kb = work / "kb"
    build_seconds, _ = timed([*RULINGS, "build", "--library", str(work / "library"), "--kb", str(kb)])
    update = work / "update.txt"
    when = write_update(work / "library", update, kb)
    print(f"{name}: adding an update ...", file=sys.stderr, flush=True)
    add_seconds, _ = timed([*RULINGS, "add", str(update), "--kind", "current-rulings-update", "--date",
                            when.isoformat(), "--library", str(work / "library"), "--kb", str(kb)])  # fmt: skip
    target = given_kb or kb
    print(f"{name}: cold commands and serving on {target} ...", file=sys.stderr, flush=True)
    show = cold(target, "show", "Conundrum")
    found = cold(target, "search", "conundrum")
    first, rss = serving(target)
    return {
        "show": f"{show[0]:.3f} s, {show[1]:.0f} MB", "search": f"{found[0]:.3f} s, {found[1]:.0f} MB",
        "first": f"{first:,.0f} ms", "rss": f"{rss:,.0f} MB", "build": f"{build_seconds:.1f} s",
        "add": f"{add_seconds:.1f} s",
    }  # fmt: skip


LABELS = {
    "show": "`rulings show Conundrum`, fresh process", "search": "`rulings search conundrum`, fresh process",
    "first": "first request after `rulings serve` starts", "rss": "server RSS after 200 requests",
    "build": "full build", "add": "`rulings add` of one update",
}  # fmt: skip


def main() -> int:
    arguments = sys.argv[1:]

    def option(name: str) -> Path | None:
        return Path(arguments[arguments.index(name) + 1]).resolve() if name in arguments else None

    columns: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "bundled").mkdir()
        columns["bundled"] = measure("bundled", ROOT / "data", Path(work) / "bundled")
        if "--skip-large" not in arguments:
            large = option("--large")
            if large is None:
                large = Path(work) / "generated"
                generate(large)
            (Path(work) / "large").mkdir()
            columns["large"] = measure("large", large, Path(work) / "large", option("--large-kb"))
    print(f"\n| what | {' | '.join(columns)} | target (large) |\n| --- |{' --- |' * len(columns)} --- |")
    for key, label in LABELS.items():
        print(f"| {label} | {' | '.join(c[key] for c in columns.values())} | {TARGETS[key]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
