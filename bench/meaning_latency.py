"""The cost of ranking by meaning: each question of the Comprehensive Rules' relevance sets asked
once by words alone and once re-ranked by meaning (`kb.meaning.ranking`), in the searching
thread's CPU time (p50, p99), the first search with the model, and the process's peak memory. Run:

    .venv/bin/python bench/meaning_latency.py --kb KB

on a knowledge base holding Magic's and Lorcana's releases (built with the sentence model).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from relevance import read_set  # noqa: E402

SETS = [ROOT / "bench" / f"relevance-{name}.toml" for name in ("mtg", "lorcana", "mtg-heldout", "lorcana-heldout")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=Path, required=True)
    args = parser.parse_args()
    from kb.paths import current
    from kb.query import KnowledgeBase

    questions = [(str(q["q"]), str(q["game"])) for path in SETS for q in read_set(path)]
    with KnowledgeBase(current(args.kb)) as kb:
        kb.search("the words read once", game=questions[0][1], meaning=False)
        for meaning in (False, True):
            times = []
            for text, game in questions:
                started = time.thread_time()
                kb.search(text, game=game, limit=10, meaning=meaning)
                times.append(time.thread_time() - started)
            first, times = times[0], sorted(times)
            p50, p99 = statistics.median(times), times[int(0.99 * len(times))]
            print(f"{'meaning' if meaning else 'words'}: {len(times)} questions, p50 {p50 * 1000:.1f} ms, "
                  f"p99 {p99 * 1000:.1f} ms, the first {first * 1000:.1f} ms")  # fmt: skip
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
