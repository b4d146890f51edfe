"""Issue 24 item 9: two cards together (`/cards?names=A,B`, its JSON twin, `rulings cards A B`):
every ruling and Glossary entry in force that names both, or names one and is a rule the other's
rulings refer to ("See"), as of a date, best first; through the real app and CLI over the bundled
library and the history fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from web.cli.main import main

MIRROR_WHY = "names both Stop First Contact and Hero of the Empire"


def get(client: FlaskClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_json() if url.split("?")[0].endswith(".json") else response.get_data(as_text=True)


def listed(answer: dict[str, Any]) -> list[tuple[str, int, str, list[str]]]:
    return [(e["headword"], e["rank"], e["why"], [p["label"] for p in e["parts"]]) for e in answer["entries"]]


def test_two_cards_named_together_and_through_see_references(client: FlaskClient) -> None:
    answer = get(client, "/cards.json?names=Stop+First+Contact,Hero+of+the+Empire")
    assert answer["cards"] == [
        {"name": "Stop First Contact", "game": "stccg", "key": "stccg:stop first contact"},
        {"name": "Hero of the Empire", "game": "stccg", "key": "stccg:hero of the empire"},
    ]
    assert listed(answer) == [
        ("mirror universe", 0, MIRROR_WHY, ["Current Rulings"]),
        ("Hero of the Empire", 1,
         "names Hero of the Empire; mirror universe, a ruling naming Stop First Contact, refers to it",
         ["Current Rulings"]),
        ("Stop First Contact", 1,
         "names Stop First Contact; mirror universe, a ruling naming Hero of the Empire, refers to it", ["Glossary"]),
    ]  # fmt: skip
    outposts = get(client, "/cards.json?names=Klingon+Outpost&names=Federation+Outpost")
    assert listed(outposts) == [
        ("outpost", 1, "names Klingon Outpost; [univ] Federation Outpost, a ruling naming Federation Outpost, refers"
         " to it", ["Current Rulings"]),
    ]  # fmt: skip
    page = get(client, "/cards?names=Stop+First+Contact,Hero+of+the+Empire")
    assert "<h1>Stop First Contact and Hero of the Empire</h1>" in page
    assert (
        f'<h2><a href="/entry/stccg:mirror-universe">mirror universe</a></h2>\n<p class="why">{MIRROR_WHY}</p>' in page
    )
    assert page.index("mirror-universe") < page.index('href="/entry/stccg:hero-of-the-empire"')


def test_as_of_a_date(history: FlaskClient) -> None:
    before = get(history, "/cards.json?names=Stop+First+Contact,Hero+of+the+Empire&as_of=2000-12-01")
    assert [(e["headword"], e["rank"]) for e in before["entries"]] == [
        ("mirror universe", 0),
        ("Hero of the Empire", 1),
        ("Stop First Contact", 1),
    ]
    assert before["entries"][2]["parts"][0]["label"] == "Glossary"  # a Glossary entry, through a See
    after = get(history, "/cards.json?names=Stop+First+Contact,Hero+of+the+Empire&as_of=2001-02-01")
    assert after["entries"] == []  # the full Current Rulings of 2001-01-29 omitted the mirror universe ruling


def test_unknown_or_not_two_cards(client: FlaskClient) -> None:
    missing = get(client, "/cards?names=Stop+First+Contakt,Hero+of+the+Empire", 404)
    assert '<p class="error">no card &#39;Stop First Contakt&#39;</p>' in missing
    assert 'Did you mean: <a href="/cards?names=Stop+First+Contact,Hero+of+the+Empire">Stop First Contact</a>?' in (
        missing
    )
    assert "name two cards, not 1" in get(client, "/cards?names=Conundrum", 400)
    assert "are one card" in get(client, "/cards?names=Conundrum,conundrum", 400)
    assert "Name two cards to see every ruling" in get(client, "/cards")
    assert 'action="/cards"' in get(client, "/card/Conundrum")  # the card page asks for a second card


def test_the_command_line(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "Stop First Contact", "Hero of the Empire", "--kb", str(bundled_root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "Stop First Contact and Hero of the Empire: 3 entries in force on " + lines[0].split(" on ")[1],
        f"1. mirror universe  (stccg:mirror-universe): {MIRROR_WHY}",
        "  [Current Rulings, version 1 of 1] active since 2000-11-27; original",
    ]
    assert main(["cards", "Klingon Outpost", "Federation Outpost", "--kb", str(bundled_root), "--json"]) == 0
    assert [e["topic"] for e in json.loads(capsys.readouterr().out)["entries"]] == ["stccg:outpost"]
    assert main(["cards", "Conundrum", "conundrum", "--kb", str(bundled_root)]) == 2
    assert capsys.readouterr().err == (
        "rulings: error: 'Conundrum' and 'conundrum' are one card; name two different cards\n"
    )


FAST_SHIP = "A Fast Ship Would Be Nice"


def test_a_card_and_a_game_term(client: FlaskClient, bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36 item 6: a card pairs with a game term (it answered 404 "no card 'commandeering'")."""
    answer = get(client, "/cards.json?names=A+Fast+Ship+Would+Be+Nice,commandeering")
    assert answer["cards"] == [
        {"name": FAST_SHIP, "game": "stccg", "key": "stccg:a fast ship would be nice"},
        {"name": "commandeering", "game": "stccg", "key": "stccg:commandeering", "term": True},
    ]
    assert listed(answer) == [
        (FAST_SHIP, 0, f"names both {FAST_SHIP} and commandeering", ["Current Rulings"]),
        ("commandeering", 0, f"the entry for commandeering names {FAST_SHIP}", ["Glossary"]),
    ]
    page = get(client, "/cards?names=A+Fast+Ship+Would+Be+Nice,commandeering")
    assert '<a href="/entry/stccg:commandeering">commandeering</a> (game term), best first' in page
    assert main(["cards", FAST_SHIP, "commandeering", "--kb", str(bundled_root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == answer["entries"]
    assert "are game terms, not cards" in get(client, "/cards?names=commandeering,mission+attempt", 400)
    missing = get(client, "/cards?names=A+Fast+Ship+Would+Be+Nice,commandeerring", 404)
    assert "no card &#39;commandeerring&#39;" in missing
