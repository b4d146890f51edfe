"""No dead ends (issue 52 item 4): a card or entry nobody has is a 404 with a way on (the cards
named like it, the game that has it, a search of the rulings for the name), on the page, in its
JSON and on the command line; a not-found line is the README's one-line ``rulings: error: ...``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from helpers import ROOT
from web.cli.main import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


def test_a_card_nobody_has_is_a_page_with_a_search_for_its_name(client: FlaskClient) -> None:
    page = client.get("/card/Kivas%20Fajo")
    assert page.status_code == 404
    assert '<a href="/?q=Kivas+Fajo">Search the rulings for “Kivas Fajo”</a>' in page.get_data(as_text=True)
    twin = client.get("/card/Kivas%20Fajo.json").get_json()
    assert twin == {"status": 404, "error": "no card 'Kivas Fajo'", "suggestions": [],
                    "search": {"name": "Kivas Fajo", "url": "/?q=Kivas+Fajo"}}  # fmt: skip


def test_two_cards_one_unknown_is_a_page_with_a_search_for_that_name(client: FlaskClient) -> None:
    page = client.get("/cards?names=Conundrum,cloaking")
    assert page.status_code == 404
    assert '<a href="/?q=cloaking">Search the rulings for “cloaking”</a>' in page.get_data(as_text=True)


def test_a_part_of_a_card_name_suggests_the_cards_holding_it(
    bundled_root: Path, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "card", "kira", "--kb", str(bundled_root)) == (
        1, "rulings: error: no card 'kira'; did you mean: Kira Nerys?\n")  # fmt: skip
    assert '<a href="/card/Kira%20Nerys">Kira Nerys</a>' in client.get("/card/kira").get_data(as_text=True)
    assert _run(capsys, "card", "Kivas Fajo", "--kb", str(bundled_root)) == (1, (
        "rulings: error: no card 'Kivas Fajo'; no card is named like it: rulings search \"Kivas Fajo\" searches "
        "the rulings for the name\n"))  # fmt: skip


def test_a_name_of_another_game_says_which_game_has_it(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It suggested "did you mean: Conundrum", the very name it rejected."""
    assert _run(capsys, "history", "Conundrum", "--game", "neutral-zone", "--kb", str(bundled_root)) == (
        1, "rulings: error: no entry 'Conundrum' in this game; it is an entry of stccg (--game stccg)\n")  # fmt: skip


def test_the_program_says_its_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert (done.value.code, capsys.readouterr().out) == (0, f"rulings {version}\n")
