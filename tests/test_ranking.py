"""A numbered rule ranks over the Glossary entry restating it (`kb.search.restating`): one release
of Magic's Comprehensive Rules (``../shared/mtg-cr``, skipped without it) searched on the server
and in the export's search (``static/offline_search.js``, run by node)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import pytest

from helpers import ROOT, SHARED, one_release
from kb.meaning import encoder
from kb.paths import current
from kb.query import KnowledgeBase
from web.export.pages import export

sys.path.insert(0, str(ROOT / "bench"))
from offline_parity import NODE, compare

RELEASE = SHARED / "mtg-cr" / "MagicCompRules-20210419.txt"
pytestmark = pytest.mark.skipif(not RELEASE.is_file(), reason="../shared/mtg-cr (the real releases) is absent")
QUESTIONS = [
    '"legend rule"',
    "trample",
    "how does the london mulligan work",
    "range of influence",
    "first strike",
    "what creatures can block a flyer",
    "can I block with a tapped creature",
    "what does scry do",
    "planeswalker with zero loyalty",
]


@pytest.fixture(scope="module")
def magic_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of the release of 2021-04-19 alone."""
    work = tmp_path_factory.mktemp("magic")
    return one_release(work, RELEASE, "mtg", "cr-20210419", "Comprehensive Rules", "20210419")


@pytest.fixture(scope="module")
def magic(magic_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(magic_root))


def topics(kb: KnowledgeBase, query: str, every_version: bool = False, meaning: bool = True) -> list[str]:
    found = kb.search(query, game="mtg", limit=10, every_version=every_version, meaning=meaning)
    return [hit["topic"] for hit in found["results"]]


def test_a_rule_ranks_above_the_glossary_entry_restating_it(magic: KnowledgeBase) -> None:
    for every_version in (False, True):  # the versions in force, every version (the history index)
        legend = topics(magic, '"legend rule"', every_version)
        assert "mtg:704-5j" in legend[:3]  # "... This is called the 'legend rule.'"
        assert legend.index("mtg:legend-rule") > legend.index("mtg:704-5j")
        trample = topics(magic, "trample", every_version)
        assert [t.rstrip("abcde") for t in trample[:3]] == ["mtg:702-19"] * 3  # 702.19a-e, not the Glossary's


def test_a_glossary_entry_named_brings_the_rule_it_cites(magic: KnowledgeBase) -> None:
    # "London Mulligan: Informal term for the current system of mulligan rules. See rule 103.4."
    for every_version in (False, True):  # by words (meaning re-ranks the rules in force only)
        assert topics(magic, "how does the london mulligan work", every_version, meaning=False)[:2] == [
            "mtg:103-4",
            "mtg:london-mulligan",
        ]
    if encoder.available():  # by meaning too, the rule's own subrules come before the entry pointing to it
        assert topics(magic, "how does the london mulligan work")[:3] == ["mtg:103-4", "mtg:103-4b", "mtg:103-4c"]
    # "First Strike ... See rule 702.7": 702.7 is only the section's title, its subrules answer
    first = topics(magic, "first strike")
    assert "mtg:702-7" not in first[:3]
    assert [t.rstrip("abcd") for t in first[:3]] == ["mtg:702-7"] * 3  # 702.7a-d
    # a kind asked for keeps its kind: the Glossary entry alone
    only = [h["topic"] for h in magic.search("london mulligan", game="mtg", kind="glossary")["results"]]
    assert only[0] == "mtg:london-mulligan"
    assert "mtg:103-4" not in only


def test_a_rule_is_searched_by_the_glossary_headwords_citing_it(magic: KnowledgeBase) -> None:
    # "Poison Counter: ... See rule 122, "Counters," and rule 704.5c." gives 704.5c its words (122
    # is a section whose title names its rules already); "Damage Assignment Order ... See rule
    # 509.2": both were 5th, after rules naming other counters and other orders
    extra = {d["topic"]: d.get("extra") for d in magic.offline_index(dt.date.today())["documents"]}
    assert extra["mtg:704-5c"] == "State-Based Actions\nPoison Counter"
    assert extra["mtg:302-6"] == "Creatures\nCard Types\nHaste\nSummoning Sickness Rule"
    assert extra["mtg:702-19b"] == "Trample"  # the Glossary's Trample cites the section 702.19
    assert extra["mtg:122-1d"] == "Counters"  # "Poison Counter" cites all of 122: none of its rules get it
    for every_version in (False, True):
        assert topics(magic, "how many poison counters to lose", every_version, meaning=False).index("mtg:704-5c") == 2
        assert topics(magic, '"damage assignment order"', every_version)[0] == "mtg:509-2"
    if encoder.available():  # by meaning too, one place up: after 122.1d, the poison counter itself
        assert topics(magic, "how many poison counters to lose").index("mtg:704-5c") == 1


def test_a_search_reads_its_hits_once_and_no_section_for_a_rule_defining_nothing(magic: KnowledgeBase) -> None:
    # the cited and the defining rules (`with_rules_first`) read the hits' versions in one query;
    # a rule saying no "X means" reads no section of its own: 8 statements, 29 before (the
    # versions read twice, and the sections of every numbered hit looked up)
    # (by words: re-ranked by meaning, the 30 candidates hold four more Glossary entries, each
    # looked up with the rule it cites: 16)
    asked = "how does the london mulligan work"
    for meaning, count in ((False, 8), (True, 16 if encoder.available() else 8)):
        answer = topics(magic, asked, meaning=meaning)
        connection = magic._parts.reader._connection()
        statements: list[str] = []
        connection.set_trace_callback(statements.append)
        try:
            assert topics(magic, asked, meaning=meaning) == answer
        finally:
            connection.set_trace_callback(None)
        assert len(statements) == count, statements


def test_a_doer_the_rules_never_name_is_read_as_what_it_does(magic: KnowledgeBase) -> None:
    # "flyer" is in no rule: the agent noun of "fly", read as "flying" as a misspelling would be
    answer = magic.search("what creatures can block a flyer", game="mtg", limit=3)
    assert answer["corrected"] == "creatures block flying"
    assert answer["results"][0]["topic"] == "mtg:702-9b"  # "... can't be blocked except by creatures with flying"


def test_a_state_is_searched_with_its_negation(magic: KnowledgeBase) -> None:
    # 509.1a "... The chosen creatures must be untapped.": the rule answers "tapped" by "untapped"
    assert topics(magic, "can I block with a tapped creature", meaning=False)[0] == "mtg:509-1a"
    if encoder.available():  # by meaning too, second, after 506.4b on tapped attackers and blockers
        assert topics(magic, "can I block with a tapped creature")[:2] == ["mtg:506-4b", "mtg:509-1a"]


def test_a_number_in_words_finds_the_rule_writing_it_in_digits(magic: KnowledgeBase) -> None:
    # 704.5i "If a planeswalker has loyalty 0, it's put into its owner's graveyard.": "zero" was
    # searched as a word no rule of loyalty holds, and the rule was not among the first ten
    for every_version in (False, True):
        assert "mtg:704-5i" in topics(magic, "planeswalker with zero loyalty", every_version)[:3]
    answer = magic.search("planeswalker with zero loyalty", game="mtg")
    assert answer["unmatched"] == []  # "zero" matched as 0


def test_the_export_says_which_entries_restate_a_rule(magic: KnowledgeBase) -> None:
    documents = {d["topic"]: d for d in magic.offline_index(dt.date.today())["documents"]}
    assert documents["mtg:legend-rule"]["restates"] is True
    assert documents["mtg:704-5j"]["restates"] is False
    numbers = {d["topic"]: n for n, d in enumerate(magic.offline_index(dt.date.today())["documents"])}
    assert documents["mtg:london-mulligan"]["cites"] == [numbers["mtg:103-4"]]
    assert "cites" not in documents["mtg:704-5j"]


@pytest.mark.skipif(NODE is None, reason="node (Debian's nodejs) is not installed")
def test_the_export_ranks_restatements_as_the_server_does(magic_root: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    export(magic_root, site)
    assert json.loads((site / "search-index.json").read_text())["documents"]
    compared = compare(magic_root, site, QUESTIONS)
    assert [c.query for c in compared if not c.same_top3] == []
    assert all(c.same_top1 for c in compared)
