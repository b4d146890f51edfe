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
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kb", help="a knowledge base directory")
    parser.add_argument("checkouts", nargs="+", help="the checkouts' folders (each holding rulings, kb and web)")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--query", action="append", help="a query (repeatable)")
    args = parser.parse_args()
    for text in args.query or ["conundrum target", "ship"]:
        taken: dict[str, list[float]] = {checkout: [] for checkout in args.checkouts}
        for run in range(args.runs + 1):
            for checkout in args.checkouts:
                spent = cpu([sys.executable, "-c", PROGRAM, checkout, "search", text, "--kb", args.kb])
                if run:
                    taken[checkout].append(spent)
        medians = "  ".join(f"{checkout}: {statistics.median(times):.3f} s" for checkout, times in taken.items())
        print(f"{text!r}: {medians}")
    bare = statistics.median(cpu([sys.executable, "-c", "pass"]) for _ in range(args.runs))
    print(f"a bare Python: {bare:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
