"""Per file of ../shared/real: the entries found against those counted by hand, and every line
warned as not made an entry.

Run: ``.venv/bin/python bench/real_read.py``. For each file of
``tests/fixtures/real_counts.toml`` (the entries a reader counted before any parser ran), it
parses the file as the kind named there and prints one row: entries found / counted, false
entries, warnings, entry-like lines read into another entry (`rulings.model.NotEntry`),
sub-headings held apart, unparsed lines and how many of those have an entry's shape
(``Headword – text``: a headword of at most 50 characters, a dash between spaces), and lines
accounted for not once (missing, twice). Exit 1 when an entry is missed, a false one found, or a
line lost.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulings.parse import coverage, parse_file  # noqa: E402

REAL = ROOT.parent / "shared" / "real"
COUNTS = ROOT / "tests" / "fixtures" / "real_counts.toml"
APART = frozenset({"introduction", "preamble", "heading", "note", "sub-heading", "legend"})
"""Entry kinds that are no entry of the document's own (as `tests/test_real_counts.py` counts)."""
ENTRY_SHAPE = re.compile(r"^\s*\*?[^\s\u2013\u2014-][^\u2013\u2014]{0,50}?\s[\u2013\u2014-]\s")


def main() -> int:
    if not REAL.is_dir():
        print(f"{REAL} is absent: nothing to read")
        return 0
    counts = tomllib.loads(COUNTS.read_text(encoding="utf-8"))
    print(_row(["file", "found / real", "false", "warned", "not made entries", "sub-headings",
                "unparsed (entry-shaped)", "missing / twice"]))  # fmt: skip
    print(_row(["---"] * 8))
    totals: Counter[str] = Counter()
    for name in sorted(counts):
        spec = counts[name]
        result = parse_file(REAL / name, spec["kind"])
        lines = coverage(result)
        headings = set(spec.get("headings", []))
        found = Counter(
            e.headword
            for e in result.entries
            if e.kind not in APART and not (e.kind == "section" and e.headword in headings)
        )
        wanted = Counter(spec["entries"])
        row = {
            "found": sum((found & wanted).values()),
            "real": sum(wanted.values()),
            "false": sum((found - wanted).values()),
            "warned": len(result.warnings),
            "not entries": lines.not_entries,
            "sub-headings": sum(1 for e in result.entries if e.kind == "sub-heading"),
            "unparsed": lines.unparsed,
            "shaped": sum(1 for n in result.unparsed if ENTRY_SHAPE.match(result.lines[n - 1])),
            "lost": len(lines.missing) + len(lines.twice),
        }
        totals.update(row)
        print(_row([name, *_cells(row), f"{len(lines.missing)} / {len(lines.twice)}"]))
    print(_row(["**total**", *_cells(totals), str(totals["lost"])]))
    return 1 if totals["found"] < totals["real"] or totals["false"] or totals["lost"] else 0


def _cells(row: Mapping[str, int]) -> list[str]:
    return [f"{row['found']} / {row['real']}", str(row["false"]), str(row["warned"]), str(row["not entries"]),
            str(row["sub-headings"]), f"{row['unparsed']} ({row['shaped']})"]  # fmt: skip


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


if __name__ == "__main__":
    sys.exit(main())
