"""The command line's twins of the documents and version pages: ``rulings docs DOCUMENT
[--lines N-M]`` answers what ``/docs/DOCUMENT?lines=N-M`` shows, and ``rulings version KEY``
what ``/version/KEY`` shows, their ``--json`` equal to the pages' ``.json``; an unknown
document or version, or a bad ``--lines``, is one line that says what to pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from web.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def page_json(client: FlaskClient, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_json()


def test_a_documents_lines_as_its_page_shows_them(
    history: FlaskClient, history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(history_root)
    status, out, err = run(capsys, "docs", "cr-2001-01-29", "--lines", "13-15", "--json", "--kb", kb)
    assert (status, err) == (0, "")
    assert json.loads(out) == page_json(history, "/docs/cr-2001-01-29.json?lines=13-15")
    status, out, _ = run(capsys, "docs", "cr-2001-01-29", "--lines", "13-15", "--kb", kb)
    lines = out.splitlines()
    assert status == 0 and lines[:2] == [
        "Current Rulings (1/29/01), 2001-01-29  [cr-2001-01-29], current-rulings",
        "  lines 13-15 marked >, with 2 lines around them (the whole source without --lines)",
    ]
    source = (history_root.parent / "library" / "stccg" / "current-rulings-2001-01-29.txt").read_text().splitlines()
    width = len(str(len(source)))
    shown = [(row[0], int(row[2 : 2 + width]), row[2 + width + 2 :]) for row in lines[2:]]
    assert shown == [(">" if 13 <= n <= 15 else " ", n, source[n - 1]) for n in range(11, 16)]  # 15 lines
    whole = run(capsys, "docs", "cr-2001-01-29", "--kb", kb)[1].splitlines()
    assert len(whole) == 1 + len(source) and not any(row.startswith(">") for row in whole)


def test_a_version_as_its_permalink_page_shows_it(
    history: FlaskClient, history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(history_root)
    old = "stccg:conundrum@glossary-1-7@glossary"
    status, out, _ = run(capsys, "version", old, "--json", "--kb", kb)
    assert status == 0 and json.loads(out) == page_json(history, f"/version/{old}.json")
    said = run(capsys, "version", old, "--kb", kb)[1].splitlines()
    assert said[0].startswith(f"Conundrum  (stccg:conundrum), the version {old}, on ")
    assert (
        said[-1]
        == "  In force instead: the Glossary version of 2000-12-18, stccg:conundrum@cr-update-2000-12-18@glossary"
    )
    rescinded = "stccg:kira-nerys@cr-update-2000-11-27@current-rulings"
    assert run(capsys, "version", rescinded, "--kb", kb)[1].splitlines()[-1] == (
        "  No Current Rulings text is in force instead."
    )
    on_the_day = run(capsys, "version", old, "--as-of", "2000-09-01", "--kb", kb)[1]
    assert "In force instead" not in on_the_day and "on 2000-09-01" in on_the_day


def test_unknown_names_and_bad_lines_say_what_to_pass(history_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kb = str(history_root)
    assert run(capsys, "docs", "nope", "--kb", kb) == (
        1, "", "rulings: error: no document 'nope' ('rulings docs' lists the documents and their ids)\n"
    )  # fmt: skip
    assert run(capsys, "version", "nope", "--kb", kb) == (
        1, "", "rulings: error: no version 'nope' (a version's key is TOPIC@DOCUMENT@SERIES, as 'rulings history TOPIC "
        "--json' gives it)\n",
    )  # fmt: skip
    assert run(capsys, "docs", "cr-2001-01-29", "--lines", "x", "--kb", kb) == (
        2, "", "rulings: error: lines: expected a line number or a range such as 79-83, got 'x'\n"
    )  # fmt: skip
    assert run(capsys, "docs", "cr-2001-01-29", "--lines", "999999999-1", "--kb", kb) == (
        2, "", "rulings: error: lines: a range ends at or after its first line (such as 79-83), got '999999999-1'\n"
    )  # fmt: skip
    assert run(capsys, "docs", "cr-2001-01-29", "--lines", "16-999", "--kb", kb)[::2] == (
        2, "rulings: error: lines: the document has 15 lines, not 999\n"
    )  # fmt: skip
    assert run(capsys, "docs", "--lines", "3", "--kb", kb) == (
        2, "", "rulings: error: --lines marks lines of one document: name it (rulings docs DOCUMENT --lines 79-83)\n"
    )  # fmt: skip
