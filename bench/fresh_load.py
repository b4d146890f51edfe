"""Mixed load in which every request is asked once (issue 48): what ``bench/load.py --mixed``
flatters, since it repeats 14 requests and every answer after the first is the cheap one.

Run: ``.venv/bin/python bench/fresh_load.py --kb KB [--clients 6,20,50] [--seconds 60]
[--workers 2] [--memory 2000,10000] [--alone] [--searches 300]``.

- The requests (`Requests`): every other one a search, drawn from the knowledge base by
  `query_stream.stream` (no text twice in a run, in force or as of a date); the
  rest in turn an entry page, a card page, a one-period diff (between two consecutive dated
  documents, then wider, with ``size=`` 100 or 1000), a deck of 5-400 cards, the knowledge base
  as of a date, two cards together and the feed, each of a topic, card, period or date not
  asked before while there are any.
- ``rulings serve --workers W`` (2) on a free loopback port; for each number of clients, that
  many threads ask for ``--seconds`` each (each client its own keep-alive connection). A client
  refused (503) waits as ``Retry-After`` says, then asks its next request (clients that honour
  ``Retry-After``). Per endpoint: requests, share answered (200), p50/p99 of the answered and of
  all, in ms; and the worst wait of a search.
- Before the first run, the server is asked the same search from 4 clients until each has been
  answered (`ready`, not counted): the time a worker takes to start (gunicorn accepts
  connections before its workers run) is printed apart, not counted as a search's wait.
- ``--alone``: each kind of page's CPU alone, in this process through the real Flask app (this
  thread's CPU seconds, the first request of its kind and the worst of five distinct ones).
- ``--searches N``: the CPU of N distinct searches drawn as the load draws them (in force, over
  every version, as of a date) in a fresh process through the real Flask app, one at a time, after the
  knowledge base opened and one search answered (this thread's CPU seconds, in all and each).
- ``--memory``: a worker's memory (``rulings serve --workers 1``, 8 clients) after each number of
  mixed requests (VmRSS, and its own and mapped parts: `worker_memory.memory`).

Exit 1 when a search waited over 1 s or an answer was neither 200 nor 503.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import itertools
import random
import sqlite3
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from query_stream import Query, stream  # noqa: E402
from served import served  # noqa: E402
from worker_memory import memory  # noqa: E402

from kb.paths import current  # noqa: E402

PAGES = ("entry", "card", "diff", "deck", "as-of", "pair", "feed")
"""The kinds of page asked between two searches, in turn."""


def search_path(query: Query) -> str:
    asked = {"q": query.text}
    if query.day:
        asked["as_of"] = query.day.isoformat()
    return "/index.json?" + urlencode(asked)


class Requests:
    """The requests of a run, each asked once (thread-safe `next`): ``(endpoint, path)``."""

    def __init__(self, kb: Path, searches: int, seed: int = 48) -> None:
        store = current(kb) / "kb.sqlite"
        self.rng = random.Random(seed)
        with sqlite3.connect(store) as db:
            self.topics = [r[0] for r in db.execute("SELECT id FROM topics ORDER BY id")]
            self.cards = [r[0] for r in db.execute("SELECT name FROM cards ORDER BY key")]
            dates = [r[0] for r in db.execute("SELECT DISTINCT date FROM documents WHERE date IS NOT NULL ORDER BY 1")]
        for each in (self.topics, self.cards):
            self.rng.shuffle(each)
        self.periods = list(itertools.pairwise(dates))
        self.periods += [(a, b) for a, b in zip(dates, dates[3:], strict=False)]
        self.rng.shuffle(self.periods)
        first, last = dt.date.fromisoformat(dates[0]), dt.date.fromisoformat(dates[-1])
        self.days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
        self.rng.shuffle(self.days)
        self.searches = iter(stream(store, searches))
        self.lock = threading.Lock()
        self.count = 0

    def next(self) -> tuple[str, str]:
        with self.lock:
            self.count += 1
            if self.count % 2:
                query = next(self.searches, None)
                if query is not None:
                    return "search", search_path(query)
            page = PAGES[(self.count // 2) % len(PAGES)]
            return page, self._page(page, self.count // 2 // len(PAGES))

    def _page(self, page: str, turn: int) -> str:
        """A request for ``page``: the ``turn``-th topic, card, period or date (again from the first
        when all were asked)."""
        if page == "entry":
            return f"/entry/{quote(self.topics[turn % len(self.topics)])}"
        if page == "card" and self.cards:
            return f"/card/{quote(self.cards[turn % len(self.cards)], safe='')}"
        if page == "diff":
            start, end = self.periods[turn % len(self.periods)]
            return f"/diff.json?from={start}&to={end}" + ("&size=1000" if turn % 3 == 0 else "")
        if page == "deck" and self.cards:
            size = (5, 40, 400)[turn % 3]
            deck = "\n".join(self.rng.sample(self.cards, min(size, len(self.cards))))
            return "/deck?" + urlencode({"list": deck, "size": 1000})
        if page == "pair" and len(self.cards) > 1:
            return "/cards?" + urlencode({"names": ",".join(self.rng.sample(self.cards, 2))})
        if page == "feed":
            return "/changes.atom"
        return f"/asof/{self.days[turn % len(self.days)].isoformat()}"


def client(port: int, requests: Requests, deadline: float, out: list[tuple[str, float, int]]) -> None:
    """Ask the next request until ``deadline``, honouring ``Retry-After`` on a 503."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while time.monotonic() < deadline:
        endpoint, path = requests.next()
        started = time.perf_counter()
        retry = 0.0
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            status = response.status
            if status == 503:
                retry = float(response.getheader("Retry-After") or 0)
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            status = 0
        out.append((endpoint, time.perf_counter() - started, status))
        if retry:
            time.sleep(min(retry, max(0.0, deadline - time.monotonic())))
    connection.close()


def load(port: int, requests: Requests, clients: int, seconds: float) -> list[tuple[str, float, int]]:
    results: list[tuple[str, float, int]] = []
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=client, args=(port, requests, deadline, results)) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def ready(port: int, clients: int = 4) -> float:
    """Seconds until each of ``clients`` has had a search answered (the workers started), asked at once."""
    began = time.perf_counter()

    def ask() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("GET", "/index.json?q=rule")
        connection.getresponse().read()
        connection.close()

    threads = [threading.Thread(target=ask) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def report(clients: int, results: list[tuple[str, float, int]], seconds: float) -> float:
    """Print the figures per endpoint of one run; return the worst wait of a search (s)."""
    print(f"\n{clients} clients, {seconds:.0f} s: {len(results)} requests, each asked once")
    print(f"{'endpoint':<9}{'asked':>7}{'answered':>10}{'p50 ms':>9}{'p99 ms':>9}{'p50 all':>9}{'p99 all':>9}")
    for endpoint in ("search", *PAGES):
        mine = [(s * 1000, status) for e, s, status in results if e == endpoint]
        if not mine:
            continue
        answered = [ms for ms, status in mine if status == 200] or [float("nan")]
        every = [ms for ms, _ in mine]
        share = sum(1 for _, status in mine if status == 200) / len(mine)
        print(
            f"{endpoint:<9}{len(mine):>7}{share:>10.1%}{statistics.median(answered):>9.0f}"
            f"{percentile(answered, 0.99):>9.0f}{statistics.median(every):>9.0f}{percentile(every, 0.99):>9.0f}"
        )
    searches = [s for e, s, _ in results if e == "search"]
    worst = max(searches, default=0.0)
    print(f"worst wait of a search: {worst:.2f} s")
    return worst


def alone(kb: Path) -> None:
    """Each kind of page's CPU alone, through the real app in this process: the first of its kind, and
    the worst of five more."""
    from web.app import create_app

    requests = Requests(kb, 20, seed=7)
    client = create_app({"KB": str(kb)}).test_client()
    client.get("/complete.json?q=a")  # the knowledge base opened
    print(f"\n{'page':<9}{'first s':>9}{'worst of 5':>11}  (this thread's CPU seconds, one request at a time)")
    for number, page in enumerate(("search", *PAGES)):
        spent = []
        for turn in range(6):
            path = search_path(next(requests.searches)) if page == "search" else requests._page(page, turn + number)
            began = time.thread_time()
            client.get(path)
            spent.append(time.thread_time() - began)
        print(f"{page:<9}{spent[0]:>9.3f}{max(spent[1:]):>11.3f}")


def searches_alone(kb: Path, count: int) -> tuple[int, float]:
    """``count`` distinct searches drawn as the load draws them, asked one at a time in this process through the real
    app (a fresh one: nothing kept but what opening the knowledge base and one search read): how
    many were answered (200) and this thread's CPU seconds for them all."""
    from web.app import create_app

    paths = [search_path(query) for query in Requests(kb, count).searches]
    client = create_app({"KB": str(kb)}).test_client()
    client.get("/index.json?q=rules")  # the knowledge base opened, its searchers made
    began = time.thread_time()
    answered = sum(client.get(path).status_code == 200 for path in paths)
    return answered, time.thread_time() - began


def worker_memory(kb: Path, marks: list[int]) -> None:
    """A worker's memory after each number of ``marks`` mixed requests from 8 clients."""
    requests = Requests(kb, max(marks))
    with served(kb, "--workers", "1") as port:
        pid = _pid_on(port)
        print(f"\nworker {pid}: {memory(pid)} at the start")
        asked = 0
        for mark in marks:
            results = _count(port, requests, mark - asked)
            asked = mark
            failed = sum(1 for _, _, status in results if status not in (200, 503))
            print(f"after {mark} mixed requests: {memory(pid)}; {failed} neither 200 nor 503")


def _count(port: int, requests: Requests, total: int) -> list[tuple[str, float, int]]:
    """Exactly ``total`` requests from 8 clients."""
    results: list[tuple[str, float, int]] = []
    left = iter(range(total))
    lock = threading.Lock()

    def one() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                if next(left, None) is None:
                    break
            endpoint, path = requests.next()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            results.append((endpoint, 0.0, response.status))
        connection.close()

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _pid_on(port: int) -> int:
    """The process listening on loopback ``port`` (``rulings serve --workers 1``)."""
    inode = next(_listening_inodes(port))
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if any(f"socket:[{inode}]" == str(fd.readlink()) for fd in (proc / "fd").iterdir()):
                    return int(proc.name)
            except OSError:
                continue
    raise SystemExit(f"no process found listening on {port}")


def _listening_inodes(port: int) -> Iterator[str]:
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "0A":  # LISTEN
            yield fields[9]


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--kb", type=Path, required=True)
    options.add_argument("--clients", default="6,20,50")
    options.add_argument("--seconds", type=float, default=60)
    options.add_argument("--workers", default="2")
    options.add_argument("--memory", default="", help="numbers of mixed requests, e.g. 2000,10000")
    options.add_argument("--alone", action="store_true")
    options.add_argument("--searches", type=int, default=0, help="the CPU of this many distinct searches alone")
    arguments = options.parse_args()
    if arguments.alone:
        alone(arguments.kb)
    if arguments.searches:
        answered, spent = searches_alone(arguments.kb, arguments.searches)
        each = spent / max(answered, 1) * 1000
        print(f"{answered} of {arguments.searches} searches answered alone: {spent:.2f} s of CPU, {each:.1f} ms each")
    if arguments.memory:
        worker_memory(arguments.kb, [int(n) for n in arguments.memory.split(",")])
    worst, odd = 0.0, 0
    clients = [int(n) for n in arguments.clients.split(",") if n]
    if clients:
        requests = Requests(arguments.kb, 20_000)
        with served(arguments.kb, "--workers", arguments.workers) as port:
            print(f"== rulings serve --workers {arguments.workers}; answered {ready(port):.2f} s after its port opened")
            for count in clients:
                results = load(port, requests, count, arguments.seconds)
                worst = max(worst, report(count, results, arguments.seconds))
                odd += sum(1 for _, _, status in results if status not in (200, 503))
    return 1 if worst > 1 or odd else 0


if __name__ == "__main__":
    sys.exit(main())
