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
