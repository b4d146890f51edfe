"""Benchmark: search latency on questions never asked before, beside SQLite FTS5 and tantivy (issue 37).

Run: ``.venv/bin/python bench/fresh_queries.py [WORKDIR] [--profiles stress,realistic] [--share 1]
[--count 1800] [--seed 37] [--reuse] [--memory]`` (``make bench``'s first step). For each profile
of `bench/generate.py` (the ~90,000-version libraries by default), generated and built into
``WORKDIR/PROFILE-SHARE`` (`common.built_library`; ``--reuse`` keeps a knowledge base built
there), it writes the baselines from the same version rows (`baselines`: FTS5 always, tantivy
when the optional ``bench`` extra is installed; the output says when it is not), draws
``--count`` distinct queries from the knowledge base itself (`query_stream`), and asks each
query ONCE in a fresh process, the three systems interleaved query by query (their order
turning), each ranking 10 topics with a headword and a snippet for each: ``rulings`` as the CLI
and the web ask (`KnowledgeBase.search`, limit 10), FTS5 and tantivy as `baselines` sets them
up. Before the stream each system answers one query not in it ("warm up"), so the first query
does not pay for imports alone. It prints, on the CPU clock (``time.process_time``: the
machine may be shared) and on the wall clock, p50 and p99 per scope and query class, the
single words per document-frequency band, and rulings' ratios to each baseline.

``--memory``: also, in another fresh process asking rulings alone, the resident memory after
opening the knowledge base and after 300, 900, 1,800, 5,000 and 10,000 distinct queries (or all).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from baselines import Fts, Tantivy  # noqa: E402
from common import built_library, percentiles, version_rows  # noqa: E402
from query_stream import BANDS, CLASSES, SCOPES, Query, band_name, stream  # noqa: E402

SYSTEMS = ("rulings", "FTS5", "tantivy")
MEMORY_MARKS = (300, 900, 1800, 5000, 10000)
WARM_UP = Query("warm up", "pair", "in force")


def has_tantivy() -> bool:
    return importlib.util.find_spec("tantivy") is not None


def rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def _read(path: Path) -> list[Query]:
    return [
        Query(
            q["text"],
            q["kind"],
            q["scope"],
            dt.date.fromisoformat(q["day"]) if q["day"] else None,
            q["band"],
            q["frequency"],
        )
        for q in json.loads(path.read_text())
    ]


def _rulings(kb: Any) -> Any:
    def ask(query: Query) -> list[tuple[str, str]]:
        found = kb.search(query.text, as_of=query.day, every_version=query.scope == "every version", limit=10)
        return [(hit["headword"], hit.get("snippet", "")) for hit in found["results"]]

    return ask


def ask_all(queries: Path, directory: Path, baselines: Path, out: Path) -> None:
    """The child: ask every query once on each system, interleaved, and write the times."""
    from kb.query import KnowledgeBase

    kb = KnowledgeBase(directory)
    systems = {"rulings": _rulings(kb), "FTS5": Fts(baselines / "fts.sqlite").search}
    if (baselines / "tantivy").exists() and has_tantivy():
        systems["tantivy"] = Tantivy(baselines / "tantivy").search
    for ask in systems.values():
        ask(WARM_UP)
    names = list(systems)
    times: list[dict[str, Any]] = []
    for number, query in enumerate(_read(queries)):
        row: dict[str, Any] = {}
        for name in names[number % len(names) :] + names[: number % len(names)]:
            cpu, wall = time.process_time(), time.perf_counter()
            hits = systems[name](query)
            row[name] = ((time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000, len(hits))
        times.append(row)
    out.write_text(json.dumps(times))


def memory(queries: Path, directory: Path, out: Path) -> None:
    """The child of ``--memory``: rulings alone, resident MB after opening and at each mark."""
    from kb.query import KnowledgeBase

    kb = KnowledgeBase(directory)
    ask = _rulings(kb)
    curve = {"opened": rss_mb()}
    for number, query in enumerate(_read(queries), 1):
        ask(query)
        if number in MEMORY_MARKS:
            curve[str(number)] = rss_mb()
    if str(number) not in curve:
        curve[str(number)] = rss_mb()
    out.write_text(json.dumps(curve))


def child(*arguments: str) -> None:
    subprocess.run([sys.executable, __file__, *arguments], check=True)


def table(queries: list[Query], times: list[dict[str, Any]], present: list[str], clock: int, by: str) -> list[str]:
    """Markdown rows: p50 / p99 of each system per scope and class (``by="class"``) or per band of
    the single words (``by="band"``), and rulings' p50 and p99 ratios to each baseline."""
    groups: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for query, row in zip(queries, times, strict=True):
        if by == "band" and query.kind != "word":
            continue
        key = query.band if by == "band" else query.kind
        for name in present:
            groups[(query.scope, key)][name].append(row[name][clock])
            groups[("all scopes", key)][name].append(row[name][clock])
    keys = [band_name(*b) for b in BANDS] if by == "band" else list(CLASSES)
    head = f"| scope | {'band (versions)' if by == 'band' else 'class'} | n | " + " | ".join(
        f"{n} p50 / p99" for n in present
    )
    ratios = [f"÷ {n} p50 / p99" for n in present[1:]]
    lines = [head + "".join(f" | {r}" for r in ratios) + " |", "|" + " --- |" * (3 + len(present) + len(ratios))]
    for scope in (*SCOPES, "all scopes"):
        for key in keys:
            samples = groups.get((scope, key))
            if not samples:
                continue
            cells = {n: percentiles(samples[n]) for n in present}
            mine = cells["rulings"]
            text = " | ".join(f"{cells[n][0]:.2f} / {cells[n][1]:.1f}" for n in present)
            ratio = "".join(
                f" | {mine[0] / max(cells[n][0], 1e-3):.1f}x / {mine[1] / max(cells[n][1], 1e-3):.1f}x"
                for n in present[1:]
            )
            lines.append(f"| {scope} | {key} | {len(samples['rulings'])} | {text}{ratio} |")
    return lines


def bench_profile(root: Path, profile: str, arguments: argparse.Namespace) -> None:
    directory, seconds = built_library(root, profile, arguments.share, arguments.reuse)
    bench_kb(root, f"{profile} profile, share {arguments.share:g}", directory, seconds, arguments)


def bench_kb(root: Path, name: str, directory: Path, seconds: float, arguments: argparse.Namespace) -> None:
    """The stream of ``arguments`` asked of the knowledge base built in ``directory`` (``name``d
    so in the report) and of both baselines on its version rows, kept under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    store = directory / "kb.sqlite"
    rows = version_rows(store)
    today = dt.date.today()
    baselines = root / "baselines"
    baselines.mkdir(exist_ok=True)
    built = f"rulings build {seconds:.1f} s wall" if seconds == seconds else "rulings build reused (or given)"
    keep = arguments.reuse and (baselines / f"built-{today}").exists()
    if keep:
        built += "; baselines reused"
    else:
        built += f"; FTS5 tables {Fts.write(baselines / 'fts.sqlite', rows, today):.1f} s CPU"
    if has_tantivy() and not keep:
        built += f"; tantivy indexes {Tantivy.write(baselines / 'tantivy', rows, today):.1f} s CPU"
    elif not has_tantivy():
        built += "; tantivy is not installed (pip install -e '.[bench]'): FTS5 alone"
    (baselines / f"built-{today}").touch()
    queries = stream(store, arguments.count, arguments.seed)
    listing = root / f"queries-{arguments.seed}.json"
    listing.write_text(json.dumps([{**dataclasses.asdict(q), "day": q.day and q.day.isoformat()} for q in queries]))
    out = root / f"times-{arguments.seed}.json"
    child("--ask", str(listing), str(directory), str(baselines), str(out))
    times = json.loads(out.read_text())
    present = [n for n in SYSTEMS if n in times[0]]
    kinds = defaultdict(int)
    for q in queries:
        kinds[q.kind] += 1
    print(f"\n== {name}: {len(rows):,} versions; {built}")
    print(
        f"{len(queries)} distinct queries (seed {arguments.seed}): " + ", ".join(f"{n} {k}" for k, n in kinds.items())
    )
    empty = {n: sum(1 for row in times if row[n][2] == 0) for n in present}
    print("queries answered with no topic: " + ", ".join(f"{n} {k}" for n, k in empty.items()))
    for clock, label in ((0, "CPU ms (process_time)"), (1, "wall ms (contended)")):
        print(f"\n{label}, by scope and class:\n" + "\n".join(table(queries, times, present, clock, "class")))
        print(f"\n{label}, single words by band:\n" + "\n".join(table(queries, times, present, clock, "band")))
    if arguments.memory:
        curve_out = root / f"memory-{arguments.seed}.json"
        child("--memory-of", str(listing), str(directory), str(curve_out))
        curve = json.loads(curve_out.read_text())
        print("\nrulings resident memory (MB): " + ", ".join(f"{k}: {v:.0f}" for k, v in curve.items()))


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("workdir", nargs="?", type=Path, help="keep the libraries, knowledge bases and baselines here")
    options.add_argument("--profiles", default="stress,realistic")
    options.add_argument("--share", type=float, default=1.0, help="the first share of each library (1: ~90k versions)")
    options.add_argument("--count", type=int, default=1800, help="distinct queries a run (default 1800)")
    options.add_argument("--seed", type=int, default=37)
    options.add_argument("--reuse", action="store_true", help="reuse the knowledge bases built in WORKDIR")
    options.add_argument("--memory", action="store_true", help="also measure rulings' memory curve")
    options.add_argument(
        "--kb",
        type=Path,
        help="a knowledge base already built (e.g. the Comprehensive Rules'), not the profiles",
    )
    options.add_argument("--ask", nargs=4, type=Path, help=argparse.SUPPRESS)
    options.add_argument("--memory-of", nargs=3, type=Path, help=argparse.SUPPRESS)
    arguments = options.parse_args()
    if arguments.ask:
        ask_all(*arguments.ask)
        return 0
    if arguments.memory_of:
        memory(*arguments.memory_of)
        return 0
    if not has_tantivy():
        print("tantivy is not installed (the optional `bench` extra): FTS5 is the only baseline")
    with tempfile.TemporaryDirectory() as work:
        base = arguments.workdir or Path(work)
        if arguments.kb:
            from kb.paths import current

            bench_kb(
                base / f"kb-{arguments.kb.name}", str(arguments.kb), current(arguments.kb), float("nan"), arguments
            )
            return 0
        for profile in arguments.profiles.split(","):
            bench_profile(base / f"{profile}-{arguments.share:g}", profile, arguments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
