"""What several bench scripts share, kept in one place.

- `QUERIES`: the search benchmark's queries by category (`search_bench.py` times them,
  `answers.py` compares their answers);
- `set_options` and `given_or_built`: the command line of the scripts that score the relevance
  sets (``SET.toml ... [--kb KB]``) and the knowledge base they score (the bundled library
  ``data/`` built into a temporary directory when no ``--kb`` is given: `relevance.py`,
  `offline_parity.py`);
- `LinkQuality`: precision and recall of card linking against hand labels
  (`link_quality.py` on seed 004, `real_links.py` on the real pages);
- `rulings_in_force`, `month_after` and `update_text`: a generated Current Rulings Update that
  restates rulings in force (`add_equality.py`, `scale.py`);
- `VersionRow`, `version_rows` and `percentiles`: the versions a baseline indexes (headword,
  card names, text, days in force) and latency percentiles (`search_bench.py`, `fresh_queries.py`);
- `built_library`: a generated library of one profile and its knowledge base, built or reused
  (`search_bench.py`, `fresh_queries.py`).

Run the scripts as ``.venv/bin/python bench/NAME.py``: the folder ``bench/`` is then first on
``sys.path``, as the tests that import bench scripts put it, so ``from common import ...`` works.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sqlite3
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rulings.normalize import headword_key

ROOT = Path(__file__).resolve().parent.parent

QUERIES = {
    "single word": ["conundrum", "dilemma", "stopped", "ship", "personnel", "mission", "battle", "outpost",
                    "artifact", "seed", "damaged", "affiliation", "spaceline", "equipment", "wormhole"],
    "two words": ["mission attempt", "damaged ship", "seed deck", "away team", "mirror universe", "report duty",
                  "dilemma stopped", "ship battle", "outpost shields", "random selection"],
    "phrase": ['"away team"', '"mission attempt"', '"spaceline location"', '"draw deck"', '"seed phase"'],
    "field": ['card:"Yellow Alert"', "card:Runabout", 'card:"Female\'s Love Interest"', "card:Wormhole",
              'card:"U.S.S. Galaxy"'],
    "fuzzy": ["conondrum", "dilema", "spacelin", "persnnel", "artefact"],
    "question": ["can conundrum target a cloaked ship", "may i abort a mission attempt", "how do i seed the spaceline",
                 "where do commandeered cards go when destroyed", "does a damaged ship lose its shields"],
}  # fmt: skip
"""The search benchmark's realistic queries, by category."""


def set_options(description: str, default_sets: list[Path]) -> argparse.ArgumentParser:
    """The options of a script scoring relevance sets: the set files, and ``--kb``."""
    options = argparse.ArgumentParser(description=description)
    options.add_argument("sets", nargs="*", type=Path, default=default_sets)
    options.add_argument("--kb", type=Path, help="a built knowledge-base directory (default: build data/)")
    return options


def given_or_built(kb: Path | None, work: Path) -> Path:
    """The knowledge base ``kb`` given, or else the bundled library ``data/`` built into ``work/kb``."""
    if kb is not None:
        return kb
    from kb.ingest.pipeline import build

    build(ROOT / "data", work / "kb")
    return work / "kb"


@dataclass
class LinkQuality:
    """Counts and findings of one evaluation of card links against hand labels."""

    true: int = 0
    false: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    negatives_linked: list[str] = field(default_factory=list)
    negatives: int = 0

    @property
    def precision(self) -> float:
        return self.true / (self.true + len(self.false)) if self.true + len(self.false) else 1.0

    @property
    def recall(self) -> float:
        return self.true / (self.true + len(self.missed)) if self.true + len(self.missed) else 1.0

    def counts(self) -> str:
        """The links right, wrong and missed, and the negatives linked."""
        return (f"{self.true} right, {len(self.false)} wrong, {len(self.missed)} missed; "
                f"{len(self.negatives_linked)} of {self.negatives} negatives linked")  # fmt: skip

    def findings(self) -> list[tuple[str, list[str]]]:
        """The wrong links, the missed ones and the negatives linked, each list with its label."""
        return [("wrong", self.false), ("missed", self.missed), ("negative linked", self.negatives_linked)]

    def report(self) -> None:
        """Print precision, recall and the counts on one line, then every finding on a line of its own."""
        print(f"precision {self.precision:.3f}  recall {self.recall:.3f}  ({self.counts()})")
        for label, items in self.findings():
            for item in items:
                print(f"  {label}: {item}")


def rulings_in_force(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(headword, text) of the Current Rulings in force with a text, whose headword has no
    `` - `` (so a restated ruling reads back as the same headword), by version id."""
    rows: list[tuple[str, str]] = db.execute(
        "SELECT headword, text FROM versions WHERE series = 'current-rulings' AND valid_to IS NULL"
        " AND text != '' AND instr(headword, ' - ') = 0 ORDER BY id"
    ).fetchall()
    return rows


def month_after(day: dt.date) -> dt.date:
    """The first day of the month after ``day``'s."""
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def update_text(when: dt.date, restated: Iterable[tuple[str, str]], sentence: str) -> str:
    """A Current Rulings Update dated ``when`` restating each (headword, text) ruling: its
    text's first line with ``sentence`` added, filed by headword as a Current Rulings document
    files them (a stretch of rulings that wrapped from Z back to A was read, rightly, as out of
    order)."""
    ordered = sorted(restated, key=lambda ruling: headword_key(ruling[0]))
    body = "\n\n".join(f"{headword} - {text.split(chr(10))[0]} {sentence}" for headword, text in ordered)
    us = f"{when.month}/{when.day}/{when.year % 100:02d}"
    return f"STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n{us}\n\nRULINGS\n\n{body}\n"


def middle_date(store: Path) -> dt.date:
    """The date halfway between the first and the last dated documents of the SQLite ``store``
    (the "past date" the benchmarks search as of)."""
    with sqlite3.connect(store) as db:
        dates = sorted(d for (d,) in db.execute("SELECT date FROM documents") if d)
    first, last = dt.date.fromisoformat(dates[0]), dt.date.fromisoformat(dates[-1])
    return first + (last - first) / 2


class VersionRow(NamedTuple):
    """One version as the baselines index it: card names joined with `` | ``, days as ordinals
    (no end: `dt.date.max`'s)."""

    id: int
    topic: str
    headword: str
    cards: str
    text: str
    start: int
    end: int


def _day(value: str | None) -> int:
    return dt.date.fromisoformat(value).toordinal() if value else dt.date.max.toordinal()


def version_rows(store: Path) -> list[VersionRow]:
    """Every version of the SQLite ``store``, by id, with the names of the cards it names (in link order)."""
    source = sqlite3.connect(store)
    names: dict[int, list[str]] = {}
    for version, name in source.execute(
        "SELECT l.version_id, c.name FROM card_links l JOIN cards c ON c.key = l.card_key "
        "ORDER BY l.version_id, l.rowid"
    ):
        if name not in names.setdefault(version, []):
            names[version].append(name)
    rows = [
        VersionRow(ident, topic, headword, " | ".join(names.get(ident, [])), text, _day(start), _day(end))
        for ident, topic, headword, text, start, end in source.execute(
            "SELECT id, topic_id, headword, text, valid_from, valid_to FROM versions ORDER BY id"
        )
    ]
    source.close()
    return rows


def percentiles(samples: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile (the sample below which 99% fall) of ``samples``."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def built_library(root: Path, profile: str, share: float, reuse: bool) -> tuple[Path, float]:
    """The build directory of the library of ``profile`` (its first ``share``) generated into
    ``root/library`` and built into ``root/kb`` (reused when ``reuse`` and already built), and
    the build's seconds (NaN when reused)."""
    from generate import generate

    from kb.ingest.pipeline import build
    from kb.paths import current

    if not (root / "library").exists():
        generate(root / "library", profile=profile, share=share)
    if reuse and (root / "kb" / "current").exists():
        return current(root / "kb"), float("nan")
    report = build(root / "library", root / "kb")
    return report.directory, report.seconds
