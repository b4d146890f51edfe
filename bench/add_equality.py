"""Whether a knowledge base made by many incremental adds answers every search as a full build does.

Run: ``.venv/bin/python bench/add_equality.py LIBRARY [--adds 20] [--rulings 25] [--work DIR]``.
Copies LIBRARY, builds it, then adds ``--adds`` Current Rulings Updates one after the other
(each dated the month after the last document, restating ``--rulings`` rulings in force with
one sentence added, a different stretch of rulings each time), then makes a full build of the
library as it ends up, and compares the two knowledge bases over the queries of
``bench/relevance.toml`` and ``bench/relevance-heldout.toml``, each searched in force today, as
of the middle date of the library and over every version (`compare`): the whole answer (results,
order, snippets, citations) and the score of every document of each index that the query
matches. Prints the searches compared and those that differ (must be 0). The searches run
without their CPU-time budget (`kb.engine.budget.SECONDS`): where a search stopped at its
deadline depends on the machine's load, not on the knowledge base (two runs on one knowledge
base differ there too); an answer still partial (its expansions or documents capped) is counted.
``--compare OURS FULL`` compares two knowledge bases already made (their directories).
``--kb KB`` starts from a copy of a knowledge base already built from LIBRARY (the 90k
benchmark's, which takes minutes to build) instead of building it.

For both knowledge bases it also prints what the adds cost the searches (`cost`, issue 48
item 8): each index's segments, the files a process holds open once it has answered every
query in force and over every version, and the CPU seconds those searches took (the second
time they are asked: the first pays for the imports and for reading the index's files).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import month_after, rulings_in_force, update_text  # noqa: E402

from kb.engine import budget  # noqa: E402
from kb.engine.indexes import segment_sizes  # noqa: E402
from kb.engine.steady import steady  # noqa: E402
from kb.ingest.library import add_document  # noqa: E402
from kb.ingest.pipeline import build  # noqa: E402
from kb.paths import CURRENT_DIR, INDEX_DIR, current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.search.plans import built_query  # noqa: E402
from kb.search.questions import read_query  # noqa: E402

SETS = (ROOT / "bench" / "relevance.toml", ROOT / "bench" / "relevance-heldout.toml")


def queries() -> list[str]:
    """The texts of the relevance sets, each once, in order."""
    texts = [q["q"] for path in SETS for q in tomllib.loads(path.read_text(encoding="utf-8"))["query"]]
    return list(dict.fromkeys(texts))


def write_update(kb: Path, out: Path, number: int, count: int) -> dt.date:
    """A Current Rulings Update dated the month after the newest document of the knowledge base
    in service in ``kb``: ``count`` rulings in force restated with one sentence added, the
    ``number``-th stretch of them (so successive updates restate different rulings, and come
    back to earlier ones)."""
    with sqlite3.connect(f"file:{current(kb) / 'kb.sqlite'}?mode=ro", uri=True) as db:
        last = max(dt.date.fromisoformat(d) for (d,) in db.execute("SELECT date FROM documents WHERE date IS NOT NULL"))
        rows = rulings_in_force(db)
    when = month_after(last)
    start = (number * count) % max(1, len(rows))
    chosen = (rows[start:] + rows[:start])[:count]
    out.write_text(update_text(when, chosen, f"Restated in update {number} of {when.isoformat()}."))
    return when


def add_many(
    library: Path, kb: Path, incoming: Path, adds: int, count: int, spent: list[Spent] | None = None, first: int = 1
) -> list[int | None]:
    """Add ``adds`` updates (`write_update`) to ``library`` one after the other, numbered from
    ``first`` on; each add's number of versions indexed anew (None: it was a full build).
    ``spent`` gets what each add cost and left (`Spent`)."""
    incoming.mkdir(exist_ok=True)
    rewritten = []
    for number in range(first, first + adds):
        new = incoming / f"update-{number:03d}.txt"
        when = write_update(kb, new, number, count)
        started, cpu = time.monotonic(), _cpu()
        report = add_document(new, kind="current-rulings-update", date=when, library=library, kb=kb)
        if spent is not None:
            spent.append(Spent(time.monotonic() - started, _cpu() - cpu, _layout(current(kb))))
        rewritten.append(report.rewritten)
    return rewritten


@dataclass
class Spent:
    """One add: its wall and CPU seconds (the processes it forked counted), and the segments of
    each index it left (documents, live documents), the index of every version first."""

    wall: float
    cpu: float
    layout: list[list[tuple[int, int]]]

    def whole(self) -> list[bool]:
        """Whether it wrote each index whole (one segment, nothing deleted)."""
        return [len(segs) == 1 and segs[0][0] == segs[0][1] for segs in self.layout]


def _cpu() -> float:
    own, forked = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + forked.ru_utime + forked.ru_stime


def _layout(directory: Path) -> list[list[tuple[int, int]]]:
    """Each index's segments: (documents, live documents)."""
    return [segment_sizes(directory / name) for name in (INDEX_DIR, CURRENT_DIR)]


def summary(spent: list[Spent]) -> str:
    """What the adds cost: wall and CPU seconds (median, most), how many wrote each index whole."""
    walls, cpus = sorted(s.wall for s in spent), sorted(s.cpu for s in spent)
    whole = [sum(s.whole()[k] for s in spent) for k in (0, 1)]
    return (f"an add {walls[len(walls) // 2]:.1f} s wall (most {walls[-1]:.1f}), {cpus[len(cpus) // 2]:.1f} s CPU "
            f"(most {cpus[-1]:.1f}); indexes written whole by {whole[0]} and {whole[1]} adds; "
            f"segments left by the last: {spent[-1].layout}")  # fmt: skip


def scores(kb: KnowledgeBase, text: str) -> dict[str, list[tuple[object, float]]]:
    """For each index, every document the query of ``text`` matches, by its key (version or
    topic), with its score, best first (equal scores by key)."""
    found: dict[str, list[tuple[object, float]]] = {}
    for name in (CURRENT_DIR, INDEX_DIR):
        searcher = kb.searchers.index_searcher(name)
        query = built_query(searcher, read_query(text), budget.Work())
        hits = [] if query is None else searcher.search(steady(query), limit=None)
        keyed = [(hit.get("version", hit.get("topic")), hit.score) for hit in hits]
        found[name] = sorted(keyed, key=lambda pair: (-pair[1], str(pair[0])))
    return found


def answers(kb: KnowledgeBase, text: str, middle: dt.date) -> list[Any]:
    """The answers to ``text`` in force today, as of ``middle``, and over every version."""
    return [kb.search(text, None, limit=10), kb.search(text, middle, limit=10),
            kb.search(text, every_version=True, limit=10)]  # fmt: skip


def compare(ours: Path, full: Path, texts: list[str]) -> tuple[int, int, list[str]]:
    """The searches and the lists of scored documents compared between the build directories
    ``ours`` and ``full``, and what differs (one line each)."""
    with KnowledgeBase(ours) as mine, KnowledgeBase(full) as theirs:
        dates = _dates(full)
        middle = dt.date.fromisoformat(dates[len(dates) // 2])
        modes = ("in force", f"as of {middle}", "every version")
        differ = []
        searches = lists = partial = 0
        for text in texts:
            got, want = answers(mine, text, middle), answers(theirs, text, middle)
            searches += len(want)
            partial += sum(1 for answer in want if answer["partial"])
            for mode, a, b in zip(modes, got, want, strict=True):
                if a != b:
                    ids = [[r["version"] for r in answer["results"]] for answer in (a, b)]
                    differ.append(
                        f"{text!r} ({mode}): {ids[0]} != {ids[1]}" + (" (snippets...)" if ids[0] == ids[1] else "")
                    )
            ours_scored, full_scored = scores(mine, text), scores(theirs, text)
            lists += len(full_scored)
            for name, listed in full_scored.items():
                if ours_scored[name] != listed:
                    differ.append(f"{text!r}: the scores of {name} differ")
    if partial:
        print(f"({partial} of the searches answered partially, capped alike on both sides)")
    return searches, lists, differ


def cost(directory: Path, texts: list[str]) -> str:
    """Each index's segments, the files this process holds open more once the build directory
    ``directory`` has answered ``texts`` in force and over every version, and their CPU seconds
    (asked a first time unmeasured, by a knowledge base of its own: what a serving process has
    read and kept of an index's files is not counted)."""
    layers = [len(segments) for segments in _layout(directory)]
    for _pass in ("unmeasured", "measured"):
        before = len(os.listdir("/proc/self/fd"))
        with KnowledgeBase(directory) as kb:
            started = time.process_time()
            for text in texts:
                kb.search(text, limit=10)
                kb.search(text, limit=10, every_version=True)
            spent = time.process_time() - started
            files = len(os.listdir("/proc/self/fd")) - before
    searched = f"{2 * len(texts)} searches in {spent:.2f} s of CPU"
    return f"segments {layers[0]} and {layers[1]}, {files} files open, {searched}"


def _dates(directory: Path) -> list[str]:
    with sqlite3.connect(f"file:{directory / 'kb.sqlite'}?mode=ro", uri=True) as db:
        return [d for (d,) in db.execute("SELECT date FROM documents WHERE date IS NOT NULL ORDER BY date")]


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--adds", type=int, default=20)
    parser.add_argument("--rulings", type=int, default=25)
    parser.add_argument(
        "--work", type=Path, default=None, help="where to copy the library (default: a temporary folder)"
    )
    parser.add_argument("--kb", type=Path, default=None, help="copy this build of LIBRARY instead of building it")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("OURS", "FULL"), help="only compare these two KBs")
    args = parser.parse_args(arguments)
    budget.SECONDS = 3600.0  # see the module: no answer may depend on the machine's load
    if args.compare:
        searches, lists, differ = compare(current(args.compare[0]), current(args.compare[1]), queries())
        for line in differ:
            print(f"  {line}")
        print(f"{searches} searches and {lists} lists of scored documents compared, {len(differ)} differ")
        return 1 if differ else 0
    work = args.work or Path(tempfile.mkdtemp(prefix="add-equality-"))
    library = work / "library"
    shutil.copytree(args.library, library)
    if args.kb:
        shutil.copytree(args.kb, work / "kb", symlinks=True)
    else:
        build(library, work / "kb")
    started = time.monotonic()
    spent: list[Spent] = []
    rewritten = add_many(library, work / "kb", work / "incoming", args.adds, args.rulings, spent)
    print(f"{args.adds} adds in {time.monotonic() - started:.0f} s, versions indexed anew by each: {rewritten}")
    print(summary(spent))
    full = build(library, work / "full").directory
    texts = queries()
    print(f"after the adds: {cost(current(work / 'kb'), texts)}")
    print(f"a full build:   {cost(full, texts)}")
    searches, lists, differ = compare(current(work / "kb"), full, texts)
    for line in differ:
        print(f"  {line}")
    print(f"after {args.adds} adds: {searches} searches and {lists} lists of scored documents compared "
          f"with a full build, {len(differ)} differ")  # fmt: skip
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
