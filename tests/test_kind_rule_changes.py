"""The kind ``rule-changes`` (`rulings.kinds.rule_changes`): a rule tracker, the supersession history."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from kindlib import built

from helpers import FIXTURES
from rulings.parse import coverage, parse_file
from web.cli.main import main

TRACKER = FIXTURES / "kinds" / "rule-changes.txt"


def test_each_rule_is_a_dated_entry_with_its_type_status_and_links() -> None:
    result = parse_file(TRACKER, "rule-changes")
    rules = [(e.headword, e.date, e.until, e.ended, e.fields["status"]) for e in result.entries if e.kind == "rule"]
    assert rules == [
        ("Seeding Limit rule", dt.date(1994, 11, 10), dt.date(1998, 2, 1), "superseded", "Superseded"),
        ("Seeding Limit rule (II): Thirty-five cards", dt.date(1998, 2, 2), None, "", "Active"),
        ("Bonus Draw rule", dt.date(1996, 5, 5), dt.date(2001, 7, 1), "rescinded", "Rescinded"),
        ("Lantern Ratio rule", dt.date(1994, 11, 10), None, "", "Modified"),
    ]
    notes = {e.headword: e.fields.get("note", "") for e in result.entries if e.kind == "rule"}
    assert notes == {
        "Seeding Limit rule": "superseded by Seeding Limit rule (II): Thirty-five cards (1998 Feb)",
        "Seeding Limit rule (II): Thirty-five cards": "supersedes Seeding Limit rule (First Rulebook)",
        "Bonus Draw rule": "rescinded by Hand Size rule (2001 Jul)",
        "Lantern Ratio rule": "modified by Lantern Ratio rule (II): No lantern win (2016 Mar)",
    }
    assert result.entries[1].fields["type"] == "Original" and result.entries[1].text == (
        "Each player may seed no more than thirty cards."
    )
    assert coverage(result).complete and not result.unparsed and not result.warnings


def test_history_shows_the_rule_ended_and_the_link_both_ways(tmp_path: Path) -> None:
    with built(tmp_path, TRACKER, "rule-changes") as kb:
        old, new = kb.history("Seeding Limit rule"), kb.history("Seeding Limit rule (II): Thirty-five cards")
        rescinded = kb.history("Bonus Draw rule")
    assert [(v["valid_from"], v["valid_to"], v["ended"], v["note"]) for v in old["versions"]] == [
        (
            "1994-11-10",
            "1998-02-01",
            "superseded",
            "superseded by Seeding Limit rule (II): Thirty-five cards (1998 Feb)",
        )
    ]
    assert [(v["valid_from"], v["valid_to"], v["note"]) for v in new["versions"]] == [
        ("1998-02-02", None, "supersedes Seeding Limit rule (First Rulebook)")
    ]
    assert [(v["valid_to"], v["ended"]) for v in rescinded["versions"]] == [("2001-07-01", "rescinded")]


def test_it_is_detected_and_a_letter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(TRACKER)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"rulings: {TRACKER}: read as rule-changes (detected)"
    letter = FIXTURES / "kinds" / "letter.txt"
    assert main(["parse", str(letter), "--kind", "rule-changes"]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {letter}: read as rule-changes, only 0 of 14 lines look like tracked rules; "
        "is it another kind?\n"
    )
