"""Load test of the web app: 20 concurrent clients on loopback, bounded in count and time.

Run: ``.venv/bin/python bench/load.py [REQUESTS]`` (default 4,000). Builds the bundled
library into a temporary knowledge base, starts ``rulings serve`` (waitress) on a free
127.0.0.1 port in a subprocess, sends a mix of page and JSON requests from 20 threads
(each with its own keep-alive connection), stops after REQUESTS or 120 s, and prints
requests/s with median and p99 latency per kind of request (time to the full response),
first with one client (the latency a single judge sees), then with 20.
"""

from __future__ import annotations

import http.client
import itertools
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.build import DEFAULT_LIBRARY, build  # noqa: E402

CLIENTS = 20
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(port: int) -> None:
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def client(port: int, jobs: itertools.count, total: int, deadline: float, out: list[tuple[str, float, int]]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while time.monotonic() < deadline:
        number = next(jobs)
        if number >= total:
            break
        kind, path = MIX[number % len(MIX)]
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        out.append((kind, (time.perf_counter() - started) * 1000, response.status))
    connection.close()


def run(port: int, clients: int, total: int) -> tuple[int, list[tuple[str, float, int]], float]:
    """Send ``total`` requests from ``clients`` threads; return what came back and how long it took."""
    results: list[tuple[str, float, int]] = []
    jobs = itertools.count()
    deadline = time.monotonic() + LIMIT_SECONDS
    threads = [threading.Thread(target=client, args=(port, jobs, total, deadline, results)) for _ in range(clients)]
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


def main() -> int:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    with tempfile.TemporaryDirectory() as work:
        build(DEFAULT_LIBRARY, Path(work) / "kb")
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "web.cli", "serve", "--kb", str(Path(work) / "kb"), "--port", str(port),
             "--threads", "8"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_until_up(port)
            failures = report(*run(port, 1, total // 8)) + report(*run(port, CLIENTS, total))
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
