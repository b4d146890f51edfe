"""Where a search's time goes: a stream's queries of one class and scope under cProfile.

Run: ``.venv/bin/python bench/profile_stream.py ROOT [--kind word] [--scope "in force"]
[--top 28]``, ROOT a folder `bench/fresh_queries.py WORKDIR` made for one profile
(``WORKDIR/stress-1``: its knowledge base ``ROOT/kb`` and the stream it asked,
``ROOT/queries-37.json``). It asks each query of that class and scope once, after one warm-up
search, as the CLI and the web ask (`KnowledgeBase.search`, limit 10), and prints the CPU
seconds and the ``--top`` functions by cumulative time. The profiler about doubles the times;
the shares hold.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.paths import current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--kind", default="word", help="word, pair, phrase, question, field or fuzzy")
    parser.add_argument("--scope", default="in force", help='"in force", "every version" or "as of"')
    parser.add_argument("--top", type=int, default=28)
    arguments = parser.parse_args()
    stream = json.loads((arguments.root / "queries-37.json").read_text(encoding="utf-8"))
    chosen = [q for q in stream if q["kind"] == arguments.kind and q["scope"] == arguments.scope]
    with KnowledgeBase(current(arguments.root / "kb")) as kb:
        kb.search("warm up ship", limit=10)
        profile = cProfile.Profile()
        started = time.process_time()
        profile.enable()
        for query in chosen:
            on = dt.date.fromisoformat(query["day"]) if query["day"] else None
            kb.search(query["text"], as_of=on, every_version=arguments.scope == "every version", limit=10)
        profile.disable()
        seconds = time.process_time() - started
    print(f"{len(chosen)} {arguments.kind} queries, {arguments.scope}: {seconds:.2f} s CPU under the profiler")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(arguments.top)


if __name__ == "__main__":
    main()
