"""The kind ``qa-compendium`` (`rulings.kinds.qa_compendium`): Q. / A. pairs under ``== NAME (card - set)``."""

from __future__ import annotations

from pathlib import Path

import pytest
from kindlib import built

from helpers import FIXTURES
from rulings.parse import coverage, parse_file
from web.cli.main import main

COMPENDIUM = FIXTURES / "kinds" / "qa-compendium.txt"
ONE_LINE = FIXTURES / "kinds" / "qa-compendium-one-line.txt"
"""The same compendium with its line breaks lost."""
LANTERN = (
    "Q. Can the lantern be burned the turn it is played?\n\nA. Yes, as long as its owner has not drawn yet that turn."
    "\n\nQ. Does a second lantern double the bonus?\n\nA. No. Each lantern gives its bonus once."
)


@pytest.mark.parametrize(("path", "lines"), [(COMPENDIUM, [[3, 4, 5, 6, 7, 8, 9], [11, 12, 13, 14], [16, 17, 18]]),
                                             (ONE_LINE, [[1], [1], [1]])])  # fmt: skip
def test_each_card_heading_holds_its_questions_and_answers(path: Path, lines: list[list[int]]) -> None:
    result = parse_file(path, "qa-compendium")
    cards = [e for e in result.entries if e.kind == "card questions"]
    assert [(e.headword, e.fields, e.lines) for e in cards] == [
        ("Aching Lantern", {"card": "card", "set": "Shadow Deck", "last edited": "2009-03-02"}, lines[0]),
        ("Borrowed Hour", {"card": "card", "set": "Night Market", "last edited": "2011-10-18"}, lines[1]),
        ("Cold Harbor", {"card": "location", "set": "Night Market", "last edited": "2012-01-05"}, lines[2]),
    ]
    assert cards[0].text == LANTERN and cards[0].authority == "informal"
    assert result.warnings == [f"{path}:{lines[2][0]}: Cold Harbor: a question without an answer"]
    assert coverage(result).complete and not result.unparsed
    assert result.chrome == ([2, 10, 15] if path == COMPENDIUM else [])
    assert result.split == ([] if path == COMPENDIUM else [1])


def test_a_card_is_an_faq_topic(tmp_path: Path) -> None:
    with built(tmp_path, COMPENDIUM, "qa-compendium") as kb:
        answer = kb.show("Borrowed Hour")
    assert [(p["series"], p["text"]) for p in answer["parts"]] == [("faq", "Q. Is playing it an action?\n\nA. No.")]


def test_it_is_detected_and_a_letter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for path in (COMPENDIUM, ONE_LINE):
        assert main(["parse", str(path)]) == 0
        assert capsys.readouterr().err.splitlines()[0] == f"rulings: {path}: read as qa-compendium (detected)"
    letter = FIXTURES / "kinds" / "letter.txt"
    assert main(["parse", str(letter), "--kind", "qa-compendium"]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {letter}: read as qa-compendium, only 0 of 14 lines look like card questions and answers; "
        "is it another kind?\n"
    )
