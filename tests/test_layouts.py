"""A small library mixing the layouts the rules were published in, built and queried for real."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES
from kb.build import build
from web.cli import main

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
    assert run(capsys, "show", "--kb", kb, "--as-of", "2000-05-01", "Kle'eg").splitlines() == [
        "Kle'eg  (stccg:kleeg), in force on 2000-05-01",
        "  [Current Rulings] active since 2000-04-10; original",
        "    This personnel may not report aboard a docked ship.",
        "    See: docking",
        "    Source: Current Rulings Update (4/10/00), 2000-04-10, lines 11",
    ]
    assert run(capsys, "show", "--kb", kb, "--as-of", "2000-05-01", "docking").splitlines()[1:3] == [
        "  [Glossary] active since 2000-04-10; delete-part",
        "    A ship docks at a facility by reporting there.",
    ]
    assert run(capsys, "diff", "--kb", kb, "2000-04-01", "2000-05-01").splitlines()[:3] == [
        "Changes from 2000-04-01 to 2000-05-01: 1 added, 1 changed, 0 rescinded, 0 pending",
        "+ Kle'eg",
        "~ docking",
    ]
