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


PAGE = FIXTURES / "kinds" / "rule-tracker-page.txt"
"""The tracker as its page is laid out: no blank line anywhere; a rule starts two lines before its
``Type | Status`` line, its successors run up to the next rule's title."""


def test_the_page_with_no_blank_line_is_read_rule_by_rule() -> None:
    result = parse_file(PAGE, "rule-changes")
    assert [(e.kind, e.headword, e.lines[0], e.lines[-1]) for e in result.entries] == [
        ("introduction", "rule-tracker-page", 1, 2),
        ("rule", "Hand Limit rule", 3, 8),
        ("rule", "Hand Limit rule (II): Eight cards", 9, 12),
        ("rule", "Beacon Ratio rule", 13, 19),
        ("rule", "Beacon Ratio rule (II): Sideboard beacons", 20, 23),
        ("rule", "Drone icons", 24, 27),
        ("rule", "Extra Draw rule", 28, 33),
    ]
    rules = {e.headword: e for e in result.entries if e.kind == "rule"}
    assert rules["Drone icons"].fields == {
        "type": "Major New Faction",
        "status": "Active",
        "source": "Drone Expansion Rules",
    }
    assert rules["Beacon Ratio rule"].text == "A deck may hold one beacon for every twelve cards."
    assert rules["Beacon Ratio rule"].fields["note"] == (
        "modified by Beacon Ratio rule (II): Sideboard beacons (2004 Sep); "
        "modified by Beacon Ratio rule (III): No beacon win (2017 Jan)"
    )
    assert rules["Hand Limit rule (II): Eight cards"].fields["note"] == (
        "supersedes Hand Limit rule (Starter Rulebook); rescinds Extra Draw rule (Starter Rulebook)"
    )
    assert [(e.until, e.ended) for e in (rules["Hand Limit rule"], rules["Extra Draw rule"])] == [
        (dt.date(1999, 4, 1), "superseded"),
        (dt.date(1999, 4, 1), "rescinded"),
    ]
    assert coverage(result).complete and not result.unparsed and not result.warnings


def test_the_page_is_detected_as_the_rule_tracker(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(PAGE)]) == 0
    out, err = capsys.readouterr()
    assert err == f"rulings: {PAGE}: read as rule-changes (detected)\n"
    assert out.splitlines()[-1] == "read as rule-changes (detected): 33 of 33 lines as tracked rules (100.0%)"


def test_the_page_s_successors_show_in_history_both_ways(tmp_path: Path) -> None:
    with built(tmp_path, PAGE, "rule-changes") as kb:
        old, new = kb.history("Hand Limit rule"), kb.history("Hand Limit rule (II): Eight cards")
        modified = kb.history("Beacon Ratio rule (II): Sideboard beacons")
    assert [(v["valid_from"], v["valid_to"], v["ended"], v["note"]) for v in old["versions"]] == [
        ("1995-03-03", "1999-04-01", "superseded", "superseded by Hand Limit rule (II): Eight cards (1999 Apr)")
    ]
    assert [(v["valid_from"], v["valid_to"], v["note"]) for v in new["versions"]] == [
        (
            "1999-04-12",
            None,
            "supersedes Hand Limit rule (Starter Rulebook); rescinds Extra Draw rule (Starter Rulebook)",
        )
    ]
    assert [v["note"] for v in modified["versions"]] == ["modifies Beacon Ratio rule (Starter Rulebook)"]


def test_a_stray_line_between_blocks_of_the_page_is_unparsed(tmp_path: Path) -> None:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    page = tmp_path / "tracker.txt"
    page.write_text("\n".join([*lines[:27], "", "Printed from the tracker", "", *lines[27:]]) + "\n", encoding="utf-8")
    result = parse_file(page, "rule-changes")
    assert [e.headword for e in result.entries if e.kind == "rule"][-2:] == ["Drone icons", "Extra Draw rule"]
    assert result.unparsed == [29]
    assert result.warnings == [f"{page}:29: not a rule (title, text, Type | Status, source)"]


def test_a_text_of_two_lines_on_the_page_stays_with_its_title(tmp_path: Path) -> None:
    page = tmp_path / "tracker.txt"
    text = PAGE.read_text(encoding="utf-8").replace(
        "Beacons in the sideboard count toward the ratio.\n",
        "Beacons in the sideboard count toward the ratio\nwhen the deck is built.\n",
    )
    page.write_text(text, encoding="utf-8")
    result = parse_file(page, "rule-changes")
    rules = {e.headword: e for e in result.entries if e.kind == "rule"}
    assert rules["Beacon Ratio rule (II): Sideboard beacons"].text == (
        "Beacons in the sideboard count toward the ratio\n\nwhen the deck is built."
    )
    assert rules["Beacon Ratio rule"].lines == [13, 14, 15, 16, 17, 18, 19]
    assert not result.warnings and not result.unparsed
