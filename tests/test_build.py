"""Building the knowledge base: report lines, the SQLite store, the atomic switch."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from helpers import SEEDS
from kb import schema
from kb.errors import BuildError
from kb.ingest.pipeline import build, parse_library
from kb.paths import current
from rulings.errors import ManifestError, ParseError
from web.cli.main import main

REPORT = [
    "stccg-quick-start: 40 entries, 0 chrome lines, 0 unparsed lines, 8 duplicates merged "
    "(168 non-blank lines, 100.0% accounted for)",
    "stccg-rulebook-excerpt: 8 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(29 non-blank lines, 100.0% accounted for)",
    "nz-rulebook: 59 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(137 non-blank lines, 100.0% accounted for)",
    "stccg-cr-update-2000-11-27: 66 entries, 5 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(97 non-blank lines, 100.0% accounted for); 1 entry-looking lines not made entries (see warnings)",
]
READ = [
    "  read as rulebook: 168 of 168 lines as rulebook sections (100.0%)",
    "  read as rulebook: 22 of 29 lines as rulebook sections (75.9%)",
    "  read as rulebook: 137 of 137 lines as rulebook sections (100.0%)",
    "  read as current-rulings-update: 92 of 92 lines as Current Rulings topics (100.0%)",
]
"""How much of each was read as its kind expects: the excerpt's 7 lines not read are its preamble,
the text before any heading (the document's, like an introduction)."""
"""The update's line 147 (``Mirror versions - A personnel ...``, an item of the list ``persona`` introduces
with a colon) is read into ``persona`` as before, now warned and counted like a Glossary's."""


def test_build_reports_each_document(tmp_path: Path) -> None:
    report = build(SEEDS, tmp_path / "kb")
    assert [d.line() for d in report.documents] == REPORT
    assert current(tmp_path / "kb") == report.directory


def test_store_holds_what_the_answers_read_and_the_parses_their_entries(tmp_path: Path) -> None:
    directory = build(SEEDS, tmp_path / "kb").directory
    db = schema.open_readonly(directory / schema.DB_NAME)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    assert tables == [
        "card_links",
        "card_titles",
        "cards",
        "documents",
        "name_table",
        "names",
        "see_refs",
        "topic_keys",
        "topics",
        "versions",
    ]
    document = db.execute("SELECT * FROM documents WHERE id = 'stccg-cr-update-2000-11-27'").fetchone()
    assert (document["declared_date"], document["previous_date"]) == ("2000-11-27", "2000-10-30")
    assert json.loads(document["complete_set"])[2] == "Current Rulings (11/27/00 - full version)"
    refs = db.execute("SELECT v.headword, r.key FROM see_refs r JOIN versions v ON v.id = r.version_id ORDER BY v.id")
    assert [tuple(r) for r in refs][:3] == [
        ("A Fast Ship Would Be Nice", "commandeering"), ("Blood Screening", "pooling skills"),
        ("Cha'Joh", "multi affiliation cards"),
    ]  # fmt: skip
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("DELETE FROM versions")
    results = {r.document.id: r for r in parse_library(SEEDS)}  # the entries are the parses' (kept by the build)
    assert {i: len(r.entries) for i, r in results.items()} == {
        "stccg-quick-start": 40,
        "stccg-rulebook-excerpt": 8,
        "nz-rulebook": 59,
        "stccg-cr-update-2000-11-27": 66,
    }
    update = results["stccg-cr-update-2000-11-27"]
    (entry,) = [e for e in update.entries if e.headword == "Conundrum" and e.kind == "ruling"]
    assert (entry.span.start, entry.span.end, entry.marked) == (79, 83, True)
    assert (entry.summary or "").startswith("The affected ship may not be assisted")
    assert sum(c.count for r in results.values() for e in r.entries for c in e.cards) == 120
    assert update.chrome == [1, 2, 184, 186, 187]


def copy_library(tmp_path: Path) -> Path:
    library = tmp_path / "library"
    shutil.copytree(SEEDS, library)
    return library


def test_failed_build_leaves_the_previous_knowledge_base(tmp_path: Path) -> None:
    library = copy_library(tmp_path)
    kb = tmp_path / "kb"
    good = build(library, kb).directory
    (library / "stccg" / "current-rulings-update-2000-11-27.txt").write_bytes(b"\x00binary")
    with pytest.raises(ParseError, match="binary file"):
        build(library, kb)
    (library / "library.toml").write_text("[[document]]\nid = 'x'\n")
    with pytest.raises(ManifestError, match="missing key 'file'"):
        build(library, kb)
    assert current(kb) == good
    assert sorted(p.name for p in (kb / "builds").iterdir()) == [good.name]


def test_cli_build_and_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    update = str(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt")
    assert main(["build", "--library", str(SEEDS), "--kb", str(tmp_path / "kb")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if not line.startswith(("  warning", "built "))] == [
        *(line for pair in zip(REPORT, READ, strict=True) for line in pair),
        "cards: 118 in the catalog (0 rows imported), 134 links",
        "references: 2 to topics not in this knowledge base",
        f"  {update}:79: Conundrum: 'See actions - required' names no entry in this knowledge base",
        f"  {update}:111: Mirror Quadrant icon [MQ]: 'See native quadrant' names no entry in this knowledge base",
    ]
    assert main(["parse", update, "--kind", "current-rulings-update"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "read as current-rulings-update: 92 of 92 lines as Current Rulings topics (100.0%)"
    assert (
        out[-2] == "coverage: 97 non-blank lines: 92 in entries, 0 duplicates merged, 5 chrome, 0 unparsed; "
        "100.0% accounted for; 1 entry-looking lines not made entries (see warnings)"
    )
    assert (
        out[-3] == '  179-181  ruling          tribble - When you "breed" a large tribble card, the tribbles '
        "required to breed "
    )
    assert main(["parse", update, "--kind", "current-rulings-update", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["document"]["declared_date"] == "2000-11-27"
    assert data["coverage"]["missing"] == [] and len(data["entries"]) == 66
    assert data["entries"][-1]["lines"] == [179, 181]


def test_cli_bad_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--library", str(tmp_path), "--kb", str(tmp_path / "kb")]) == 1
    assert (
        capsys.readouterr().err == f"rulings: error: {tmp_path / 'library.toml'}: no manifest "
        "(expected library.toml in the library); pass --library DIR or set RULINGS_LIBRARY to a folder holding "
        "library.toml\n"
    )


def test_a_store_built_before_the_present_layout_asks_for_a_rebuild(
    bundled_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store of an older layout (here: before the authority and ending columns, or before the
    lookup tables) is refused with one line, not read wrongly or with a traceback."""
    import sqlite3

    from kb.query import KnowledgeBase

    older = tmp_path / "kb" / "builds" / "older"
    shutil.copytree(current(bundled_root), older)
    (older / "checksums.json").unlink()  # an older build kept no list of what it wrote (`kb.checksums`)
    (tmp_path / "kb" / "current").symlink_to(Path("builds") / "older")
    with sqlite3.connect(older / "kb.sqlite") as db:
        db.execute("ALTER TABLE versions DROP COLUMN authority")
        db.execute("PRAGMA user_version = 0")
    with pytest.raises(BuildError) as refused:
        KnowledgeBase(older)
    assert str(refused.value) == f"{older}: made by an older version of rulings; run 'rulings build'"
    assert main(["show", "Conundrum", "--kb", str(tmp_path / "kb")]) == 1
    assert (
        capsys.readouterr().err
        == f"rulings: error: {older}: made by an older version of rulings; run 'rulings build'\n"
    )
