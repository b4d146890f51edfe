"""A new Glossary consolidates the rulings before it; a rulebook that supersedes another
rescinds the sections it no longer has."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from helpers import FIXTURES
from kb.ingest.pipeline import build
from kb.query import KnowledgeBase

GLOSSARY_1_8 = """GLOSSARY
Version 1.8 (March 2001)

commandeering - To commandeer a ship, your Away Team must be aboard it.

docking - A ship docks at a facility by reporting there.

mission attempt - If all matching personnel are removed, the attempt ends at once.
"""
RULEBOOK_1 = "1. Setup\nShuffle your deck.\n\n2. Playing\nTake turns.\n"
RULEBOOK_2 = "1. Setup\nShuffle your deck twice.\n\n3. Winning\nScore 100 points.\n"


def library(tmp_path: Path) -> Path:
    root = tmp_path / "library"
    (root / "stccg").mkdir(parents=True)
    for name in ("glossary-1.7.txt", "current-rulings-2000-10-30.txt"):
        shutil.copy(FIXTURES / "library" / "stccg" / name, root / "stccg" / name)
    (root / "stccg" / "glossary-1.8.txt").write_text(GLOSSARY_1_8)
    (root / "stccg" / "rules-1.txt").write_text(RULEBOOK_1)
    (root / "stccg" / "rules-2.txt").write_text(RULEBOOK_2)
    tables = [
        ("g17", "glossary-1.7.txt", "glossary", "2000-08-01", ""),
        ("cr", "current-rulings-2000-10-30.txt", "current-rulings", "2000-10-30", ""),
        ("g18", "glossary-1.8.txt", "glossary", "2001-03-01", 'supersedes = "g17"\n'),
        ("r1", "rules-1.txt", "rulebook", "2000-01-01", ""),
        ("r2", "rules-2.txt", "rulebook", "2001-01-01", 'supersedes = "r1"\n'),
    ]
    (root / "library.toml").write_text("\n".join(
        f'[[document]]\nid = "{i}"\nfile = "stccg/{f}"\ngame = "stccg"\nkind = "{k}"\ntitle = "{i}"\n'
        f'version = "{i}"\ndate = "{d}"\n{extra}' for i, f, k, d, extra in tables
    ))  # fmt: skip
    return root


def test_new_glossary_consolidates_rulings_and_drops_entries(tmp_path: Path) -> None:
    kb = KnowledgeBase(build(library(tmp_path), tmp_path / "kb").directory)
    before = kb.show("mission attempt", dt.date(2001, 2, 28))["parts"]
    assert [(p["series"], p["text"]) for p in before] == [
        ("current-rulings", "If all matching personnel are removed, the mission attempt ends.")
    ]
    after = kb.show("mission attempt", dt.date(2001, 3, 1))["parts"]
    assert [(p["series"], p["text"]) for p in after] == [
        ("glossary", "If all matching personnel are removed, the attempt ends at once.")
    ]
    assert kb.history("mission attempt")["versions"][0]["ended"] == "consolidated"
    assert kb.show("Q-Flash", dt.date(2001, 3, 1))["parts"] == []
    assert kb.history("Q-Flash")["versions"][-1]["ended"] == "rescinded"
    docking = kb.history("docking")["versions"]
    assert [(v["series"], v["valid_from"], v["valid_to"]) for v in docking] == [
        ("glossary", "2000-08-01", None),
        ("current-rulings", "2000-10-30", "2001-03-01"),
    ]
    diff = kb.diff(dt.date(2001, 2, 1), dt.date(2001, 3, 1), kinds=["current-rulings"])
    assert [i["headword"] for i in diff["rescinded"]] == ["docking", "mission attempt", "Regent Worf", "tribble"]


def test_superseding_rulebook_rescinds_missing_sections(tmp_path: Path) -> None:
    kb = KnowledgeBase(build(library(tmp_path), tmp_path / "kb").directory)
    assert kb.show("Setup", dt.date(2001, 1, 1))["text"] == "Shuffle your deck twice."
    assert kb.show("Playing", dt.date(2000, 6, 1))["text"] == "Take turns."
    assert kb.show("Playing", dt.date(2001, 1, 1))["parts"] == []
    assert kb.history("Setup")["versions"][1]["operation"] == "replace"
    assert {v["series"] for v in kb.history("Setup")["versions"]} == {"rulebook:r1"}
