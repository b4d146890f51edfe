"""Ruling lines that look like chrome (an option ``(c) by ...``, ``A | B | C`` lists, lone ``UP``/``DOWN``/``or``)
stay ruling text: chrome is only what stands where chrome stands, and chrome inside the rulings is warned."""

from __future__ import annotations

from pathlib import Path

from rulings.model import ParseResult
from rulings.parse import coverage, parse_file

RULINGS = """RULINGS

Aboard Ruling - When you play this card, choose one: (a) draw a card;
(b) score 5 points; or
(c) by placing a personnel in your discard pile.

Bridge Ruling - This card works with:
Federation | Bajoran | Non-Aligned
personnel.

Crossing Ruling - Move the card:
UP
or
DOWN

Later Ruling - Still read.

TM & (c) 1999 Decipher Inc. All Rights Reserved.
"""


def parse(tmp_path: Path, text: str, kind: str = "current-rulings") -> ParseResult:
    path = tmp_path / "rulings.txt"
    path.write_text(text, encoding="utf-8")
    return parse_file(path, kind)


def entry(result: ParseResult, headword: str) -> str:
    return next(e.text for e in result.entries if e.headword == headword)


def test_option_c_is_ruling_text_and_the_rulings_go_on(tmp_path: Path) -> None:
    result = parse(tmp_path, RULINGS)
    assert entry(result, "Aboard Ruling") == (
        "When you play this card, choose one: (a) draw a card;\n\n(b) score 5 points; or\n\n"
        "(c) by placing a personnel in your discard pile."
    )
    assert [e.headword for e in result.entries if e.kind == "ruling"] == [
        "Aboard Ruling", "Bridge Ruling", "Crossing Ruling", "Later Ruling",
    ]  # fmt: skip
    assert result.unparsed == []
    assert result.chrome == [18]  # the real notice, after the last ruling
    assert coverage(result).complete


def test_affiliation_list_and_lone_up_down_or_are_ruling_text(tmp_path: Path) -> None:
    result = parse(tmp_path, RULINGS)
    assert entry(result, "Bridge Ruling") == "This card works with:\n\nFederation | Bajoran | Non-Aligned\n\npersonnel."
    assert entry(result, "Crossing Ruling") == "Move the card:\n\nUP\n\nor\n\nDOWN"


def test_a_copyright_notice_inside_the_rulings_is_chrome_and_warned(tmp_path: Path) -> None:
    text = RULINGS.replace("Later Ruling", "Copyright 1999 Decipher Inc.\n\nLater Ruling")
    result = parse(tmp_path, text)
    assert entry(result, "Later Ruling") == "Still read."
    assert result.chrome == [16, 20]
    assert result.warnings == [
        f"{tmp_path / 'rulings.txt'}:16: 'Copyright 1999 Decipher Inc.' inside the rulings is taken for chrome"
    ]


def test_chrome_before_the_first_ruling_is_chrome(tmp_path: Path) -> None:
    result = parse(tmp_path, "RULINGS\n\nHOME | NEXT | BACK\n\n" + RULINGS.split("\n", 2)[2])
    assert result.chrome == [3, 20]
    assert result.unparsed == []
