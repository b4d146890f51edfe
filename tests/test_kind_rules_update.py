"""The kind ``rules-update``: a monthly Rules Update article, each ruling dated by the article."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from kindlib import built

from helpers import FIXTURES, SHARED
from rulings.parse import coverage, parse_file
from web.cli.main import main

ARTICLE = FIXTURES / "kinds" / "rules-update.txt"
REAL = SHARED / "real"
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/real (excerpts of real published pages) is absent (only beside the project)"
)


CARDS = frozenset({"Beacon Relay", "Scout Ship"})
"""The card titles of the catalog in use the article's errata are headed by."""


def test_each_ruling_is_dated_by_the_article_and_temporary_ones_say_so() -> None:
    result = parse_file(ARTICLE, "rules-update", CARDS)
    assert [(e.kind, e.headword, e.lines) for e in result.entries] == [
        ("introduction", "rules-update", [4, 6, 8, 11, 13]),
        ("section", "Temporary Rulings", [15, 17]),
        ("ruling", "Rules Update, May 2031, ruling 1", [20]),
        ("ruling", "Rules Update, May 2031, ruling 2", [23]),
        ("ruling", "Rules Update, May 2031, ruling 3", [26, 28, 29, 30, 31]),
        ("section", "Temporary Rulings", [33]),
        ("section", "Questions From the Mailbag", [35]),
        ("ruling", "Rules Update, May 2031, ruling 4", [37, 39]),
        ("ruling", "Rules Update, May 2031, ruling 5", [41, 42]),
        ("section", "Clarified Rulings", [44, 46]),
        ("ruling", "Rules Update, May 2031, ruling 6", [48]),
        ("ruling", "Rules Update, May 2031, ruling 7", [49]),
        ("section", "Errata", [51]),
        ("ruling", "Beacon Relay", [53, 55]),
        ("ruling", "Scout Ship", [57, 59, 61, 62]),
    ]
    rulings = [e for e in result.entries if e.kind == "ruling"]
    assert {e.date for e in rulings} == {dt.date(2031, 5, 3)}
    assert [e.authority for e in rulings] == ["temporary"] * 3 + ["official"] * 6
    assert result.entries[0].fields == {
        "title": "Rules Update, May 2031",
        "byline": "by Ana Rivera, Rules Steward",
        "date": "2031-05-03",
        "functional changes": "none this month",
    }
    assert rulings[2].text == (
        "When a beacon is destroyed during a duel, resolve it in this order:\n\n1. The beacon is removed.\n\n"
        "2. Each player scores the duel.\n\n• (If a player has now won, stop here.)\n\n"
        "3. The beacon's owner draws one card."
    )
    assert rulings[3].text == "Q: Can a scout move twice in one turn?\n\nA: Only with a card that says so."
    assert rulings[5].text == "A beacon in the discard pile is not in play."
    assert (rulings[8].text, rulings[8].fields) == (
        "It moves one space further when empty:\n\n1. Move it as usual.\n\n2. Move it one more space.",
        {"steps": "numbered 1, 3, 5 ... on the page"},
    )
    assert result.chrome == [1, 2]
    assert coverage(result).complete and not result.unparsed and not result.warnings


def test_errata_headed_by_titles_the_catalog_lacks_are_prose_and_warned() -> None:
    result = parse_file(ARTICLE, "rules-update")
    assert [(e.kind, e.headword) for e in result.entries[-3:]] == [
        ("section", "Errata"),
        ("section", "Beacon Relay"),
        ("section", "Scout Ship"),
    ]
    assert result.warnings == [
        f"{ARTICLE}:{line}: {name!r}, under 'Errata' with no ruling of its own, is no card title of the catalog "
        "in use: read as prose"
        for line, name in ((53, "Beacon Relay"), (57, "Scout Ship"))
    ]


def test_other_titles_and_dates_of_the_article(tmp_path: Path) -> None:
    page = tmp_path / "article.txt"
    for title, day, on in (
        ("First Edition Rules Update – June 2031", "June 7, 2031", dt.date(2031, 6, 7)),
        ("Rules Update: July 2031", "5th July 2031", dt.date(2031, 7, 5)),
    ):
        page.write_text(f"{title}\n\n{day}\n\nQ: Is a beacon a card?\nA: Yes.\n", encoding="utf-8")
        result = parse_file(page, "rules-update")
        assert [(e.headword, e.date) for e in result.entries if e.kind == "ruling"] == [(f"{title}, ruling 1", on)]
        assert not result.warnings and not result.unparsed


def test_history_dates_each_ruling_by_the_article_and_notes_the_temporary(tmp_path: Path) -> None:
    with built(tmp_path, ARTICLE, "rules-update", date="2031-05-03") as kb:
        temporary = kb.history("Rules Update, May 2031, ruling 2")
        answered = kb.history("Rules Update, May 2031, ruling 4")
        before = kb.show("Rules Update, May 2031, ruling 2", dt.date(2031, 5, 2))
        after = kb.show("Rules Update, May 2031, ruling 2", dt.date(2031, 5, 3))
    assert [(v["valid_from"], v["valid_to"], v["note"]) for v in temporary["versions"]] == [
        ("2031-05-03", None, 'temporary ("bluetext") ruling')
    ]
    assert [(v["valid_from"], v["note"]) for v in answered["versions"]] == [("2031-05-03", "")]
    assert before["parts"] == [] and [p["authority"] for p in after["parts"]] == ["temporary"]


def test_a_stray_answer_and_a_page_with_no_title_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = tmp_path / "stray.txt"
    stray.write_text("Rules Update, June 2031\n\n1st June 2031\n\nA: Only on Tuesdays.\n", encoding="utf-8")
    result = parse_file(stray, "rules-update")
    assert result.unparsed == [5]
    assert result.warnings == [f"{stray}:5: an answer with no question before it; not read"]
    letter = FIXTURES / "kinds" / "letter.txt"
    assert main(["parse", str(letter), "--kind", "rules-update"]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {letter}: read as rules-update, only 0 of 14 lines look like Rules Update rulings and "
        "sections; is it another kind?\n"
    )


@needs_real
def test_the_october_2021_article_s_three_temporary_rulings() -> None:
    name = REAL / "1e-rules-update-2021-10-04-trekcc.txt"
    result = parse_file(name, "rules-update")
    rulings = [e for e in result.entries if e.kind == "ruling"]
    assert [(e.headword, e.lines[0], e.date, e.authority) for e in rulings] == [
        ("Rules Update, October 2021, ruling 1", 17, dt.date(2021, 10, 4), "temporary"),
        ("Rules Update, October 2021, ruling 2", 20, dt.date(2021, 10, 4), "temporary"),
        ("Rules Update, October 2021, ruling 3", 23, dt.date(2021, 10, 4), "temporary"),
    ]
    assert rulings[1].text.startswith("Over the course of a game, using multiple copies of Consume: Outpost")
    steps = [p.split(".")[0] for p in rulings[2].text.split("\n\n")[1:] if p[0].isdigit()]
    assert steps == ["1", "2", "3", "4", "5", "6"]
    assert result.entries[0].fields["functional changes"] == "none this month"
    assert [e.headword for e in result.entries if e.partial] == ['Temporary "Bluetext" Rulings Update']
    assert coverage(result).complete and not result.unparsed


@needs_real
def test_the_march_2020_article_s_menu_is_chrome_and_its_prose_sections() -> None:
    name = REAL / "1e-rules-update-2020-03-02-trekcc.txt"
    result = parse_file(name, "rules-update")
    assert result.chrome == [1, 2, 3, 5, 6, 7]
    assert [(e.kind, e.headword) for e in result.entries] == [
        ("introduction", "1e-rules-update-2020-03-02-trekcc"),
        ("section", "New Release Model"),
        ("section", "Spice World Poster"),
    ]
    assert result.entries[0].fields["date"] == "2020-03-02"
    assert coverage(result).complete and not result.unparsed


PLAIN = """Rules Update, August 2031

by Ana Rivera, Rules Steward

4th August 2031

Hello again. This month was a quiet one.

Monthly Rulings

The Beacon Errata

You may wonder why the beacon changed again. We asked the same question.

It took two meetings to settle the wording, and we think it reads well now.
"""


def test_an_article_with_no_ruling_set_apart_is_prose_and_says_so(tmp_path: Path) -> None:
    """Discussion under a heading naming rulings, none of it indented, bulleted or a Q: and A:, is the
    article's prose: no ruling is made of it, and a warning says the section held none."""
    page = tmp_path / "plain.txt"
    page.write_text(PLAIN, encoding="utf-8")
    result = parse_file(page, "rules-update")
    assert [(e.kind, e.headword) for e in result.entries] == [
        ("introduction", "plain"),
        ("section", "Monthly Rulings"),
        ("section", "The Beacon Errata"),
    ]
    assert result.warnings == [
        f"{page}:13: 'The Beacon Errata' names rulings, but none of its 2 paragraph(s) is set apart as one "
        "(indented, a bullet, Q: and A:): read as prose"
    ]
