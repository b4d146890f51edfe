"""A small library mixing the layouts the rules were published in, built and queried for real."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from web.cli.main import main

LAYOUTS = FIXTURES / "layouts"


@pytest.fixture(scope="module")
def layouts_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("layouts")
    shutil.copytree(LAYOUTS, work / "library")
    build(work / "library", work / "kb")
    return work / "kb"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_build_reports_split_lines(tmp_path: Path) -> None:
    shutil.copytree(LAYOUTS, tmp_path / "library")
    report = build(tmp_path / "library", tmp_path / "kb")
    lines = {d.id: d.line() for d in report.documents}
    assert lines["cr-update-2000-04-10"] == (
        "cr-update-2000-04-10: 7 entries, 0 chrome lines, 0 unparsed lines, 2 split lines, 0 duplicates merged "
        "(7 non-blank lines, 100.0% accounted for)"
    )
    glued = [w for d in report.documents for w in d.warnings if "glued" in w]
    assert [w.split("/")[-1] for w in glued] == [
        'cr-update-2000-04-10.txt:7: entries glued on one line; "Kle\'eg" split off',
        'cr-update-2000-04-10.txt:11: entries glued on one line; "Kle\'eg" split off',
    ]


def test_glued_ruling_is_its_own_topic(layouts_kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kb = str(layouts_kb)
    assert run(capsys, "show", "--kb", kb, "--as-of", "2000-05-01", "Kle'eg").splitlines()[:6] == [
        "Kle'eg  (stccg:kleeg), in force on 2000-05-01",
        "  [Current Rulings, version 1 of 2] active since 2000-04-10; original",
        "    This personnel may not report aboard a docked ship.",
        "    Publisher's summary: New ruling.",
        "    See: docking",
        "    Source: Current Rulings Update (4/10/00), 2000-04-10, line 11",
    ]
    assert run(capsys, "show", "--kb", kb, "--as-of", "2000-05-01", "docking").splitlines()[1:3] == [
        "  [Glossary, version 2 of 2] active since 2000-04-10; delete-part",
        "    A ship docks at a facility by reporting there.",
    ]
    changes = run(capsys, "diff", "--kb", kb, "2000-04-01", "2000-04-30").splitlines()
    assert [line for line in changes if not line.startswith(" ")][:3] == [
        "Changes from 2000-04-01 to 2000-04-30: 1 changed, 1 added, 0 rescinded, 0 pending",
        "~ docking",
        "+ Kle'eg",
    ]


def active(kb: KnowledgeBase, topic: str, on: str) -> list[tuple[str, str, str, str]]:
    """The parts in force on ``on``: series label, authority, since, text."""
    parts = kb.show(topic, dt.date.fromisoformat(on))["parts"]
    return [(p["label"], p["authority"], p["valid_from"], p["text"]) for p in parts if p["status"] == "active"]


REPORT = [
    "glossary-1-5: 3 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(5 non-blank lines, 100.0% accounted for)",
    "cr-update-2000-04-10: 7 entries, 0 chrome lines, 0 unparsed lines, 2 split lines, 0 duplicates merged "
    "(7 non-blank lines, 100.0% accounted for)",
    "rulings-by-date-2000-07: 4 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(9 non-blank lines, 100.0% accounted for)",
    "faq-2000-08: 3 entries, 4 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(10 non-blank lines, 100.0% accounted for)",
    "glossary-1-6: 5 entries, 7 chrome lines, 4 unparsed lines, 0 duplicates merged "
    "(20 non-blank lines, 100.0% accounted for)",
    "glossary-1-7: 4 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
    "(5 non-blank lines, 100.0% accounted for)",
]


def test_every_layout_accounted_for(tmp_path: Path) -> None:
    shutil.copytree(LAYOUTS, tmp_path / "library")
    report = build(tmp_path / "library", tmp_path / "kb")
    assert [d.line() for d in report.documents] == REPORT
    two_columns = [w.split("/")[-1] for d in report.documents for w in d.warnings if "columns" in w]
    assert two_columns == [
        "glossary-1.6.txt:15: 4 lines of two columns side by side (lines 15-18) cannot be placed; reported as unparsed"
    ]


def test_versions_authorities_and_as_of_answers(layouts_kb: Path) -> None:
    kb = KnowledgeBase(current(layouts_kb))
    glossary_two = ("Glossary", "official", "2000-03-01", "A small ship that may carry two personnel.")
    assert active(kb, "Runabout", "2000-04-01") == [glossary_two]
    # the Current Rulings govern over the Glossary, and come first
    assert active(kb, "Runabout", "2000-05-10") == [
        ("Current Rulings", "official", "2000-05-01", "A Runabout may carry two personnel."), glossary_two
    ]  # fmt: skip
    assert active(kb, "Runabout", "2000-06-25") == [
        ("Current Rulings", "official", "2000-06-20",
         "A Runabout may carry three personnel when docked.\n\n"
         "Example: Three personnel aboard a docked Runabout may stay aboard."),
        glossary_two,
    ]  # fmt: skip
    assert active(kb, "Runabout", "2000-09-15") == [
        ("Current Rulings", "temporary", "2000-09-01", "A Runabout may carry four personnel."), glossary_two
    ]  # fmt: skip
    assert active(kb, "Runabout", "2000-12-15") == [
        ("Glossary", "official", "2000-12-01", "A small ship that may carry four personnel.")
    ]
    assert active(kb, "Kle'eg", "2000-05-20") == [
        ("Current Rulings", "official", "2000-05-15", "This personnel may not report aboard any ship.")
    ]
    assert active(kb, "Does a docked ship keep its shields?", "2000-08-15") == [
        ("FAQ", "informal", "2000-08-01", "No, it loses them.")
    ]
    history = [(v.valid_from, v.valid_to, v.authority, v.end) for v in kb.store.versions_of("stccg:runabout")]
    assert [tuple(str(x) if x else x for x in h) for h in history] == [
        ("2000-03-01", "2000-12-01", "official", "superseded"),
        ("2000-05-01", "2000-06-20", "official", "superseded"),
        ("2000-06-20", "2000-09-01", "official", "consolidated"),
        ("2000-09-01", "2000-12-01", "temporary", "consolidated"),
        ("2000-12-01", None, "official", None),
    ]


def test_diff_and_show_across_layouts(layouts_kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kb = str(layouts_kb)
    assert run(capsys, "diff", "--kb", kb, "2000-04-20", "2000-09-15").splitlines() == [
        "Changes from 2000-04-20 to 2000-09-15: 1 changed, 2 added, 1 rescinded, 0 pending",
        "~ Runabout",
        "    A small ship that may carry two personnel.",
        "",
        "    {+A Runabout may carry four personnel.+}",  # the paragraph it added, marked whole
        "    [Current Rulings, version 3 of 3] since 2000-09-01: Glossary (1.6), 2000-09-01, line 4",
        "+ Does a docked ship keep its shields?",
        "    [FAQ, version 1 of 1] since 2000-08-01: Rules FAQ (August 2000), 2000-08-01, lines 7-9",
        "+ May Kle'eg report aboard a docked Runabout?",
        "    [FAQ, version 1 of 1] since 2000-08-01: Rules FAQ (August 2000), 2000-08-01, lines 5-6",
        "- Kle'eg",
        "    Ended 2000-09-01: consolidated into Glossary 1.6 (Glossary (1.6), lines 14-20)",
    ]
    assert run(capsys, "show", "--kb", kb, "--as-of", "2000-09-15", "Runabout").splitlines()[1:5] == [
        "  [Current Rulings, version 3 of 3] active (temporary) since 2000-09-01; original",
        "    GOVERNS over the Glossary text of 2000-03-01.",
        "    A Runabout may carry four personnel.",
        "    Source: Glossary (1.6), 2000-09-01, line 4",
    ]
    history = run(capsys, "history", "--kb", kb, "Runabout").splitlines()
    assert [line for line in history if line[:2] in ("3.", "4.")] == [
        "3. 2000-06-20 -> 2000-09-01  [Current Rulings, version 2 of 3] replace, rescinded",
        "4. 2000-09-01 -> 2000-12-01  [Current Rulings, version 3 of 3] original, rescinded (temporary)",
    ]
