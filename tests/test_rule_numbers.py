"""The numberings of `rulings.numbering.rule_numbers` and the self-check of a numbered document, on small
texts written to each layout: Magic's (``702.19b``, letters skipping ``l`` and ``o``) and the
dotted one of Disney Lorcana (``6.1.2.2.``)."""

from __future__ import annotations

from rulings.kinds.comprehensive_rules.parser import cited_rules
from rulings.model import Document
from rulings.numbering.rule_numbers import DOTTED, MAGIC, Numbered, detect, numbered_rules, sequence
from rulings.parse import coverage, parse_source
from rulings.source import decode


def test_a_dotted_number_needs_its_period_unless_in_sequence() -> None:
    assert DOTTED.numbered("6.1.2.2.   A character has") == Numbered("subrule", "6.1.2.2", "A character has", True)
    assert DOTTED.numbered("10.11.Song") == Numbered("section", "10.11", "Song", True)
    assert DOTTED.numbered("1. CONCEPTS") == Numbered("chapter", "1", "CONCEPTS", True)
    assert DOTTED.numbered("6.1.2.2 to be a character.") == Numbered("subrule", "6.1.2.2", "to be a character.", False)
    assert DOTTED.numbered("2 damage is dealt.") is None
    assert DOTTED.expected("6.1.2.1", {"6.1": 2}, {"6", "6.1", "6.1.2"})
    assert not DOTTED.expected("6.1.2.2", {"6.1": 2}, {"6", "6.1", "6.1.2"})
    assert MAGIC.numbered("606.5 If the total cost") == Numbered("rule", "606.5", "If the total cost", False)
    assert MAGIC.expected("606.5", {"606": 4, "606.4": 1}, {"6", "606", "606.4"})
    assert MAGIC.numbered("607 Linked Abilities") == Numbered("section", "607", "Linked Abilities", False)
    assert MAGIC.expected("607", {"6": 6}, {"6", "606"}) and not MAGIC.expected("608", {"6": 6}, {"6", "606"})
    assert MAGIC.numbered("100 cards is the minimum.") is None


def test_the_sequence_warns_a_gap_a_number_out_of_order_and_one_read_twice() -> None:
    numbers = [("1", 1), ("100", 2), ("100.1", 3), ("100.1a", 4), ("100.1c", 5), ("100.1b", 6), ("100.1c", 7),
               ("102", 8), ("102.2", 9)]  # fmt: skip
    assert sequence(MAGIC, numbers, "cr.txt") == [
        "cr.txt:5: rule 100.1b is missing: the numbers go from 100.1a to 100.1c",
        "cr.txt:6: rule 100.1b is out of order (after 100.1c)",
        "cr.txt:7: rule 100.1c is numbered twice (also line 5)",
        "cr.txt:8: rule 101 is missing: the numbers go from 100 to 102",
        "cr.txt:9: rule 102.1 is missing: the numbers go from 102 to 102.2",
    ]
    letters = [("205.3", 1), *((f"205.3{c}", n) for n, c in enumerate("abcdefghijkmnp", 2))]
    before = [("1", 0), ("100", 0), ("2", 0), *((f"20{i}", 0) for i in range(6)), ("205.1", 0), ("205.2", 0)]
    assert sequence(MAGIC, before + letters, "cr.txt") == []  # no l, no o: no gap
    dotted = [("1", 1), ("1.1", 2), ("1.1.1", 3), ("1.1.3", 4), ("1.2", 5), ("1.2.1", 6), ("1.2.1.1", 7)]
    assert sequence(DOTTED, dotted, "cr.txt") == ["cr.txt:4: rule 1.1.2 is missing: the numbers go from 1.1.1 to 1.1.3"]


def test_a_small_dotted_release_with_a_footer_inside_a_rule() -> None:
    footer = "disneylorcana.com\n\u00a9Disney                 {}\n"
    text = (
        "COMPREHENSIVE RULES\n        Effective May 20, 2024\n\nIntroduction\nThis document covers the rules.\n"
        + footer.format("i")
        + "CONTENTS\n 1. CONCEPTS          2. GAMEPLAY\n   1.1. General         2.1. Setup\n"
        + footer.format("ii")
        + "1. CONCEPTS\n   1.1. General\n        1.1.1. Players need a deck of\n"
        + footer.format(1)
        + "               cards (see 2.1.1).\n               Example: A deck.\n        1.1.3 is cited here.\n"
        + "2. GAMEPLAY\n   2.1. Setup\n        2.1.1. Shuffle.\n"
        + footer.format(2)
        + "GLOSSARY\nbag\nA zone where triggered abilities wait.\ndeck\nThe cards a player uses.\n"
        + footer.format(3)
    )
    document = Document(id="x", path="cr.txt", game="lorcana", kind="comprehensive-rules", title="CR")
    result = parse_source(document, decode("cr.txt", text.encode("utf-8")))
    assert coverage(result).complete and result.unparsed == [] and result.warnings == []
    read = [(e.kind, e.headword, e.text, e.references) for e in result.entries]
    assert read == [
        ("introduction", "Introduction", "Introduction\n\nThis document covers the rules.", []),
        ("chapter", "1", "CONCEPTS", []),
        ("section", "1.1", "General", []),
        (
            "rule",
            "1.1.1",
            "Players need a deck of cards (see 2.1.1).\n\nExample: A deck. 1.1.3 is cited here.",
            ["2.1.1"],
        ),
        ("chapter", "2", "GAMEPLAY", []),
        ("section", "2.1", "Setup", []),
        ("rule", "2.1.1", "Shuffle.", []),
        ("glossary entry", "bag", "A zone where triggered abilities wait.", []),
        ("glossary entry", "deck", "The cards a player uses.", []),
    ]
    assert str(document.date) == "2024-05-20"


def test_a_numbering_is_detected_and_numbered_rules_are_told() -> None:
    assert detect(["   1.1.1. A rule.", "   1.1.2. Another."]) is DOTTED
    assert detect(["   100.1. A rule.", "   100.1a A subrule."]) is MAGIC
    assert (
        numbered_rules(["1.1.1. A rule.", "Some text", "1.1.2. Another.", "more"])
        == "2 of 4 lines start with a rule number"
    )
    assert numbered_rules(["Some text", "more", "and more", "still more", "1.1. A heading"]) is None
    assert cited_rules("see 7.1.2 and section 9, or rules 4.3.4.5 through 4.3.4.6.", DOTTED) == [
        "7.1.2", "9", "4.3.4.5", "4.3.4.6"]  # fmt: skip
