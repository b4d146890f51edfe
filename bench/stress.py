"""Stress test of the real server: many clients while the knowledge base is rebuilt under it.

Run: ``.venv/bin/python bench/stress.py [--requests N] [--clients 20,200] [--rebuilds 3]``
(default: the bundled library built into a temporary knowledge base), or
``--kb DIR --rebuilds 0`` to serve an existing build without touching it (e.g. the 90k
benchmark; ``--no-wide`` leaves out the ``t*`` searches).

Starts ``rulings serve`` on a free 127.0.0.1 port (``--per-client`` as many as the most clients:
they all share one address, as behind a proxy) and asks each request of a fixed set once,
alone: those answers are the baseline. Then, for each client count, that many threads (each
with its own keep-alive connection) send the set round-robin, bounded by ``--requests`` and
``--seconds``, while another thread runs ``rulings build --kb`` into the served directory
``--rebuilds`` times. Every status must be 200 or 4xx, and every JSON answer must equal its
baseline; an answer that takes turns (`web.gate`: a diff, as-of view, feed or deck, and since
#33 a card's, an entry's or two cards' page) may instead be a 503 with
``Retry-After`` when others of its kind are being built, and those are counted apart. Prints
the counts and median / p99 latency, and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from served import served  # noqa: E402

REQUESTS = [
    "/index.json?q=t*",
    "/index.json?q=t*&as_of=2000-11-01",
    "/?q=t*",
    "/index.json?q=s*&limit=100",
    "/index.json?q=con*",
    "/index.json?q=%22mission+attempt%22",
    "/index.json?q=damaged+ship",
    "/index.json?q=damaged+ship&as_of=1999-01-01",
    "/?q=conundrum+target",
    "/index.json?q=conondrum",
    "/complete.json?q=con",
    "/entry/stccg:conundrum",
    "/entry/stccg:conundrum.json",
    "/entry/stccg:mission-attempt.json",
    "/entry/stccg:no-such-entry.json",
    "/card/Nebula",
    "/card/Nebula.json",
    "/diff?from=2000-10-30&to=2000-11-27",
    "/diff.json?from=2000-10-30&to=2000-11-27",
    "/docs/stccg-cr-update-2000-11-27.json",
    "/index.json?q=ship&as_of=notadate",
]
WIDE = ("q=t*", "q=s*")
"""Searches that expand to most of the vocabulary (left out by ``--no-wide``)."""


def ask(connection: http.client.HTTPConnection, path: str) -> tuple[int, bytes, str]:
    connection.request("GET", path)
    response = connection.getresponse()
    status = response.status
    if status == 503 and response.getheader("Retry-After") and path.startswith(IN_TURN):
        status = TURNED_AWAY
    return status, response.read(), response.getheader("Content-Type", "")


IN_TURN = ("/diff", "/asof", "/changes.atom", "/deck", "/card", "/entry")
"""The answers that take turns (`web.gate`: `costly` and `heavy`, `/card` covering `/cards`): a 503
with ``Retry-After`` is their honest answer under load."""
TURNED_AWAY = -503
"""The status counted for an answer taking turns asked to come back later."""


def answer(status: int, body: bytes, kind: str) -> Any:
    """What must not change: the JSON answer (HTML pages are checked by status only)."""
    return json.loads(body) if kind.startswith("application/json") else None


class Tally:
    """What came back: latencies, statuses, mismatches, errors (appended from many threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: list[float] = []
        self.statuses: dict[int, int] = {}
        self.mismatches: list[str] = []
        self.errors: list[str] = []

    def add(self, path: str, ms: float, status: int, got: Any, baseline: dict[str, tuple[int, Any]]) -> None:
        with self.lock:
            self.times.append(ms)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status != TURNED_AWAY and (status, got) != baseline[path]:
                self.mismatches.append(f"{path}: {status}")


def client(port: int, paths: list[str], jobs: itertools.count[int], total: int, deadline: float,
           baseline: dict[str, tuple[int, Any]], tally: Tally) -> None:  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while time.monotonic() < deadline:
        number = next(jobs)
        if number >= total:
            break
        path = paths[number % len(paths)]
        started = time.perf_counter()
        try:
            status, body, kind = ask(connection, path)
        except (OSError, http.client.HTTPException) as err:
            with tally.lock:
                tally.errors.append(f"{path}: {err!r}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            continue
        tally.add(path, (time.perf_counter() - started) * 1000, status, answer(status, body, kind), baseline)
    connection.close()


def rebuilder(library: Path, kb: Path, times: int, done: threading.Event, log: list[str]) -> None:
    """Rebuild ``kb`` from ``library`` ``times`` times, spread over the run."""
    for _ in range(times):
        if done.wait(1.0):
            return
        started = time.perf_counter()
        build = subprocess.run(
            [sys.executable, "-m", "web.cli", "build", "--library", str(library), "--kb", str(kb)],
            cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        log.append(f"rebuild exit {build.returncode} in {time.perf_counter() - started:.1f} s"
                   + (f": {build.stderr.strip()[-200:]}" if build.returncode else ""))  # fmt: skip


def phase(port: int, clients: int, args: argparse.Namespace, paths: list[str],
          baseline: dict[str, tuple[int, Any]], kb: Path) -> bool:  # fmt: skip
    """One run with ``clients`` clients and concurrent rebuilds; prints its figures; True when clean."""
    tally, jobs, rebuilt, done = Tally(), itertools.count(), [], threading.Event()
    deadline = time.monotonic() + args.seconds
    threads = [
        threading.Thread(target=client, args=(port, paths, jobs, args.requests, deadline, baseline, tally))
        for _ in range(clients)
    ]
    builds = threading.Thread(target=rebuilder, args=(args.library, kb, args.rebuilds, done, rebuilt))
    started = time.perf_counter()
    for thread in [*threads, builds]:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    done.set()
    builds.join()
    times = sorted(tally.times)
    bad = {s: n for s, n in tally.statuses.items() if not (s in (200, TURNED_AWAY) or 400 <= s < 500)}
    print(f"\n{clients} clients: {len(times)} responses in {seconds:.1f} s ({len(times) / seconds:.0f}/s), "
          f"statuses {dict(sorted(tally.statuses.items()))} (-503: an answer taking turns asked to come back later), "
          f"{len(tally.errors)} connection errors, "
          f"{len(tally.mismatches)} answers unlike the baseline")  # fmt: skip
    if times:
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"latency: p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms")
    for line in rebuilt:
        print(f"  {line}")
    for line in (tally.errors + tally.mismatches)[:10]:
        print(f"  ! {line}")
    rebuild_failed = any("exit 0" not in line for line in rebuilt)
    return not bad and not tally.errors and not tally.mismatches and not rebuild_failed


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--kb", help="serve this knowledge base (default: build data/ into a temporary one)")
    options.add_argument("--library", type=Path, default=ROOT / "data", help="library the rebuilds read")
    options.add_argument("--clients", default="20,200", help="client counts, one run each (default 20,200)")
    options.add_argument("--requests", type=int, default=3000, help="requests per run (default 3000)")
    options.add_argument("--seconds", type=float, default=120, help="time limit per run (default 120)")
    options.add_argument("--rebuilds", type=int, default=3, help="rebuilds during each run (default 3)")
    options.add_argument("--threads", type=int, default=8, help="server threads (default 8)")
    options.add_argument("--no-wide", action="store_true", help="leave out the t* and s* searches")
    args = options.parse_args()
    paths = [p for p in REQUESTS if not (args.no_wide and any(w in p for w in WIDE))]
    with tempfile.TemporaryDirectory() as work:
        kb = Path(args.kb) if args.kb else Path(work) / "kb"
        if not args.kb:
            subprocess.run([sys.executable, "-m", "web.cli", "build", "--library", str(args.library), "--kb", str(kb)],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        # every simulated client comes from 127.0.0.1, as behind a proxy: the per-address bound
        # (`web.cli.clients`, 100 by default) would close the connections of the 101st and after
        most = str(max(int(n) for n in args.clients.split(",")) + 1)
        serving = ("--threads", str(args.threads), "--per-client", most)
        with (Path(work) / "serve.log").open("wb") as log, served(kb, *serving, log=log) as port:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            baseline = {}
            for path in paths:
                status, body, kind = ask(connection, path)
                baseline[path] = (status, answer(status, body, kind))
            connection.close()
            print(f"baseline: {len(paths)} requests, statuses {sorted({s for s, _ in baseline.values()})}")
            clean = [phase(port, int(n), args, paths, baseline, kb) for n in args.clients.split(",")]
        errors = (Path(work) / "serve.log").read_text(errors="replace")
        if "Traceback" in errors:
            print(f"\nserver log:\n{errors[-3000:]}")
    return 0 if all(clean) else 1


if __name__ == "__main__":
    sys.exit(main())
