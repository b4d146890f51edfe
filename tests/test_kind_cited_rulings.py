"""The kind ``cited-rulings`` (`rulings.kinds.cited_rulings`): rulings each ending with a dated citation."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from kindlib import built

from helpers import FIXTURES
from rulings.parse import coverage, parse_file
from rulings.reading import reading
from web.cli.main import main

LIST = FIXTURES / "kinds" / "cited-rulings.txt"


def test_each_ruling_is_dated_by_its_citation_and_keeps_its_ruler() -> None:
    result = parse_file(LIST, "cited-rulings")
    rulings = [(e.headword, e.date, e.fields["ruler"], e.lines) for e in result.entries if e.kind == "ruling"]
    assert rulings == [
        ("Aching Lantern", dt.date(1998, 1, 9), "LSJ", [3, 4]),
        ("Aching Lantern", dt.date(1994, 11, 9), "RTR", [5, 6]),
        ("Aching Lantern", dt.date(2007, 8, 8), "", [7]),
        ("Borrowed Hour", dt.date(2001, 12, 15), "ANK", [9, 10]),
    ]
    assert result.entries[2].text == (
        "The lantern may be burned even when it was played this turn, as long as its owner has not yet drawn."
    )
    assert result.unparsed == [12, 13] and coverage(result).complete
    assert result.warnings == [
        f"{LIST}:13: 19981345 is no date; kept as text",
        f"{LIST}:12: Cold Harbor: no ruling with a dated citation",
    ]
    assert (reading(result).read, reading(result).text) == (7, 10)


def test_the_rulings_of_a_topic_add_up_each_version_dated_and_noted(tmp_path: Path) -> None:
    with built(tmp_path, LIST, "cited-rulings") as kb:
        history = kb.history("Aching Lantern")
    versions = [(v["valid_from"], v["valid_to"], v["note"], v["text"].count("\n\n") + 1) for v in history["versions"]]
    assert versions == [
        ("1994-11-09", "1998-01-09", "ruled by RTR", 1),
        ("1998-01-09", "2007-08-08", "ruled by LSJ", 2),
        ("2007-08-08", None, "", 3),
    ]
    assert history["versions"][-1]["text"].startswith("The lantern may be burned")


def test_it_is_detected_and_a_letter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(LIST)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"rulings: {LIST}: read as cited-rulings (detected)"
    letter = FIXTURES / "kinds" / "letter.txt"
    assert main(["parse", str(letter), "--kind", "cited-rulings"]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {letter}: read as cited-rulings, only 0 of 14 lines look like cited rulings; "
        "is it another kind?\n"
    )
