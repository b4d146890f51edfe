"""Benchmark: the costly answers (diff, as-of, Atom feed, deck) and whether they starve a search (issue 22, item 6).

Run: ``.venv/bin/python bench/costly.py KB [--clients 24] [--skip-served]`` where KB is a built
knowledge base (a directory holding ``current``, e.g. /work/kb90k/kb, made by
``bench/generate.py /work/kb90k/library`` and ``rulings build --library /work/kb90k/library
--kb /work/kb90k/kb``).

1. In this process, through the real Flask app (its test client, one request at a time): each
   costly request below, first on a fresh app (what the knowledge base makes on first use
   included), then again; prints wall and this thread's CPU seconds and the size of the
   answer, and the worst of each.
2. With ``rulings serve --kb KB`` (default workers and threads): ``--clients`` threads each send
   ``/diff.json`` 2001→2010 over and over while one thread sends a normal search every 0.2 s;
   prints the normal search's worst and median wait, and how the costly requests were answered
   (200, or 503 when the server was busy with others of their kind). ``--polite``: each costly
   client, refused, waits as ``Retry-After`` asks before asking again (else at once).
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from served import served  # noqa: E402

from kb.paths import current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from web.app import create_app  # noqa: E402

DIFF = "/diff.json?from=2001-01-01&to=2010-01-01"
NORMAL = "/index.json?q=damaged+ship"
RETRY_AFTER = 2.0
"""What the server's 503 asks (`web.gate.RETRY_AFTER`)."""


def deck_text(kb: Path, lines: int = 2500) -> str:
    """``lines`` card lines naming cards of the catalog, each ``1x NAME``, cycling through it."""
    with KnowledgeBase(current(kb)) as base:
        names = sorted(c["name"] for c in base.store.cards())
    return "\n".join(f"1x {names[n % len(names)]}" for n in range(lines))


def costly(deck: str) -> dict[str, str]:
    quoted = urllib.parse.quote(deck)
    return {
        "diff 2001→2010 (JSON)": DIFF,
        "diff 2001→2010 (HTML)": "/diff?from=2001-01-01&to=2010-01-01",
        "as of 2005-01-01 (JSON)": "/asof/2005-01-01.json",
        "as of 2005-01-01 (HTML)": "/asof/2005-01-01",
        "Atom feed": "/changes.atom",
        "deck of 2,500 lines (JSON)": f"/deck.json?list={quoted}",
        "deck of 2,500 lines (HTML)": f"/deck?list={quoted}",
    }


def in_process(kb: Path, deck: str) -> None:
    rows = []
    for label, url in costly(deck).items():
        client = create_app({"KB": str(kb), "TESTING": True}).test_client()  # a fresh app: nothing made yet
        client.get("/entry/stccg:missing.json")  # the knowledge base opened
        timings = []
        for _ in range(2):  # the first request, then again (whatever it made on first use kept)
            started, cpu = time.perf_counter(), time.thread_time()
            response = client.get(url)
            timings += [time.perf_counter() - started, time.thread_time() - cpu]
        rows.append((label, *timings, len(response.data), response.status_code))
    print(f"{'request':<30}{'first: wall s':>14}{'cpu s':>7}{'again: wall s':>14}{'cpu s':>7}{'bytes':>11}  status")
    for label, wall, cpu, again, again_cpu, size, status in rows:
        print(f"{label:<30}{wall:>14.2f}{cpu:>7.2f}{again:>14.2f}{again_cpu:>7.2f}{size:>11,}  {status}")
    print(
        f"worst wall {max(max(r[1], r[3]) for r in rows):.2f} s, worst CPU {max(max(r[2], r[4]) for r in rows):.2f} s"
    )


def get(port: int, url: str, timeout: float = 300) -> tuple[int, float]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", url)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def under_load(kb: Path, clients: int, seconds: float, polite: bool) -> None:
    with served(kb) as port:
        get(port, NORMAL)
        get(port, DIFF)  # each worker's tables made (perhaps only one worker's)
        stop = time.perf_counter() + seconds
        statuses: dict[int, int] = {}
        waits: list[float] = []
        lock = threading.Lock()

        def costly_client() -> None:
            while time.perf_counter() < stop:
                status, _ = get(port, DIFF)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                if polite and status == 503:
                    time.sleep(RETRY_AFTER)

        threads = [threading.Thread(target=costly_client) for _ in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        while time.perf_counter() < stop:
            _, wait = get(port, NORMAL)
            waits.append(wait)
            time.sleep(0.2)
        for thread in threads:
            thread.join()
    how = f"again {RETRY_AFTER} s after a 503 (Retry-After)" if polite else "again at once, whatever the answer"
    print(f"\n{clients} clients sending {DIFF} for {seconds:.0f} s, each {how}; answers: {statuses}")
    worst, median = max(waits), statistics.median(waits)
    print(f"normal search {NORMAL}: {len(waits)} sent, worst wait {worst:.2f} s, median {median:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kb", type=Path)
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--skip-served", action="store_true")
    parser.add_argument("--skip-in-process", action="store_true")
    parser.add_argument("--polite", action="store_true", help="the costly clients wait as Retry-After asks")
    args = parser.parse_args()
    if not args.skip_in_process:
        in_process(args.kb, deck_text(args.kb))
    if not args.skip_served:
        under_load(args.kb, args.clients, args.seconds, args.polite)
    return 0


if __name__ == "__main__":
    sys.exit(main())
