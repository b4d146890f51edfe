"""Issue 52 item 6: a hit's lead (its sentence that matched best, `web.leads.GIST_WORDS` words at
most) is cut at a clause boundary, never inside the title of a card the hit names, with an
ellipsis only where words were left out (it cut "The ship and crew (or Away Team, when
encountered on a planet in the Female's …"). The offline copy cuts the same way
(tests/test_offline_search.py checks these leads in Chromium), and ``rulings search`` prints its
hits' leads cut the same way, to 40 words."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup

from web.cli.main import main
from web.search import lead

LEADS = {
    ("what happens when a ship is stopped", "Conundrum"):
        'When you fail to overcome this dilemma, your ship and crew are "stopped" …',
    ("what happens when a ship is stopped", "Radioactive Garbage Scow"):
        'The ship and crew … are not "stopped," because the dilemma has no conditions.',
    ("what happens when a ship is stopped", '"stopped"'):  # "(e.g., Chula: The Dice)" is one clause, never cut
        '… or crew is "stopped" by failing to overcome a dilemma with conditions …',
    ("what happens when a ship is stopped", "SHIP VS. SHIP"): "An attacker can use multiple ships in a battle …",
    ("love interest", "Radioactive Garbage Scow"):
        "… when encountered on a planet in the Female's Love Interest & Garbage Scow combo dilemma) …",
    ("love interest", "Deck list: Federation Outpost"): "… Alien Labyrinth Anaphasic Organism Female's Love Interest"
        " Hidden Entrance Malfunctioning Door Microvirus EQUIPMENT Engineering Kit …",
    ("Kevin Uxbridge", "Deck list: Klingon Outpost"):
        "… INTERRUPTS Countermanda Disruptor Overload Kevin Uxbridge: Convergence Long-Range Scan Loss of Orbital"
        " Stability …",
    ("Mr. Quark", "persona"):
        "For example, the mirror universe personnel Mr. Quark is the opposite version of both Quark …",
    ("away team", "Battling"): "… Away Team vs. Away Team; ship vs. ship; and ship vs. outpost.",
    ("mission attempt", "mission attempt"):
        "A mission attempt may not be voluntarily aborted, either between dilemmas or before solving.",
}  # fmt: skip
"""(query, headword) -> the lead the hit of that headword shows, searching Star Trek CCG."""


def test_a_lead_is_cut_at_clauses_and_never_inside_a_cards_title(client: object) -> None:
    shown = {}
    for query in sorted({q for q, _ in LEADS}):
        answer = client.get("/index.json", query_string={"q": query, "game": "stccg"}).get_json()  # type: ignore[attr-defined]
        for hit in answer["results"]:
            shown.setdefault((query, hit["headword"]), Markup(lead(hit)["html"]).striptags())
    assert {key: shown.get(key) for key in LEADS} == LEADS


def test_the_command_line_prints_a_hits_sentence_whole_or_cut_at_clauses(
    bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It printed Whoosh's passages, cut anywhere: "or Away Team, when encountered on a planet in the
    Female's *Love* *Interest* & Garbage Scow combo dilemma) are not "stopped," because the dilemma"
    and, for the deck list, "… Engineering Kit Medical Kit Medical" (of "Medical Tricorder")."""
    assert main(["search", "love interest", "--kb", str(bundled_root), "--game", "stccg", "--limit", "3"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if line.startswith("    ") and "Source:" not in line] == [
        "    The ship and crew (or Away Team, when encountered on a planet in the Female's *Love*",
        '    *Interest* & Garbage Scow combo dilemma) are not "stopped," because the dilemma has no',
        "    conditions.",
        "    … Klag Kle'eg (2) Kromm Torin (2) Vekma Dr. Farek Gorta Narik Vekor DILEMMAS Archer",
        "    Ferengi Attack Hunter Gangs Impassable Door Male's *Love* *Interest* The Gatherers",
        "    EQUIPMENT Engineering Kit Medical Kit Medical Tricorder Tricorder EVENTS Atmospheric",
        "    Ionization (2) …",
        "    … Alien Labyrinth Anaphasic Organism Female's *Love* *Interest* Hidden Entrance",
        "    Malfunctioning Door Microvirus EQUIPMENT Engineering Kit Medical Kit Medical Tricorder",
        "    Tricorder EVENTS Atmospheric Ionization Pattern Enhancers Plasma Fire Res-Q Spacedock",
        "    Tetryon Field Yellow Alert INTERRUPTS Countermanda Disruptor Overload Escape Pod …",
    ]
