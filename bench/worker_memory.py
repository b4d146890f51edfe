"""A worker's memory under distinct searches (issue 33, item 7).

Run: ``.venv/bin/python bench/worker_memory.py --kb KB [--count 10000] [--threads 8]``.
Starts ``rulings serve --workers 1 --threads THREADS`` (one waitress process: what each gunicorn
worker runs) on the knowledge base ``KB``, and from as many client threads, each with its own
keep-alive connection, asks ``/index.json`` ``--count`` distinct queries drawn from the
knowledge base itself (`query_stream.stream`; those of the scope "as of" with ``as_of=``, the
others in force: the web searches no other scope). It prints the server process's resident
memory (VmRSS; of it its own, RssAnon, and the files it maps, RssFile) once it has answered one
search, then after 500, 2,000, 5,000, 10,000 and 15,000 searches (and the last), with the
seconds taken so far.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from query_stream import Query, stream  # noqa: E402
from served import free_port, wait_until_up  # noqa: E402

from kb.paths import current  # noqa: E402

MARKS = (500, 2000, 5000, 10000, 15000)


def memory(pid: int) -> str:
    """The resident memory of process ``pid`` in MB, read at one moment: all of it (VmRSS), its
    own (RssAnon: what it allocated) and the files it maps (RssFile: the index and the store,
    pages the system shares between processes and may take back)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mb = {f: int(status.split(f"{f}:")[1].split()[0]) / 1024 for f in ("VmRSS", "RssAnon", "RssFile")}
    return f"{mb['VmRSS']:.0f} MB (own {mb['RssAnon']:.0f} MB, mapped files {mb['RssFile']:.0f} MB)"


def path_of(query: Query) -> str:
    asked = {"q": query.text, **({"as_of": query.day.isoformat()} if query.day else {})}
    return "/index.json?" + urlencode(asked)


def ask(port: int, paths: list[str], jobs: itertools.count[int], done: list[int], lock: threading.Lock) -> None:
    """Ask the next path of ``paths`` until none is left, counting answers in ``done[0]``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while (number := next(jobs)) < len(paths):
        try:
            connection.request("GET", paths[number])
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            status = 0
        with lock:
            done[0] += 1
            if status != 200:
                done[1] += 1
    connection.close()


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--kb", type=Path, required=True)
    options.add_argument("--count", type=int, default=10_000)
    options.add_argument("--threads", type=int, default=8)
    arguments = options.parse_args()
    queries = stream(current(arguments.kb) / "kb.sqlite", arguments.count)
    paths = list(dict.fromkeys(path_of(q) for q in queries))
    print(f"{len(paths)} distinct searches on {arguments.kb}, {arguments.threads} threads", flush=True)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "web.cli", "serve", "--kb", str(arguments.kb), "--port", str(port),
         "--workers", "1", "--threads", str(arguments.threads)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_up(port, server)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("GET", "/index.json?q=warm+up")
        connection.getresponse().read()
        connection.close()
        print(f"after 1 search: {memory(server.pid)}", flush=True)
        jobs, done, lock = itertools.count(), [0, 0], threading.Lock()
        clients = [
            threading.Thread(target=ask, args=(port, paths, jobs, done, lock), daemon=True)
            for _ in range(arguments.threads)
        ]
        started = time.monotonic()
        for client in clients:
            client.start()
        marks = [m for m in MARKS if m < len(paths)] + [len(paths)]
        while marks:
            if done[0] >= marks[0]:
                print(f"after {marks.pop(0)} searches: {memory(server.pid)} "
                      f"({time.monotonic() - started:.0f} s, {done[1]} not 200)", flush=True)  # fmt: skip
            else:
                time.sleep(0.2)
        for client in clients:
            client.join()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
