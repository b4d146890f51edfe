"""Exact structure parsed from the four bundled seed documents (``data/``)."""

from __future__ import annotations

import datetime as dt
from functools import cache

import pytest

from helpers import SEEDS
from rulings.manifest import load_titles
from rulings.model import Entry, ParseResult
from rulings.parse import coverage, parse_file

SEED_FILES = {
    "stccg/quick-start-rules.txt": "rulebook",
    "stccg/rulebook-deck-and-spaceline.txt": "rulebook",
    "neutral-zone/rulebook.txt": "rulebook",
    "stccg/current-rulings-update-2000-11-27.txt": "current-rulings-update",
}


@cache
def parsed(name: str) -> ParseResult:
    return parse_file(SEEDS / name, SEED_FILES[name], load_titles(SEEDS, "stccg"))


def of_kind(result: ParseResult, kind: str) -> list[Entry]:
    return [e for e in result.entries if e.kind == kind]


def entry(result: ParseResult, headword: str, kind: str | None = None) -> Entry:
    (found,) = [e for e in result.entries if e.headword == headword and kind in (None, e.kind)]
    return found


@pytest.mark.parametrize("name", SEED_FILES)
def test_every_line_accounted_for_exactly_once(name: str) -> None:
    result = coverage(parsed(name))
    assert result.complete, (result.missing, result.twice)
    assert result.percent == 100.0


def test_quick_start_sections_once_each_in_number_order() -> None:
    sections = [(e.number, e.headword) for e in of_kind(parsed("stccg/quick-start-rules.txt"), "section")]
    assert sections == [
        ("02", "Quick-Start Rules"),
        ("03", "Things to Remember"),
        ("04", "What You Need to Know"),
        ("05", "The Eight Types of Cards Used in the Two-Player Game"),
        ("06", "How to Play the Game in Three Easy Steps"),
        ("07", "Playing Cards From Your Hand"),
        ("08", "Battling"),
        ("09", "Attempting Missions"),
        ("10", "Additional Information That May Prove Helpful"),
        ("11", "Rebuilding Your Decks"),
        ("12", "Expand Your Power in the Universe! TM"),
    ]


def test_quick_start_merges_copies_keeping_the_fuller_text() -> None:
    result = parsed("stccg/quick-start-rules.txt")
    assert result.duplicates_merged == 8
    missions = entry(result, "Attempting Missions")
    assert "these simply have their effect and are discarded, but do not stop the Away Team." in missions.text
    assert missions.lines[0] == 48 and {186, 187} <= set(missions.duplicate_lines)
    step2 = entry(result, "STEP 2: CREATE AND SEED THE SPACELINE")
    assert step2.text.count("\n\n") == 3 and step2.text.split("\n\n")[3].startswith("Finally, put your outpost")
    assert entry(result, "Things to Remember").duplicate_lines[:4] == [1, 2, 3, 4]
    assert any("section 09: line 199 lacks the ending '.' of line 61" in w for w in result.warnings)
    assert any("section 06: lines 24-26 appear in one copy only; kept" in w for w in result.warnings)


def test_quick_start_sub_sections() -> None:
    result = parsed("stccg/quick-start-rules.txt")
    battling = [e.headword for e in result.entries if e.parent == "Battling"]
    assert battling == [
        "AWAY TEAM VS. AWAY TEAM",
        "SHIP VS. SHIP",
        "SHIP VS. OUTPOST",
        "REMEMBER, IT'S STAR TREK [R] !",
    ]
    ship = entry(result, "SHIP VS. SHIP")
    assert ship.span.start == 171 and ship.text.startswith("Ship vs. ship battle consists of an attacking shot")
    assert "Destroyed ships - If a damaged ship is damaged again" in ship.text
    types = [e.headword for e in of_kind(result, "item") if e.parent.startswith("The Eight Types")]  # type: ignore[union-attr]
    assert types == ["MISSIONS", "DILEMMAS", "OUTPOSTS", "SHIPS", "PERSONNEL", "EQUIPMENT", "EVENTS", "INTERRUPTS"]


def test_quick_start_deck_lists() -> None:
    federation, klingon = of_kind(parsed("stccg/quick-start-rules.txt"), "card list")
    assert federation.headword == "Deck list: Federation Outpost"
    assert klingon.headword == "Deck list: Klingon Outpost"
    assert sum(c.count for c in federation.cards) == 60 and len(federation.cards) == 53
    assert sum(c.count for c in klingon.cards) == 60 and len(klingon.cards) == 51
    assert all(c.known for c in federation.cards + klingon.cards)
    counts = {c.name: c.count for c in federation.cards}
    assert counts["U.S.S. Galaxy"] == 2 and counts["Runabout"] == 1 and counts["Wormhole"] == 2
    assert counts["Palor Toff - Alien Trader"] == 1 and counts["Kevin Uxbridge: Convergence"] == 1
    assert [(c.group, c.name, c.count) for c in klingon.cards[:4]] == [
        ("OUTPOST", "Klingon Outpost", 1),
        ("SHIPS", "I.K.C. K'Ratak", 1),
        ("SHIPS", "I.K.C. K'Vort", 3),
        ("SHIPS", "I.K.C. Vor'Cha", 2),
    ]


def test_rulebook_excerpt_sections_and_phases() -> None:
    result = parsed("stccg/rulebook-deck-and-spaceline.txt")
    assert [e.headword for e in of_kind(result, "phase")] == [
        "Phase One: Customizing a 60-card deck",
        "Phase Two: Creating and seeding the spaceline",
        "Phase Three: Playing the game",
    ]
    assert [(e.number, e.headword) for e in of_kind(result, "section")] == [
        ("1", "Creating the Spaceline"),
        (None, "Mission Cards"),
        ("2", "Seeding The Spaceline"),
        ("3", "Establishing Outpost(s)"),
    ]
    assert of_kind(result, "preamble")[0].text.startswith("Six Mission cards (each Mission card must be unique); plus")


def test_neutral_zone_turn_steps_variants_and_ship_table() -> None:
    result = parsed("neutral-zone/rulebook.txt")
    steps = ["REASSIGN", "COLLECT", "PURCHASE", "DEPLOY AND MOVE", "ASTEROIDS", "REBUILD"]
    assert [e.headword for e in result.entries if e.parent == "Turn Sequence"] == steps
    assert [e.headword for e in result.entries if e.parent == "Turn Order"] == steps
    numbered = [(e.number, e.headword) for e in of_kind(result, "section") if e.number]
    assert numbered == [
        ("1", "Reassign"),
        ("2", "Collect"),
        ("3", "Purchase Ships"),
        ("4", "Deploy and Move"),
        ("5", "Asteroids"),
        ("6", "Rebuild"),
    ]
    headwords = [e.headword for e in of_kind(result, "section")]
    assert headwords.index("Variants") + 1 == headwords.index("For 3 Players")
    assert "For 4 Players" in headwords
    rows = [
        (e.parent, e.fields.get("Name"), e.fields.get("Cost"), e.fields.get("Ability Name"))
        for e in of_kind(result, "table row")
    ]
    assert rows == [
        ("Federation", "U.S.S. Dauntless", "2", "Shields Up"),
        ("Federation", "U.S.S. Reliant", "2", "Static Charge"),
        ("Federation", "U.S.S. Yosemite", "2", "Course Correction"),
        ("Federation", "Ni'Var", "3", "Calculating"),
        ("Federation", "U.S.S. Defiant", "3", "Tractor Beam"),
        ("Federation", "U.S.S. Excelsior", None, None),
        ("Neutral", "Tholian Ship", "1", "Tholian Web"),
        ("Neutral", "Kreechta", "2", "Eternal Greed"),
        ("Neutral", "Bio-ship Alpha", "4", "Advanced Planning"),
        ("Klingon / Romulan", "IRW Haakona", "3", "Destroyer"),
        ("Klingon / Romulan", "IRW Praetus", "4", "Coordinated Attacks"),
        ("Klingon / Romulan", "IKS QhonDoq", "2", "Attack Vector"),
        ("Klingon / Romulan", "IKS Korinar", "3", "Sharp Blade"),
        ("Klingon / Romulan", "IKS Maht-H'A", "3", "Sharp Eye"),
        ("Klingon / Romulan", "IKS Somraw", "3", None),
    ]
    kreechta = entry(result, "Kreechta")
    assert kreechta.fields["Ability"] == (
        "When collecting with this ship, if it is the only ship on a planet, gain +1 Dilithium Crystal."
    )
    assert kreechta.span.start == 218


def test_update_declares_dates_and_complete_set() -> None:
    document = parsed("stccg/current-rulings-update-2000-11-27.txt").document
    assert document.declared_date == dt.date(2000, 11, 27)
    assert document.previous_date == dt.date(2000, 10, 30)
    assert document.complete_set == [
        "Rulebook Version 1.7 (August 2000)",
        "Glossary Version 1.7 (August 2000)",
        "Current Rulings (11/27/00 - full version)",
    ]


def test_update_chrome_is_kept_apart() -> None:
    result = parsed("stccg/current-rulings-update-2000-11-27.txt")
    assert result.chrome == [1, 2, 184, 186, 187]
    assert result.unparsed == []
    note = of_kind(result, "note")[0]
    assert note.headword == "Poster's note (Major Rakal, 11.28-10:38)"
    assert note.span.start == 3 and note.span.end == 9
    assert note.text.startswith("Since my message has already scrolled pretty far down")


def test_update_rulings() -> None:
    rulings = of_kind(parsed("stccg/current-rulings-update-2000-11-27.txt"), "ruling")
    assert len(rulings) == 50
    assert all(r.marked for r in rulings)
    assert (rulings[0].headword, rulings[0].span.start) == ("A Fast Ship Would Be Nice", 55)
    assert (rulings[-1].headword, str(rulings[-1].span)) == ("tribble", "179-181")
    heads = [r.headword for r in rulings]
    assert "seed phases - mission phase" in heads and "Mission II" in heads and "[univ] Nebula" in heads
    mirror = next(r for r in rulings if r.headword == "mirror universe")
    assert str(mirror.span) == "113-121" and mirror.text.count("\n\n") == 4
    assert mirror.text.endswith("the Alpha Quadrant is the opposite of the Mirror Quadrant, and vice versa.")
    persona = next(r for r in rulings if r.headword == "persona")
    assert persona.text.split("\n\n")[1].startswith("Mirror versions - A personnel who has a bold italic")


def test_update_see_references_are_not_searchable_text() -> None:
    rulings = {r.headword: r for r in of_kind(parsed("stccg/current-rulings-update-2000-11-27.txt"), "ruling")}
    assert (rulings["A Fast Ship Would Be Nice"].text, rulings["A Fast Ship Would Be Nice"].references) == (
        "",
        ["commandeering"],
    )
    assert rulings['"opposite"'].references == ["persona", "mirror universe"]
    assert rulings["Cha'Joh"].references == ["multi-affiliation cards"]
    assert "See multi-affiliation" not in rulings["Cha'Joh"].text
    assert rulings["mirror universe"].references == ["Stop First Contact", "Hero of the Empire"]
    assert rulings["Conundrum"].references == ["actions - required"]
    assert sum(1 for r in rulings.values() if r.references) == 13


def test_update_summaries_tied_to_rulings() -> None:
    result = parsed("stccg/current-rulings-update-2000-11-27.txt")
    summaries = of_kind(result, "change summary")
    assert [(s.headword, s.summary_of) for s in summaries] == [
        (h, h)
        for h in [
            "Admiral Riker",
            '"any"',
            "Cha'Joh",
            "Conundrum",
            "Kira Nerys",
            "Masaka Transformations",
            "mirror universe",
            "mission attempt",
            "Mission II",
            "Stop First Contact",
            '"stopped"',
            "tribble",
        ]
    ]
    conundrum = entry(result, "Conundrum", "ruling")
    assert conundrum.summary == (
        "The affected ship may not be assisted by other ships in its attack. "
        "A ship that is phased or in a Temporal Rift is not a valid target for this dilemma."
    )
    assert not any("matches no ruling" in w for w in result.warnings)
