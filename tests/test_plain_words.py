"""The words of every page true (issue 52 items 5 and 6): counts agree with their nouns, on the
page, in the offline copy's script and on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from web.cli.main import main


def test_one_card_is_one_card_not_one_cards(
    client: FlaskClient, bundled_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = client.get("/deck?list=Conundrum").get_data(as_text=True)
    assert '<p class="count">1 card, 1 distinct known</p>' in page
    deck = tmp_path / "deck.txt"
    deck.write_text("Conundrum\n", encoding="utf-8")
    assert main(["deck", str(deck), "--kb", str(bundled_root)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Deck of 1 card, rulings in force on ")


def test_the_home_page_says_what_this_is(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    assert "<h1>Rules and rulings, as they stand on any date</h1>" in home
    assert (
        '<p class="lede">Search the rules and rulings of neutral-zone, stccg: the text in force today or on any '
        "date, each earlier version, and the document and lines each one comes from.</p>"
    ) in home
    assert '<h1 class="visually-hidden">Search the rulings</h1>' in client.get("/?q=ship").get_data(as_text=True)
