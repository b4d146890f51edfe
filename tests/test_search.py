"""Search through the real Whoosh index of real builds: ranking, fields, phrases, misspellings, as-of."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.paths import current
from kb.query import KnowledgeBase
from web.cli.main import main


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(bundled_root))


@pytest.fixture(scope="module")
def fixture_kb(history_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(history_root))


def headwords(answer: dict[str, object]) -> list[str]:
    return [hit["headword"] for hit in answer["results"]]  # type: ignore[attr-defined, index]


def test_conundrum_target_finds_the_conundrum_ruling_first(bundled: KnowledgeBase) -> None:
    answer = bundled.search("conundrum target")
    assert headwords(answer)[0] == "Conundrum"
    hit = answer["results"][0]
    assert hit["citation"]["lines"] == "79-83" and hit["series"] == "glossary"
    assert '">target</mark>' in hit["snippet"] and hit["snippet"].startswith("your ship and crew")
    assert answer["suggestion"] is None


def test_damaged_ship_finds_ship_vs_ship(bundled: KnowledgeBase) -> None:
    assert headwords(bundled.search("damaged ship"))[0] == "SHIP VS. SHIP"


def test_card_field_and_quotes(bundled: KnowledgeBase) -> None:
    straight = headwords(bundled.search('card:"Cha\'Joh"'))
    curly = headwords(bundled.search("card:\u201cCha\u2019Joh\u201d"))
    assert straight == curly == ["Cha'Joh", "Cha'Joh", "multi-affiliation cards"]


def test_phrase(bundled: KnowledgeBase) -> None:
    assert headwords(bundled.search('"required action"')) == ["cloaking and phasing", "Conundrum"]
    assert headwords(bundled.search('"target required"')) == []
    assert "Conundrum" in headwords(bundled.search("target required"))


def test_findable_however_typed(bundled: KnowledgeBase) -> None:
    assert headwords(bundled.search("uss galaxy")) == headwords(bundled.search("U.S.S. Galaxy"))
    assert headwords(bundled.search("uss galaxy"))[0] == "Deck list: Federation Outpost"
    assert headwords(bundled.search("K\u2019Vort")) == ["Deck list: Klingon Outpost"]
    assert headwords(bundled.search("[MQ]"))[0] == "Mirror Quadrant icon [MQ]"
    assert headwords(bundled.search("mq"))[0] == "Mirror Quadrant icon [MQ]"
    assert "Collect" in headwords(bundled.search("I.K.S. QhonDoq"))


def test_compatibility_forms_are_folded(bundled: KnowledgeBase) -> None:
    """Fullwidth letters and ligatures (NFKC) find what their plain letters find (#48 item 12)."""
    assert headwords(bundled.search("Mission"))[:3] == ["Mission II", "MISSIONS", "mission attempt"]
    fullwidth = "\uff2d\uff49\uff53\uff53\uff49\uff4f\uff4e"
    assert headwords(bundled.search(fullwidth)) == headwords(bundled.search("Mission"))
    assert headwords(bundled.search("\ufb01rst")) == headwords(bundled.search("first"))
    assert headwords(bundled.search("headword:\uff23onundrum")) == ["Conundrum"]


def test_exclusion_prefix_and_kind(bundled: KnowledgeBase) -> None:
    assert "mirror universe" in headwords(bundled.search("mirror quadrant"))
    assert "mirror universe" not in headwords(bundled.search("mirror quadrant -bajor"))
    assert headwords(bundled.search("tribb*")) == ["tribble", "outpost"]
    assert set(h["series"].split(":")[0] for h in bundled.search("kind:rulebook ship")["results"]) == {"rulebook"}


def test_misspellings_are_corrected_and_said(bundled: KnowledgeBase) -> None:
    answer = bundled.search("conondrum")
    assert (answer["corrected"], answer["suggestion"], headwords(answer)) == ("conundrum", None, ["Conundrum"])
    exact = bundled.search("conondrum", exact=True)
    assert (exact["corrected"], exact["results"]) == (None, [])
    assert bundled.search("chajoh")["suggestion"] == "Cha'Joh"
    kreetchta = bundled.search("kreetchta")
    assert headwords(kreetchta) == ["Kreechta"] and kreetchta["results"][0]["cards"] == ["Kreetchta"]
    assert bundled.search("mirror univrse")["corrected"] == "mirror universe"


def test_as_of_search_excludes_a_later_version(fixture_kb: KnowledgeBase) -> None:
    assert "Q-Flash" not in headwords(fixture_kb.search("tent", as_of=dt.date(2000, 12, 1)))
    assert headwords(fixture_kb.search("tent", as_of=dt.date(2000, 12, 18))) == ["Q-Flash"]
    before = fixture_kb.search("personnel removed", as_of=dt.date(2000, 11, 1))
    assert (before["results"][0]["headword"], before["results"][0]["valid_from"]) == ("mission attempt", "2000-10-30")
    every = fixture_kb.search("Q-Continuum", every_version=True)  # one result per topic, with its matching versions
    assert [(h["headword"], h["valid_from"]) for h in every["results"]] == [("Q-Flash", "2000-12-18")]
    dates = {v["version"]: v["valid_from"] for v in fixture_kb.history("Q-Flash")["versions"]}
    assert [dates[v] for v in every["results"][0]["matching"]] == ["2000-08-01", "2000-12-18"]


def names(items: list[dict[str, str]]) -> list[str]:
    return [item["name"] for item in items]


def test_complete(bundled: KnowledgeBase) -> None:
    assert names(bundled.complete("con"))[0] == "Conundrum"
    assert [(c["name"], c["kind"]) for c in bundled.complete("cha")] == [("Cha'Joh", "entry"), ("Cha'Joh", "card")]
    assert names(bundled.complete("riker")) == ["Admiral Riker"] * 2
    assert names(bundled.complete("nerys")) == ["Kira Nerys"] * 2
    assert names(bundled.complete("conond")) == ["Conundrum"] * 2
    assert [(c["name"], c["kind"], c["game"], c["target"]) for c in bundled.complete("kree")] == [
        ("Kreechta", "entry", "neutral-zone", "neutral-zone:neutral.kreechta"),
        ("Kreechta", "card", "neutral-zone", "Kreetchta"),
        ("Kreetchta", "card", "neutral-zone", "Kreetchta"),
    ]
    assert sorted(set(names(bundled.complete("u.s.s.", limit=20)))) == [
                                            "U.S.S. Dauntless", "U.S.S. Defiant", "U.S.S. Enterprise-E",
                                            "U.S.S. Excelsior", "U.S.S. Galaxy", "U.S.S. Nebula", "U.S.S. Reliant",
                                            "U.S.S. Yosemite"]  # fmt: skip
    assert len(bundled.complete("m")) == 10
    assert bundled.complete("") == [] and bundled.complete("!!!") == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(max_size=300)
    | st.sampled_from(
        [
            '"',
            "AND OR",
            "-",
            "*",
            'card:"',
            "kind:",
            "x" * 2000,
            "🖖 ﷽",
            "'; DROP TABLE entries; --",
            "<script>alert(1)</script>",
            "a:b:c",
        ]
    )
)
def test_any_string_searches_without_error(bundled: KnowledgeBase, text: str) -> None:
    answer = bundled.search(text, limit=5)
    assert isinstance(answer["results"], list) and len(answer["results"]) <= 5
    for hit in answer["results"]:
        assert "<script" not in hit["snippet"]


def test_cli_search_json(capsys: pytest.CaptureFixture[str], bundled_root: Path) -> None:
    kb_root = str(bundled_root)
    assert main(["search", "conondrum", "--kb", kb_root, "--json"]) == 0
    import json

    answer = json.loads(capsys.readouterr().out)
    assert (answer["corrected"], answer["suggestion"]) == ("conundrum", None)
    assert {"citation", "headword", "snippet"} <= set(answer["results"][0])
    assert main(["search", "damaged ship", "--kb", kb_root, "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 result(s) for 'damaged ship' as of ")
    assert lines[1].startswith("1. SHIP VS. SHIP  [Rulebook: ")


@pytest.mark.parametrize(
    ("typed", "names", "text"),
    [
        ("Cha\u2019Joh", ["chajoh"], ["chajoh"]),
        ("U.S.S. Galaxy", ["uss", "galaxy"], ["uss", "galaxi"]),
        ("I.K.S. Ch'Tang", ["iks", "chtang"], ["ik", "chtang"]),
        ("Mr. Quark", ["mr", "quark"], ["mr", "quark"]),
        ("[MQ] personnel", ["mq", "personnel"], ["mq", "personnel"]),
        ("Quark 2E", ["quark", "2e"], ["quark", "2e"]),
        ("Bio-ship Alpha", ["bioship", "bio", "ship", "alpha"], ["bioship", "bio", "ship", "alpha"]),
        ("damaged ships", ["damaged", "ships"], ["damag", "ship"]),
        ("\uff2d\uff49\uff53\uff53\uff49\uff4f\uff4e \ufb01rst", ["mission", "first"], ["mission", "first"]),
    ],
)
def test_analyzers_keep_card_game_words(typed: str, names: list[str], text: list[str]) -> None:
    from kb.engine.analysers import name_analyzer, text_analyzer

    assert [t.text for t in name_analyzer()(typed)] == names
    assert [t.text for t in text_analyzer()(typed)] == text


def test_mr_quark_and_cli_marks(bundled: KnowledgeBase, bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert headwords(bundled.search("Mr. Quark"))[0] == "persona"
    assert main(["search", "Mr. Quark", "--kb", str(bundled_root)]) == 0
    out = capsys.readouterr().out
    assert "the mirror universe personnel *Mr*. *Quark* is the opposite" in out and "<mark" not in out


def test_a_history_search_says_how_many_versions_of_an_entry_match(
    history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line says that both Q-Flash versions match "Q-Continuum" (the newest shown)."""
    from web.cli.main import main

    assert main(["search", "Q-Continuum", "--all", "--kb", str(history_root)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:3] == [
        "1 result(s) for 'Q-Continuum', all versions",
        "1. Q-Flash  [Glossary] active",
        "    2 versions of this entry match; the newest is shown ('rulings history')",
    ]


def test_the_vocabulary_file_holds_each_words_stem(bundled_root: Path) -> None:
    """The build writes the stems, so that reading the vocabulary stems nothing; the result is
    the vocabulary that stemming every word when reading it makes."""
    import json

    from kb.paths import VOCABULARY
    from kb.search.questions import Vocabulary

    data = json.loads((current(bundled_root) / VOCABULARY).read_text(encoding="utf-8"))
    assert (data["stems"]["cloaking"], data["stems"]["rulings"], "conundrum" in data["stems"]) == (
        "cloak",
        "rule",
        False,
    )
    read, stemmed = Vocabulary(data["counts"], data["names"], data["stems"]), Vocabulary(data["counts"], data["names"])
    words = sorted({*data["counts"], *data["names"], "cloaked", "commandering", "conundrums", "seeding", "cloked"})
    assert [(read.knows(w), read.inflections(w), read.spellings(w)) for w in words] == [
        (stemmed.knows(w), stemmed.inflections(w), stemmed.spellings(w)) for w in words
    ]
