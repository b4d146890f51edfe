"""The Comprehensive Rules parser (`rulings.kinds.comprehensive_rules.parser`) on the five real releases in
``../shared/mtg-cr`` (skipped without them) and on small texts written to its layout."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest
from mtg_reader import read_release

from helpers import SHARED
from rulings import kinds
from rulings.kinds.comprehensive_rules.parser import (
    GLOSSARY_KINDS,
    RULE_KINDS,
    cited_rules,
    effective_date,
    numbered,
    parse_comprehensive_rules,
)
from rulings.model import Document
from rulings.parse import coverage, parse_document, parse_source
from rulings.reading import detect, reading, refusal
from rulings.source import decode, read_source

RELEASES = SHARED / "mtg-cr"
needs_releases = pytest.mark.skipif(not RELEASES.is_dir(), reason="../shared/mtg-cr (the real releases) is absent")

COUNTS = {
    "MagicCompRules-20170825.txt": (dt.date(2017, 8, 25), "utf-8", 9, 129, 916, 1314, 513, 20),
    "MagicCompRules-20180713.txt": (dt.date(2018, 7, 13), "utf-8", 9, 130, 934, 1366, 524, 20),
    "MagicCompRules-20190712.txt": (dt.date(2019, 7, 12), "utf-8-sig", 9, 131, 957, 1388, 539, 20),
    "MagicCompRules-20200601.txt": (dt.date(2020, 6, 1), "utf-8-sig", 9, 133, 976, 1459, 550, 20),
    "MagicCompRules-20210419.txt": (dt.date(2021, 4, 22), "utf-8-sig", 9, 133, 991, 1530, 569, 20),
}
"""Each release: its stated effective date, encoding, and chapters, sections, rules, subrules,
Glossary terms and See-only terms (their sums are the independent reader's counts: checked below)."""


def _document(path: Path, date: dt.date | None = None) -> Document:
    return Document(id=path.stem, path=str(path), game="mtg", kind="comprehensive-rules", title="CR", date=date)


def _text(text: str, date: dt.date | None = None) -> tuple[Document, list[str], list[str]]:
    document = _document(Path("cr.txt"), date)
    result = parse_source(document, decode("cr.txt", text.encode("utf-8")))
    entries = [f"{e.kind} {e.headword} @{e.span}: {e.text}" + (f" -> {e.references}" if e.references else "")
               for e in result.entries]  # fmt: skip
    assert coverage(result).complete
    return document, entries, result.warnings


@needs_releases
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_line_of_each_release_is_accounted_for(name: str) -> None:
    result = parse_document(_document(RELEASES / name))
    date, encoding, *counts = COUNTS[name]
    kinds = Counter(e.kind for e in result.entries)
    kinds_in_order = ("chapter", "section", "rule", "subrule", "glossary entry", "glossary reference")
    assert [kinds[k] for k in kinds_in_order] == counts
    assert kinds["introduction"] == 1
    other = read_release(RELEASES / name)
    assert (sum(counts[:4]), sum(counts[4:])) == (len(other.rules), len(other.terms))
    assert (result.document.date, result.document.declared_date, result.document.encoding) == (date, date, encoding)
    report = coverage(result)
    assert (report.complete, report.unparsed, report.missing, report.twice) == (True, 0, (), ())
    assert result.warnings == []


@needs_releases
def test_rules_sections_and_terms_of_a_release() -> None:
    result = parse_document(_document(RELEASES / "MagicCompRules-20200601.txt"))
    by = {e.headword: e for e in result.entries}
    assert (by["8"].kind, by["8"].text) == ("chapter", "Multiplayer Rules")
    assert (by["702"].kind, by["702"].text) == ("section", "Keyword Abilities")
    assert (by["702.9"].kind, by["702.9"].text, by["702.9"].span.start) == ("rule", "Flying", 3278)
    assert by["702.9b"].text == (
        "A creature with flying can't be blocked except by creatures with flying and/or reach. A creature with "
        'flying can block a creature with or without flying. (See rule 509, "Declare Blockers Step," and rule '
        '702.17, "Reach.")'
    )
    assert by["702.9b"].references == ["509", "702.17"]
    assert by["100.1b"].references == ["8"]  # See section 8, "Multiplayer Rules."
    paragraphs = by["101.2"].text.split("\n\n")
    assert [p.split(":")[0] for p in paragraphs[1:]] == ["Example"]
    assert by["119.1d"].text.startswith("In a two-player Brawl game, each player's starting life total is 25.")
    ability = by["Ability"]
    assert (ability.kind, ability.text.split("\n\n")[0]) == (
        "glossary entry",
        "1. Text on an object that explains what that object does or can do.",
    )
    assert ability.references == ["113", "6"]
    see = by["Range of Influence"]
    assert (see.kind, see.text, see.references) == (
        "glossary reference",
        "See Limited Range of Influence.",
        ["Limited Range of Influence"],
    )
    assert "Credits" not in by and "Zone-Change Triggers" in by


@needs_releases
def test_a_manifest_date_that_disagrees_is_warned() -> None:
    path = RELEASES / "MagicCompRules-20210419.txt"
    result = parse_document(_document(path, dt.date(2021, 4, 19)))
    assert result.document.date == dt.date(2021, 4, 19)
    assert result.warnings == [
        f"{path}:3: the manifest dates this release 2021-04-19, the text says it is effective as of 2021-04-22; "
        "using the manifest's date"
    ]


def test_a_small_release_with_and_without_a_byte_order_mark() -> None:
    text = (
        "Magic: The Gathering Comprehensive Rules\n\n   These rules are effective as of March 3, 2023.\n\n"
        "Introduction\n\nThis document is the authority.\n\nContents\n\n1. Game Concepts\n   100. General\n"
        "Glossary\nCredits\n\n1. Game Concepts\n\n100. General\n\n   100.1. These rules apply.\n\n"
        "      100.1a A two-player game. See section 8 and rules 100.1 and 702.19b.\n\n"
        "            Example: Two players.\n\n      100.1b. A stray full stop.\n\nGlossary\n\nDeal\nSee Damage.\n\n"
        "Lonely Term\n\nCredits\n\nDesign: Someone\n"
    )
    expected = [
        "introduction Introduction @7: This document is the authority.",
        "chapter 1 @16: Game Concepts",
        "section 100 @18: General",
        "rule 100.1 @20: These rules apply.",
        "subrule 100.1a @22-24: A two-player game. See section 8 and rules 100.1 and 702.19b.\n\nExample: Two players."
        " -> ['8', '100.1', '702.19b']",
        "subrule 100.1b @26: A stray full stop.",
        "glossary reference Deal @30-31: See Damage. -> ['Damage']",
    ]
    for data in (text, "\ufeff" + text):
        document, entries, warnings = _text(data)
        assert entries == expected
        assert (document.date, warnings) == (dt.date(2023, 3, 3), ["cr.txt:33: Glossary term with no definition"])


def test_text_before_the_first_rule_and_a_missing_date_are_reported() -> None:
    document, entries, warnings = _text("Some Title\n\nA stray line\n\n100. General\n\n   100.1. Text.\n")
    assert entries == ["section 100 @5: General", "rule 100.1 @7: Text."]
    assert document.date is None
    assert warnings == [
        "cr.txt:3: text before the Introduction and the rules; not read",
        "cr.txt:1: no 'These rules are effective as of <date>.' line",
    ]


def test_numbered_lines_dates_and_citations() -> None:
    assert numbered("702.9. Flying") == ("rule", "702.9", "Flying")
    assert numbered("702.9a Flying is an evasion ability.") == ("subrule", "702.9a", "Flying is an evasion ability.")
    assert numbered("8. Multiplayer Rules") == ("chapter", "8", "Multiplayer Rules")
    assert numbered("Example: no") is None
    assert effective_date("   These rules are effective as of April 22, 2021.") == dt.date(2021, 4, 22)
    assert effective_date("effective as of February 30, 2021") is None
    assert cited_rules('See rule 509, "Declare Blockers Step," and rule 702.17.') == ["509", "702.17"]
    assert cited_rules("see rules 702.2c and 702.2d, or section 8") == ["702.2c", "702.2d", "8"]
    assert cited_rules("It deals 3 damage.") == []


def test_the_parser_alone_keeps_the_document_date() -> None:
    document = _document(Path("cr.txt"), dt.date(2020, 1, 1))
    result = parse_comprehensive_rules(document, decode("cr.txt", b"   100.1. Text.\n"))
    assert (document.date, [e.headword for e in result.entries], result.unparsed) == (
        dt.date(2020, 1, 1),
        ["100.1"],
        [],
    )


def test_the_kind_declares_the_parsers_entry_kinds() -> None:
    policy = kinds.kind("comprehensive-rules").versions
    assert (policy.topics, policy.restates, policy.moves) == (RULE_KINDS, ((GLOSSARY_KINDS, "glossary"),), True)


@needs_releases
def test_each_release_is_read_whole_and_detected_as_its_kind() -> None:
    for name in sorted(COUNTS):
        result = parse_document(_document(RELEASES / name))
        read = reading(result)
        assert (read.read, refusal(result)) == (read.text, None), name
    path = RELEASES / "MagicCompRules-20200601.txt"
    unnamed = Document(id="x", path=str(path), game="mtg", kind="", title="x")
    assert detect(unnamed, read_source(path)).kind == "comprehensive-rules"
