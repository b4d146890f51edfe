"""Each text rule has one home: the ``[univ]`` prefix, M/D/YY dates, the deck group words, the
"no such name" errors; and no ``assert`` steers the code of the three packages."""

from __future__ import annotations

import ast
import datetime as dt
import re

import pytest

from helpers import ROOT
from kb.errors import UnknownCard, UnknownName, UnknownTopic
from rulings.dates import parse_date, parse_us_date
from rulings.errors import BadDate
from rulings.kinds.rulebook import copies
from rulings.kinds.rulebook.lines import DECK_GROUP_TYPES, DECK_GROUPS
from rulings.normalize import headword_key, without_universal

PACKAGES = ("rulings", "kb", "web")


def _sources() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _homes(pattern: str) -> list[str]:
    """The modules whose source matches ``pattern``, with how often."""
    found = ((name, len(re.findall(pattern, text))) for name, text in _sources().items())
    return [f"{name} x{count}" for name, count in found if count]


def test_each_text_rule_is_written_once() -> None:
    assert _homes(r"\\\[univ\\\]") == ["rulings/normalize.py x1"]
    assert _homes(r"\\d\{1,2\}\)?/\(?\\d") == ["rulings/dates.py x1"]
    assert _homes(r'"INTERRUPTS"') == ["rulings/kinds/rulebook/lines.py x1"]
    assert _homes(r"; did you mean: ") == ["kb/errors.py x1"]
    assert _homes(r"fullest_first") == [] and not hasattr(copies, "fullest_first")


def test_the_univ_prefix() -> None:
    assert [without_universal(h) for h in ("[univ] Nebula", "[UNIV]Nebula", " [univ]  Nebula", "Nebula [univ]")] == [
        "Nebula", "Nebula", "Nebula", "Nebula [univ]"
    ]  # fmt: skip
    assert headword_key("[univ] Federation Outpost") == headword_key("Federation Outpost") == "federation outpost"


@pytest.mark.parametrize(
    ("text", "day"), [("2000-11-27", dt.date(2000, 11, 27)), (" 2069-01-02 ", dt.date(2069, 1, 2))]
)
def test_dates_users_give(text: str, day: dt.date) -> None:
    assert parse_date(text) == day


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("02/01/2000", "2000-02-01 or 2000-01-02"),
        ("11/27/00", "2000-11-27"),
        (" 1/2/69 ", "2069-01-02 or 2069-02-01"),
        ("13/01/2000", "2000-01-13"),
        ("8/8/70", "1970-08-08"),
    ],
)
def test_a_date_with_slashes_is_refused_naming_what_it_could_be(text: str, readings: str) -> None:
    """One date rule for every command and page: YYYY-MM-DD (issue 52 item 5: 02/01/2000 was read as
    February 1 while 13/01/2000 was refused)."""
    with pytest.raises(BadDate) as caught:
        parse_date(text)
    assert str(caught.value) == f"{text!r}: dates are written YYYY-MM-DD here ({readings}?), never with slashes"


@pytest.mark.parametrize("text", ["2/30/00", "13/13/00", "1/2/300", "2000-13-01", "2000-1-1", "11/27/00 x", "", "x"])
def test_bad_dates_users_give(text: str) -> None:
    with pytest.raises(BadDate) as caught:
        parse_date(text)
    assert str(caught.value) == f"{text!r} is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)"


def test_dates_documents_print() -> None:
    assert parse_us_date("Current Rulings Update (11/27/00)") == dt.date(2000, 11, 27)
    assert [parse_us_date(t) for t in ("2/30/00", "no date", "111/27/00")] == [None, None, None]


def test_deck_groups_and_their_card_types() -> None:
    assert tuple(DECK_GROUP_TYPES) == DECK_GROUPS
    assert (DECK_GROUP_TYPES["OUTPOST"], DECK_GROUP_TYPES["SHIPS"], len(DECK_GROUPS)) == ("Facility", "Ship", 13)


def test_unknown_names_share_one_base() -> None:
    topic, card = UnknownTopic("conondrum", ["Conundrum"]), UnknownCard("Zzz", [])
    assert isinstance(topic, UnknownName) and isinstance(card, UnknownName) and isinstance(card, LookupError)
    assert (str(topic), topic.suggestions) == ("no entry 'conondrum'; did you mean: Conundrum?", ["Conundrum"])
    unknown = "no card 'Zzz'; no card is named like it: rulings search \"Zzz\" searches the rulings for the name"
    assert (str(card), card.suggestions) == (unknown, [])


def test_no_assert_statements_in_the_packages() -> None:
    found = [
        f"{name}:{node.lineno}"
        for name, text in _sources().items()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Assert)
    ]
    assert found == []
