"""Precision and recall of card linking on the labelled rulings of seed 004.

Run: ``.venv/bin/python bench/link_quality.py [--as-plugin] [CATALOG ...]`` (default
``../shared/cards/Physical.csv``; give several files, e.g. Physical.csv and Virtual.csv, to
load them together; a file may be a LackeyCCG plugin set file, ``sets/*.txt``).
``--as-plugin`` first writes each CSV export given in the plugin's tab-separated layout
(`plugin_set_file`) and loads that instead. Builds a knowledge base from the bundled library
with those catalogs in a temporary directory, compares each ruling's linked cards (title and
reference links; headword links excluded) with ``tests/fixtures/links/seed-004.txt``, and
prints precision, recall, the misses and the false links.
"""

from __future__ import annotations

import csv
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import LinkQuality  # noqa: E402

from kb.ingest.catalog import read_name  # noqa: E402
from kb.ingest.pipeline import build  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402

LABELS = ROOT / "tests" / "fixtures" / "links" / "seed-004.txt"
DOCUMENT = "stccg-cr-update-2000-11-27"


def read_labels(path: Path = LABELS) -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """Expected cards per ruling headword, and (headword, title) negatives."""
    expected: dict[str, set[str]] = {}
    negatives: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, _, cards = line.partition(" | ")
        if head.startswith("not: "):
            negatives.append((head[5:], cards.strip()))
        else:
            expected[head.rstrip(" |")] = {c.strip() for c in cards.split(";") if c.strip()}
    return expected, negatives


def evaluate(kb: KnowledgeBase) -> LinkQuality:
    """Compare the knowledge base's links on seed 004's rulings with the labels."""
    expected, negatives = read_labels()
    quality = LinkQuality(negatives=len(negatives))
    linked: dict[str, set[str]] = {}
    names_of = {c["key"]: c["name"] for c in kb.store.cards()}
    for version in kb.store.every_version():
        if version.document_id != DOCUMENT:
            continue
        names = {names_of[k] for k, via in kb.store.card_links(version) if via in ("title", "reference")}
        linked.setdefault(version.headword, set()).update(names)
    for headword, cards in expected.items():
        found = linked.get(headword, set())
        quality.true += len(found & cards)
        quality.false += [f"{headword}: {c}" for c in sorted(found - cards)]
        quality.missed += [f"{headword}: {c}" for c in sorted(cards - found)]
    quality.negatives_linked = [f"{h}: {t}" for h, t in negatives if t in linked.get(h, set())]
    return quality


PLUGIN_COLUMNS = (
    "Name", "Set", "ImageFile", "Release", "Info", "Property", "Uniqueness", "Type", "Mission/ Dilemma Type", "Affil",
    "Class", "Int/Rng", "Cun/Wpn", "Str/Shd", "Points", "Region", "Quadrant", "Span", "Icons", "Staff",
    "Characteristics/ Keywords", "Requires", "Persona", "Command", "Reports", "Names", "Text",
)  # fmt: skip
"""The columns of the LackeyCCG Star Trek plugin's set files: the CSV exports' without ``Lore``."""


def export_rows(export: Path, titles: set[str] | None = None) -> list[dict[str, str]]:
    """The rows of a CSV export (those of a card whose title, `read_name`, is in ``titles``, else all)."""
    with export.open(encoding="utf-8-sig", newline="") as handle:
        return [r for r in csv.DictReader(handle) if titles is None or read_name(r["Name"])[0] in titles]


def plugin_set_file(export: Path, target: Path, titles: set[str] | None = None) -> Path:
    """Write the rows of a CSV export (`export_rows`) at ``target`` as the plugin's set files have
    them: tab-separated, no quoting, one line a card (runs of white space made one space), no byte-order mark."""
    lines = ["\t".join(PLUGIN_COLUMNS)]
    lines += ["\t".join(" ".join(row[c].split()) for c in PLUGIN_COLUMNS) for row in export_rows(export, titles)]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def main() -> int:
    arguments = sys.argv[1:]
    plugin = "--as-plugin" in arguments
    catalogs = [Path(a) for a in arguments if a != "--as-plugin"] or [ROOT.parent / "shared" / "cards" / "Physical.csv"]
    with tempfile.TemporaryDirectory() as kb_dir:
        if plugin:
            (Path(kb_dir) / "sets").mkdir()
            sets = [Path(kb_dir) / "sets" / f"{c.stem}.txt" for c in catalogs]
            catalogs = [plugin_set_file(c, s) if c.suffix == ".csv" else c for c, s in zip(catalogs, sets, strict=True)]
        report = build(ROOT / "data", Path(kb_dir) / "kb", catalogs)
        for imported in report.imports:
            print(imported.line())
        quality = evaluate(KnowledgeBase(report.directory))
    quality.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
