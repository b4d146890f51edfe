"""A question naming what no text holds (issue 52 item 3): the answer says which words matched
nothing and which the results match, and results matching only common words are not presented
as an answer; on the search page, in its JSON and on the command line."""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from test_offline_search import needs_chromium, page, site

from web.cli.main import main

__all__ = ["page", "site"]  # the offline copy's fixtures, served in chromium

KIVAS = "does Kivas Fajo's collection work"
WEAK = (
    "Nothing matched the question's distinctive words: no text holds Kivas, Fajo's. The results below"
    " match only the common words collection, work, and are not an answer to it."
)


def test_a_card_the_catalog_lacks_is_said_to_match_nothing_in_json(client: FlaskClient) -> None:
    answer = client.get("/index.json", query_string={"q": KIVAS}).get_json()
    assert [r["headword"] for r in answer["results"]] == ["The Art of Diplomacy", "THE AFFILIATIONS", "THE CARDS"]
    assert (answer["unmatched"], answer["matched"], answer["weak"]) == (
        ["Kivas", "Fajo's"],
        ["collection", "work"],
        True,
    )
    assert answer["unmatched_note"] == WEAK


def test_a_name_word_that_matched_makes_the_results_an_answer(client: FlaskClient) -> None:
    answer = client.get("/index.json", query_string={"q": "does Kivas Fajo's ship work"}).get_json()
    assert (answer["unmatched"], answer["matched"], answer["weak"]) == (["Kivas", "Fajo's"], ["ship", "work"], False)
    assert answer["unmatched_note"] == "No text holds: Kivas, Fajo's — the results below match only: ship, work."


def test_a_question_whose_words_all_match_says_nothing_more(client: FlaskClient) -> None:
    answer = client.get("/index.json", query_string={"q": "can conundrum target a cloaked ship"}).get_json()
    assert (answer["unmatched"], answer["matched"], answer["weak"], answer["unmatched_note"]) == ([], [], False, None)
    assert 'class="unmatched' not in client.get("/", query_string={"q": "conundrum target"}).get_data(as_text=True)


def test_the_search_page_says_the_words_that_matched_nothing(client: FlaskClient) -> None:
    page = html.unescape(client.get("/", query_string={"q": KIVAS}).get_data(as_text=True))
    assert f'<p class="unmatched weak">{WEAK}</p>' in page
    assert '<ol class="results weak" start="1">' in page


def test_the_command_line_says_the_words_that_matched_nothing(
    bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", KIVAS, "--kb", str(bundled_root), "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [WEAK, f'1 result(s) for "{KIVAS}" as of {dt.date.today()}; more with --page 2',
                         "1. The Art of Diplomacy  [Current Rulings] active"]  # fmt: skip


@needs_chromium
def test_the_offline_copy_says_the_words_that_matched_nothing(page: tuple[Any, str], client: FlaskClient) -> None:
    tab, host = page
    tab.goto(host + "index.html")
    tab.fill("#q", KIVAS)
    with tab.expect_navigation():
        tab.press("#q", "Enter")
    tab.wait_for_selector("#results[data-offline] .count")
    assert tab.text_content("#results .unmatched.weak") == WEAK
    assert tab.eval_on_selector("#results ol", "e => e.className") == "results weak"
    tab.goto(host + "index.html?q=" + quote("does Kivas Fajo's ship work"))
    tab.wait_for_selector("#results[data-offline] .count")
    served = client.get("/index.json", query_string={"q": "does Kivas Fajo's ship work"}).get_json()
    assert tab.text_content("#results .unmatched") == served["unmatched_note"]
    tab.goto(host + "index.html?q=conundrum")
    tab.wait_for_selector("#results[data-offline] .count")
    assert tab.query_selector("#results .unmatched") is None
