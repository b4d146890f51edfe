"""Benchmark: a cold `rulings search` of two checkouts (or more), run one beside the other.

Run: ``.venv/bin/python bench/cold_beside.py KB CHECKOUT [CHECKOUT ...] [--runs N] [--query Q ...]``.
For each query (default ``conundrum target`` and ``ship``) it runs, ``N`` times each (default 8)
and interleaved, a fresh Python process that puts a checkout first on its path and runs its
``rulings search QUERY --kb KB`` (`web.cli.program`, as the installed script does, output to
nowhere), and prints the median CPU seconds (user + system, of the child) of each checkout,
and a bare Python's start for scale. The first run of each is untimed. Run one beside the other,
the checkouts share the machine's load: the way to compare two on a busy machine. Set
``PYTHONPYCACHEPREFIX`` (and unset ``PYTHONDONTWRITEBYTECODE``) to time it with the modules'
bytecode cached, as an installed program has it.

``--serve CHECKOUT`` first starts that checkout's ``rulings serve --kb KB --workers 1`` on a free
loopback port (waiting for its ``<kb>/serving.json``), so that the checkouts that know it ask it
(`web.cli.resident`), and prints the server's own CPU meanwhile (from ``/proc/<pid>/stat``,
Linux), which the asking commands' CPU leaves out.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

PROGRAM = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'rulings'; "
    "from web.cli.program import program; program()"
)


def cpu(argv: list[str]) -> float:
    """The CPU seconds (user + system) of a child running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


@contextlib.contextmanager
def served(kb: str, checkout: str | None) -> Iterator[int | None]:
    """``checkout``'s ``rulings serve --kb kb`` running (its pid), or nothing when ``checkout`` is None."""
    if checkout is None:
        yield None
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-c", PROGRAM, checkout, "serve", "--kb", kb, "--workers", "1", "--port", str(port)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if (Path(kb) / "serving.json").exists():
                break
            if server.poll() is not None:
                raise SystemExit(f"the server stopped: status {server.returncode}")
            time.sleep(0.1)
        else:
            raise SystemExit("the server wrote no serving.json in 60 s")
        yield server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def server_cpu(pid: int | None) -> float:
    """The CPU seconds (user + system) process ``pid`` has spent so far (0 for None)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kb", help="a knowledge base directory")
    parser.add_argument("checkouts", nargs="+", help="the checkouts' folders (each holding rulings, kb and web)")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--query", action="append", help="a query (repeatable)")
    parser.add_argument("--serve", metavar="CHECKOUT", help="run this checkout's server on KB meanwhile")
    args = parser.parse_args()
    with served(args.kb, args.serve) as pid:
        began, asked = server_cpu(pid), 0
        for text in args.query or ["conundrum target", "ship"]:
            taken: dict[str, list[float]] = {checkout: [] for checkout in args.checkouts}
            for run in range(args.runs + 1):
                for checkout in args.checkouts:
                    spent = cpu([sys.executable, "-c", PROGRAM, checkout, "search", text, "--kb", args.kb])
                    asked += 1
                    if run:
                        taken[checkout].append(spent)
            medians = "  ".join(f"{checkout}: {statistics.median(times):.3f} s" for checkout, times in taken.items())
            print(f"{text!r}: {medians}")
        if pid is not None:
            spent = server_cpu(pid) - began  # divide by the commands of the checkouts that ask it
            print(f"the server: {spent:.2f} s CPU while {asked} commands ran ({args.runs + 1} a query and checkout)")
    bare = statistics.median(cpu([sys.executable, "-c", "pass"]) for _ in range(args.runs))
    print(f"a bare Python: {bare:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
