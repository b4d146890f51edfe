"""Benchmark: rulebook parsing time against document size (it should grow linearly).

Run: ``make bench`` or ``.venv/bin/python bench/rulebook_bench.py [MB ...]`` (default 1 2 5).
Generates rulebooks by repeating the sections of ``data/stccg/quick-start-rules.txt`` with
new section numbers (01 to 99, then round again, so numbers repeat with other titles and
the same titles come back under new numbers, as in reposted and concatenated rulebooks),
parses each with the real parser and prints seconds, seconds per MB and the ratio of each
time to the first, beside the ratio of the sizes.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.parse import coverage, parse_file  # noqa: E402

SOURCE = ROOT / "data" / "stccg" / "quick-start-rules.txt"
_SECTION = re.compile(r"(?m)^(?=\d{2}\. )")
_NUMBER = re.compile(r"^\d{2}\. ")


def generate_rulebook(size: int) -> str:
    """A rulebook of at least ``size`` characters: the quick-start sections, renumbered 01-99 in turn."""
    sections = _SECTION.split(SOURCE.read_text(encoding="utf-8"))
    out: list[str] = []
    total = count = 0
    while total < size:
        for section in sections:
            count += 1
            text = _NUMBER.sub(f"{count % 99 + 1:02d}. ", section) + "\n"
            out.append(text)
            total += len(text)
    return "".join(out)


def main(sizes: list[float]) -> None:
    with tempfile.TemporaryDirectory() as work:
        rows = []
        for megabytes in sizes:
            path = Path(work) / f"rulebook-{megabytes:g}mb.txt"
            path.write_text(generate_rulebook(int(megabytes * 1_000_000)), encoding="utf-8")
            started = time.perf_counter()
            result = parse_file(path, "rulebook")
            seconds = time.perf_counter() - started
            rows.append((megabytes, seconds, len(result.entries), coverage(result).percent))
        base_size, base_seconds = rows[0][0], rows[0][1]
        print(f"{'size':>6} {'seconds':>8} {'s/MB':>6} {'time ratio':>10} {'size ratio':>10} {'entries':>8} coverage")
        for megabytes, seconds, entries, percent in rows:
            print(
                f"{megabytes:>4g}MB {seconds:>8.2f} {seconds / megabytes:>6.2f} {seconds / base_seconds:>10.2f} "
                f"{megabytes / base_size:>10.2f} {entries:>8} {percent:.1f}%"
            )


if __name__ == "__main__":
    main([float(arg) for arg in sys.argv[1:]] or [1.0, 2.0, 5.0])
