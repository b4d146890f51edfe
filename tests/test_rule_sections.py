"""A numbered rule is found by the titles of the sections it stands in (`kb.texts.section_titles`:
``3.2.1.1`` under ``3.2.1. Ready`` and ``3.2. Start-of-Turn Phase``), read from the rule numbers
(`kb.numbering`); on the latest release of Lorcana's Comprehensive Rules (``../shared/lorcana-cr``,
skipped without it)."""

from __future__ import annotations

import datetime as dt

import pytest

from helpers import SHARED, one_release
from kb.numbering import ancestors
from kb.paths import current
from kb.query import KnowledgeBase
from kb.texts import title

RELEASE = SHARED / "lorcana-cr" / "lorcana-cr-2026-04-30-v2.1.0.txt"


def test_a_number_stands_under_each_number_beginning_it() -> None:
    assert ancestors("702.19b") == ["702.19", "702", "70", "7"]  # "70" is held by no document
    assert ancestors("3.2.1.1") == ["3.2.1", "3.2", "3"]
    assert ancestors("702") == ["70", "7"]
    assert ancestors("7") == []


def test_a_title_is_a_few_words_that_are_no_sentence() -> None:
    assert [title(t) for t in ["Trample", "Start-of-Turn Phase", "Challenge Declaration step"]] == [True] * 3
    assert title("The state-based actions are as follows:") is False
    assert title("Deathtouch is a static ability.") is False
    assert title("A B C D E F G H I") is False  # more than a title's words


@pytest.fixture(scope="module")
def lorcana(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    if not RELEASE.is_file():
        pytest.skip("../shared/lorcana-cr (the real releases) is absent")
    work = tmp_path_factory.mktemp("lorcana")
    kb = one_release(work, RELEASE, "lorcana", "lorcana-cr-2-1-0", "Disney Lorcana Comprehensive Rules", "2.1.0")
    return KnowledgeBase(current(kb))


def test_a_rule_holds_the_titles_of_its_sections(lorcana: KnowledgeBase) -> None:
    # what the search index holds beside a rule's text (the export's index shows it: the same words)
    extra = {d["topic"]: d.get("extra") for d in lorcana.offline_index(dt.date.today())["documents"]}
    # 3.2.1.1 "The active player readies all their cards in play and in their inkwell." stands
    # in 3.2.1. Ready, 3.2. Start-of-Turn Phase and 3. TURN STRUCTURE
    assert extra["lorcana:3-2-1-1"] == "Ready\nStart-of-Turn Phase\nTURN STRUCTURE"
    assert extra["lorcana:4-2-3"] == "Ink a Card"  # 4. TURN ACTIONS holds over a tenth of the rules
    assert extra["lorcana:8-10-1"] == "Shift"  # and 8. KEYWORDS
    assert extra["lorcana:3-2"] == "TURN STRUCTURE"


def test_the_rule_defining_a_title_the_query_names_comes_first(lorcana: KnowledgeBase) -> None:
    # 8.10.1 "The Shift keyword represents a static ability ... Shift means ..." under 8.10. Shift
    assert lorcana.search("how does shift work", game="lorcana")["results"][0]["topic"] == "lorcana:8-10-1"
    documents = {d["topic"]: d for d in lorcana.offline_index(dt.date.today())["documents"]}
    assert documents["lorcana:8-10-1"]["defines"] == ["shift"]
    assert "defines" not in documents["lorcana:8-10-2"]
