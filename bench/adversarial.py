"""Benchmark: the worst latency of hostile searches and decks (the query budget, kb/engine/budget.py).

Run: ``make bench`` (or ``.venv/bin/python bench/adversarial.py [KB_OR_WORKDIR]``). Given a
built knowledge base (a directory holding ``current``, e.g. /work/bench90k/kb, opened
read-only) it uses it; given a work directory (or nothing: a temporary one) it generates
the scaled library of `bench/generate.py` there and builds it, as `bench/search_bench.py`
does. Each hostile query under the 500-character cap is run in three scopes (in force
today, as of 2005-06-01, every version) after one untimed warm-up of that scope, then a
search on a date whose filter is not yet cached and a deck of 2,500 unknown names; it
prints each latency, whether the answer was partial or left words out, and the worst.
"""

from __future__ import annotations

import datetime as dt
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generate import generate  # noqa: E402

from kb.ingest.pipeline import build  # noqa: E402
from kb.paths import current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402
from kb.search.in_force import MAX_QUERY  # noqa: E402

AS_OF = dt.date(2005, 6, 1)
UNCACHED = dt.date(2004, 3, 3)
TARGET = 1.0


def hostile(kb: KnowledgeBase) -> dict[str, str]:
    """Hostile queries: patterns repeated to the 500-character cap, and ``t*`` alone."""
    searcher, _ = kb.searchers.searcher(None)
    common = sorted(searcher.reader().most_frequent_terms("text", 120), reverse=True)
    letters = string.ascii_lowercase
    patterns = {
        "stop words repeated": "the a of and to in is it ",
        "one-letter prefixes": " ".join(f"{c}*" for c in letters) + " ",
        "two-letter prefixes": " ".join(f"{a}{b}*" for a in "stcpdm" for b in "aehiou") + " ",
        "ship x100": "ship ",
        "distinct frequent words": " ".join(t.decode() for _, t in common) + " ",
        "fuzzy typos": "conondrum dilema spacelin persnnel artefact wormhoel outpst batle seeed afiliation ",
        "punctuation soup": "a.b,c;d:e/f|g(h)i[j]k{l}m<n>o!p?q~r^s&t=u+v#w$x%y@z ",
        "long word": "x",
        "exclusions": " ".join(f"-{c}{c}*" for c in letters) + " ship ",
    }
    queries = {name: (text * (MAX_QUERY // len(text) + 1))[:MAX_QUERY].strip() for name, text in patterns.items()}
    return {"t*": "t*", **queries}


def timed(action: Any) -> tuple[float, float, Any]:
    """Wall seconds, this thread's CPU seconds (what the server's other requests do not
    change), and the answer."""
    started, cpu = time.perf_counter(), time.thread_time()
    answer = action()
    return time.perf_counter() - started, time.thread_time() - cpu, answer


def open_kb(argument: str | None, work: Path) -> KnowledgeBase:
    if argument and (Path(argument) / "current").exists():
        return KnowledgeBase(current(Path(argument)))
    root = Path(argument) if argument else work
    if not (root / "library").exists():
        generate(root / "library")
    return KnowledgeBase(build(root / "library", root / "kb").directory)


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        kb = open_kb(sys.argv[1] if len(sys.argv) > 1 else None, Path(work))
        print(f"knowledge base: {len(kb.store.every_version()):,} versions, {len(kb.store.cards()):,} cards")
        scopes: list[tuple[str, dict[str, Any]]] = [
            ("in force", {}),
            ("as of 2005-06-01", {"as_of": AS_OF}),
            ("every version", {"every_version": True}),
        ]
        rows: list[tuple[str, float, float, str]] = []
        for scope, options in scopes:
            kb.search("warm up", **options)
            for name, text in hostile(kb).items():
                seconds, cpu, answer = timed(lambda t=text, o=options: kb.search(t, **o))
                note = "partial" if answer["partial"] else ""
                if answer["left_out"]:
                    note += f" {len(answer['left_out'])} left out"
                rows.append((f"{scope}: {name}", seconds, cpu, note.strip()))
        seconds, cpu, answer = timed(lambda: kb.search("ship", as_of=UNCACHED))
        rows.append((f"ship as of {UNCACHED} (date filter not cached)", seconds, cpu, ""))
        names = "\n".join(f"Nonexistent Card Number {n}" for n in range(2500))
        seconds, cpu, answer = timed(lambda: kb.deck(names))
        rows.append(("deck of 2,500 unknown names", seconds, cpu, f"{answer['skipped']} lines skipped"))
        print(f"\n{'hostile request':<48}{'seconds':>9}{'cpu s':>8}  answer")
        for label, seconds, cpu, note in rows:
            print(f"{label:<48}{seconds:>9.2f}{cpu:>8.2f}  {note}")
        for column, name in ((1, "wall"), (2, "cpu")):
            worst = max(rows, key=lambda r: r[column])
            verdict = "within" if worst[column] < TARGET else "OVER"
            print(f"worst {name}: {worst[0]} {worst[column]:.2f} s ({verdict} the {TARGET:.0f} s target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
