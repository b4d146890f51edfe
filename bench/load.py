"""Load test of the web app: 20 and 100 concurrent clients on loopback, one worker process
and one per core, bounded in count and time.

Run: ``.venv/bin/python bench/load.py [REQUESTS] [--kb DIR]`` (default 4,000; the bundled
library built into a temporary knowledge base unless ``--kb`` names one, whose own topic,
card and document the entry, card and document requests then ask for). For ``--workers 1``
(waitress) and ``--workers N`` (N = the cores; gunicorn), starts ``rulings serve`` on a free
127.0.0.1 port in a subprocess, sends a mix of page and JSON requests from 20 and then 100
threads (each with its own keep-alive connection), each run stopping after REQUESTS or
120 s, and prints requests/s with median and p99 latency per kind of request (time to the
full response); first with one client (the latency a single judge sees). Ends with a table
of throughput by workers and clients.

``--mixed [--clients 50] [--seconds 120] [--workers 2]`` instead sends, from that many
clients for that long, a mix where every other request is a costly one (a diff, a deck, an
as-of view, the feed, a card with hundreds of rulings, a long entry, two cards together) and the
rest are searches; it prints p50/p99 and the share of 503s per kind of request, the worst
wait of a search (issue 33, item 5: a search never waits more than 1 s behind any mix), and how
long the 503s took (a refusal does no work, so that is the wait for a thread and the CPU).
"""

from __future__ import annotations

import http.client
import itertools
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from served import served  # noqa: E402

from kb.ingest.pipeline import build  # noqa: E402
from kb.paths import DEFAULT_LIBRARY, current  # noqa: E402
from web.cli.serving import cores  # noqa: E402

CLIENTS = (20, 100)
LIMIT_SECONDS = 120
MIX = [
    ("search page", "/?q=conundrum+target"),
    ("search page", "/?q=damaged+ship"),
    ("search json", "/index.json?q=mirror+universe"),
    ("search json", "/index.json?q=conondrum"),
    ("autocomplete", "/complete.json?q=con"),
    ("entry page", "/entry/stccg:conundrum"),
    ("entry json", "/entry/stccg:mission-attempt.json"),
    ("card page", "/card/Nebula"),
    ("diff page", "/diff?from=2000-10-30&to=2000-11-27"),
    ("document page", "/docs/stccg-cr-update-2000-11-27?lines=79-83"),
]


HEAVY = [
    ("search json", "/index.json?q=mirror+universe"),
    ("diff page", "/diff?from=2000-10-30&to=2000-11-27"),
    ("search page", "/?q=damaged+ship"),
    ("deck page", "/deck?list=" + quote("Montgomery Scott\nTorni\nNebula\nQ-Flash")),
    ("search json", "/index.json?q=conondrum"),
    ("card page", "/card/Montgomery%20Scott"),
    ("autocomplete", "/complete.json?q=con"),
    ("entry page", "/entry/stccg:torni"),
    ("search page", "/?q=conundrum+target"),
    ("pair page", "/cards?names=" + quote("Montgomery Scott,Torni")),
    ("search json", "/index.json?q=personnel+mission"),
    ("as-of page", "/asof/2005-01-01"),
    ("search page", "/?q=ship"),
    ("feed", "/changes.atom"),
]
"""The mixed load of ``--mixed``: every other request costly (the pages of issue 33 on the 90k
stress knowledge base: its card Montgomery Scott, its entry Torni), the rest searches."""


def mix_of(kb: Path) -> None:
    """Point the entry, card and document requests of `MIX` at what ``kb`` holds (a generated
    library has none of the bundled library's titles): its topic with the most versions, its
    first card and its latest document."""
    with sqlite3.connect(current(kb) / "kb.sqlite") as store:
        (topic,) = store.execute(
            "SELECT topic_id FROM versions GROUP BY topic_id ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
        card = store.execute("SELECT name FROM cards ORDER BY key LIMIT 1").fetchone()
        (document,) = store.execute("SELECT id FROM documents ORDER BY date DESC, id LIMIT 1").fetchone()
    chosen = {"entry page": f"/entry/{quote(topic)}", "entry json": f"/entry/{quote(topic)}.json",
              "document page": f"/docs/{quote(document)}?lines=1-5"}  # fmt: skip
    if card:
        chosen["card page"] = f"/card/{quote(card[0], safe='')}"
    MIX[:] = [(kind, chosen.get(kind, path)) for kind, path in MIX]


def client(
    port: int,
    jobs: itertools.count[int],
    total: int,
    deadline: float,
    out: list[tuple[str, float, int]],
    mix: list[tuple[str, str]] = MIX,
) -> None:
    """Send requests of ``mix`` in turn on one keep-alive connection (a new one after an error,
    recorded as status 0) until ``total`` are sent or ``deadline`` passes."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < deadline:
        number = next(jobs)
        if number >= total:
            break
        kind, path = mix[number % len(mix)]
        started = time.perf_counter()
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            status = 0
        out.append((kind, (time.perf_counter() - started) * 1000, status))
    connection.close()


def run(
    port: int, clients: int, total: int, seconds: float = LIMIT_SECONDS, mix: list[tuple[str, str]] = MIX
) -> tuple[int, list[tuple[str, float, int]], float]:
    """Send ``total`` requests from ``clients`` threads; return what came back and how long it took."""
    results: list[tuple[str, float, int]] = []
    jobs = itertools.count()
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client, args=(port, jobs, total, deadline, results, mix)) for _ in range(clients)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return clients, results, time.perf_counter() - started


def report(clients: int, results: list[tuple[str, float, int]], seconds: float) -> int:
    """Print the figures of one run; return how many responses were not 200."""
    failures = sum(1 for _, _, status in results if status != 200)
    print(f"\n{len(results)} requests from {clients} client(s) in {seconds:.1f} s: "
          f"{len(results) / seconds:.0f} requests/s, {failures} not 200")  # fmt: skip
    print(f"{'request':<16}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}")
    for kind in dict.fromkeys(k for k, _ in MIX):
        times = sorted(ms for k, ms, _ in results if k == kind)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{kind:<16}{len(times):>7}{statistics.median(times):>9.1f}{p99:>9.1f}")
    everything = sorted(ms for _, ms, _ in results)
    print(f"{'all':<16}{len(everything):>7}{statistics.median(everything):>9.1f}"
          f"{everything[int(len(everything) * 0.99)]:>9.1f}")  # fmt: skip
    return failures


def mixed_report(clients: int, results: list[tuple[str, float, int]], seconds: float) -> float:
    """Print p50/p99 and the share of 503s per kind of request of a mixed run; return the worst
    wait of a search, in seconds."""
    print(f"\n{len(results)} requests from {clients} clients in {seconds:.1f} s, mixed (`HEAVY`)")
    print(f"{'request':<16}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'503':>7}{'other':>7}")
    for kind in dict.fromkeys(k for k, _ in HEAVY):
        mine = [(ms, status) for k, ms, status in results if k == kind]
        times = sorted(ms for ms, _ in mine)
        if not times:
            continue
        busy = sum(1 for _, status in mine if status == 503) / len(mine)
        other = sum(1 for _, status in mine if status not in (200, 503))
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{kind:<16}{len(times):>7}{statistics.median(times):>9.1f}{p99:>9.1f}{times[-1]:>9.1f}{busy:>7.0%}{other:>7}"
        )
    searches = [ms for k, ms, _ in results if k.startswith("search")]
    worst = max(searches) / 1000
    refused = sorted(ms for _, ms, status in results if status == 503)
    print(f"worst wait of a search: {worst:.2f} s; 503s: {len(refused) / len(results):.1%} of all requests")
    if refused:  # a refusal does no work: its time is the wait for a thread and the CPU
        p50, p99 = statistics.median(refused), refused[min(len(refused) - 1, int(len(refused) * 0.99))]
        print(f"a 503 took p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {refused[-1]:.1f} ms")
    return worst


def serve_and_load(kb: Path, workers: int, total: int) -> tuple[list[float], int]:
    """Requests/s at each of `CLIENTS` (after one client alone) against ``rulings serve --workers``;
    and how many responses were not 200."""
    with served(kb, "--threads", "8", "--workers", str(workers)) as port:
        print(f"\n== {workers} worker process(es)")
        failures = report(*run(port, 1, total // 8))
        rates = []
        for clients in CLIENTS:
            outcome = run(port, clients, total)
            failures += report(*outcome)
            rates.append(len(outcome[1]) / outcome[2])
    return rates, failures


def _option(arguments: list[str], name: str, default: str) -> str:
    return arguments[arguments.index(name) + 1] if name in arguments else default


def mixed(kb: Path, arguments: list[str]) -> int:
    """``--mixed``: one run of `HEAVY` against ``rulings serve --workers`` (2 unless asked);
    1 when a search waited more than a second or an answer was neither 200 nor 503."""
    clients, seconds = int(_option(arguments, "--clients", "50")), float(_option(arguments, "--seconds", "120"))
    workers = _option(arguments, "--workers", "2")
    with served(kb, "--workers", workers) as port:
        print(f"== {workers} worker process(es), rulings serve's default threads")
        for _, path in HEAVY:  # warm every page once
            run(port, 1, 1, 60, [("warm", path)])
        clients, results, took = run(port, clients, 10**9, seconds, HEAVY)
        worst = mixed_report(clients, results, took)
    return 1 if worst > 1 or any(status not in (200, 503) for _, _, status in results) else 0


def main() -> int:
    arguments = sys.argv[1:]
    given = Path(arguments[arguments.index("--kb") + 1]) if "--kb" in arguments else None
    if "--mixed" in arguments:
        if given is None:
            raise SystemExit("--mixed needs --kb DIR: a knowledge base holding Montgomery Scott and Torni")
        return mixed(given, arguments)
    numbers = [a for a in arguments if a.isdigit()]
    total = int(numbers[0]) if numbers else 4000
    with tempfile.TemporaryDirectory() as work:
        kb = given or Path(work) / "kb"
        if given is None:
            build(DEFAULT_LIBRARY, kb)
        else:
            mix_of(kb)
        table, failures = {}, 0
        for workers in dict.fromkeys([1, cores()]):
            table[workers], failed = serve_and_load(kb, workers, total)
            failures += failed
    print(f"\nrequests/s, {total} requests a run\n{'workers':<8}" + "".join(f"{f'{c} clients':>13}" for c in CLIENTS))
    for workers, rates in table.items():
        print(f"{workers:<8}" + "".join(f"{r:>13.0f}" for r in rates))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
