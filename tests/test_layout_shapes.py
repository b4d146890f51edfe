"""Published layouts the parsers misread, each as a general rule, on texts written here in that shape.

Page numbers that skip pages, a page that starts inside an entry and holds only its sub-headings,
an en dash with no space after it, a title line read as ``headword - text``, the front matter of a
one-line copy with its dash lost or an abbreviation before it, and two PDF columns read across.
"""

from __future__ import annotations

from pathlib import Path

from rulings.model import ParseResult
from rulings.parse import coverage, parse_file
from rulings.reading import reading, refusal


def parse(tmp_path: Path, text: str, kind: str = "glossary", titles: frozenset[str] = frozenset()) -> ParseResult:
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8")
    return parse_file(path, kind, titles)


def heads(result: ParseResult, kind: str = "glossary entry") -> list[str]:
    return [e.headword for e in result.entries if e.kind == kind]


def text_of(result: ParseResult, headword: str) -> str:
    return next(e.text for e in result.entries if e.headword == headword)


PAGES = """- 3 -
Anchor Point – A place where ships
may stop on their way.
Beacon – This event marks a location
until the end of the turn, when it is
- 4 -
discarded. Both players see it.
Caldera – A planet mission with a
volcanic surface.
- 9 -
ship may then move again, even if it
has used all its RANGE.
Drift – This event moves each ship
one location a turn.
"""


def test_consecutive_pages_join_a_skipped_page_breaks_continuity(tmp_path: Path) -> None:
    result = parse(tmp_path, PAGES)
    assert heads(result) == ["Anchor Point", "Beacon", "Caldera", "Drift"]
    beacon = next(e for e in result.entries if e.headword == "Beacon")
    assert beacon.lines == [4, 5, 7]  # page 4 continues page 3's last entry
    assert [e.lines for e in result.entries if e.headword in ("Caldera", "Drift")] == [[8, 9], [13, 14]]
    assert result.unparsed == [11, 12]
    assert result.chrome == [1, 6, 10]
    assert result.warnings == [
        f"{tmp_path / 'doc.txt'}:11: lines 11-12, open page 9 after page 4 (pages 5-8 are not in this file): "
        "the end of an entry not in this file; reported as unparsed"
    ]
    assert coverage(result).complete


SUB_HEADINGS = """the opponent may not respond to it.
See the examples under Nullify.
Triggers – One or more cards or actions
that, once they occur, start a dilemma's
delayed effect.
"Waiting" – A dilemma that waits
for its trigger.
"""


def test_a_page_begun_inside_an_entry_holds_its_sub_headings(tmp_path: Path) -> None:
    result = parse(tmp_path, SUB_HEADINGS)
    assert heads(result) == []
    assert heads(result, "sub-heading") == ["Triggers", '"Waiting"']
    assert result.unparsed == [1, 2]
    path = tmp_path / "doc.txt"
    assert result.warnings[1:] == [
        f"{path}:3: 'Triggers' is held as a sub-heading of the entry this page begins inside "
        "(no game term, card title or card's entry)",
        f"{path}:6: '\"Waiting\"' is held as a sub-heading of the entry this page begins inside "
        "(no game term, card title or card's entry)",
    ]


def test_a_card_title_game_term_or_card_entry_there_is_an_entry(tmp_path: Path) -> None:
    text = SUB_HEADINGS.replace("Triggers – One or more", "Triggers – This dilemma needs one or more")
    assert heads(parse(tmp_path, text)) == ["Triggers", '"Waiting"']
    assert heads(parse(tmp_path, SUB_HEADINGS, titles=frozenset({"Triggers"}))) == ["Triggers", '"Waiting"']
    lower = SUB_HEADINGS.replace("Triggers – ", "triggers – ")
    assert heads(parse(tmp_path, lower)) == ["triggers", '"Waiting"']


def test_a_capitalised_fragment_with_no_front_matter_word_continues_an_entry(tmp_path: Path) -> None:
    text = "Romulan ships present are both a force\nand a fleet for that battle.\nzone – A region of space.\n"
    result = parse(tmp_path, text)
    assert [e.kind for e in result.entries] == ["glossary entry"]
    assert result.unparsed == [1, 2]
    titled = "STAR TREK GLOSSARY\nVersion 2.0\nZone – A region of space.\n"
    assert [e.kind for e in parse(tmp_path, titled).entries] == ["introduction", "glossary entry"]


def test_an_en_dash_with_no_space_after_starts_an_entry(tmp_path: Path) -> None:
    text = (
        "Isolde –This mission may be attempted\nby any crew.\n"
        "Junction – Where two lines meet. See\nrouting, skills –modifying.\n"
    )
    result = parse(tmp_path, text)
    assert heads(result) == ["Isolde", "Junction"]
    assert text_of(result, "Isolde") == "This mission may be attempted by any crew."
    assert result.entries[1].references == ["routing", "skills - modifying"]


def test_a_title_line_is_the_documents_title(tmp_path: Path) -> None:
    text = (
        "Pocket Glossary - K\n\nkeywords Some cards name words that other cards look for.\n\n"
        "killing When a personnel is killed, place it in its owner's discard pile.\n"
    )
    result = parse(tmp_path, text)
    assert [(e.kind, e.headword) for e in result.entries] == [
        ("introduction", "doc"), ("glossary entry", "keywords"), ("glossary entry", "killing"),
    ]  # fmt: skip
    assert text_of(result, "doc").startswith("Pocket Glossary - K")
    versioned = "Star Trek Pocket Glossary Version 2.1 – March 2001\nKessel – A planet.\n"
    assert heads(parse(tmp_path, versioned)) == ["Kessel"]


ONE_LINE = (
    "This document holds every rule of the game as of May 2010. We recommend that you set aside every older "
    "rules document and turn to this Glossary for all questions. Answers given by the staff are not binding until "
    "they are printed here. Tournament directors may still rule as they see fit. Full details of scoring "
    "are in the tournament guide. How to read this Glossary  You need not read it from start to end. "
    "Look up a card by its title first."
)


def test_front_matter_with_its_dash_lost_in_a_one_line_copy(tmp_path: Path) -> None:
    result = parse(tmp_path, ONE_LINE + "\n")
    assert heads(result) == ["How to read this Glossary"]
    assert text_of(result, "How to read this Glossary") == (
        "You need not read it from start to end. Look up a card by its title first."
    )
    assert text_of(result, "doc").endswith("Full details of scoring are in the tournament guide.")


def test_an_initials_period_ends_no_sentence(tmp_path: Path) -> None:
    text = ONE_LINE.replace("are in the tournament guide. How to read this Glossary  You", "are in I.K.S. Vorn – You")
    result = parse(tmp_path, text + "\n")
    assert heads(result) == []
    assert "I.K.S. Vorn – You need not" in text_of(result, "doc")


TWO_COLUMNS = (
    "Pocket Glossary Version 2.1 – This document is complete; it holds [AB] Alpha Base all the rules as "
    "of 2001 and we recommend [Cx] Cortex that you use it for every question. Later updates to the rules "
    "[Dm] Delta Mark come in a separate document. Answers from staff are not binding "
    "[Ep] Epsilon until they are printed. How to use the Glossary – Look up the card first."
)


def test_two_columns_interleaved_on_one_line_are_read_at_their_headwords_and_warned(tmp_path: Path) -> None:
    """Issue 50: read from the layout (`rulings.lines.flowed`, tests/test_flowed.py), not refused; an FAQ still
    reports such a line unparsed."""
    result = parse(tmp_path, TWO_COLUMNS + "\n")
    assert [(e.kind, e.headword) for e in result.entries] == [
        ("introduction", "doc"),
        ("legend", "[AB]"),
        ("legend", "[Cx]"),
        ("legend", "[Dm]"),
        ("legend", "[Ep]"),
        ("glossary entry", "How to use the Glossary"),
    ]
    assert result.unparsed == []
    assert f"{tmp_path / 'doc.txt'}:1: 'How to use the Glossary' holds words of two PDF columns read across on one " \
        "line: kept as printed, not separated" in result.warnings  # fmt: skip
    assert parse(tmp_path, TWO_COLUMNS + "\n", "faq").unparsed == [1]
    heads_in_a_row = "x" * 300 + " RULINGS *hull icon – *tags – This icon marks a ship. Tags are words."
    rulings = parse(tmp_path, heads_in_a_row + "\n", "current-rulings")
    assert [(e.headword, e.text) for e in rulings.entries if e.kind == "ruling"] == [
        ("hull icon", "This icon marks a ship. Tags are words."),
        ("tags", "This icon marks a ship. Tags are words."),
    ]


FAQ = """RULES QUESTIONS
Missions | Ships | Personnel

Q: TIMING
Q: BORROWED SHIPS
Q: SHUTTLES

TIMING -- Q: When may I respond to a card?
A: Right after it is played.

BORROWED SHIPS: Q: May I fly my opponent's ship?
A: Only with a card that lets you.
"""


def test_faq_questions_named_before_q_and_the_index_is_chrome(tmp_path: Path) -> None:
    result = parse(tmp_path, FAQ, "faq")
    assert heads(result, "question") == ["TIMING", "BORROWED SHIPS"]
    assert heads(result, "section") == []
    assert text_of(result, "TIMING") == "Q: When may I respond to a card?\n\nA: Right after it is played."
    assert result.chrome == [2, 4, 5, 6]  # the bar and the index, SHUTTLES though no such question is here
    assert coverage(result).complete


CR_2E = (
    "ire turn, that personnel may not be killed. * range When a ship moves, count the spaces it passes. "
    "Hull Breach Erratum: Destroy this ship at the end of the turn.\n\n"
    "Current Rulings (3/4/09)\n\n"
    "Current Rulings are periodic updates to the Second Edition Rulebook. Entries that are new are marked with "
    "an asterisk (*) before the topic. These rulings are effective immediately. RULINGS Away Party Whether or not "
    "it is attempting a mission, an away party stays together. boarding When your personnel board a ship, they "
    "are aboard. Captain's Log Erratum: Draw a card. See drawing. damage Losing shields does not destroy a ship."
)


def test_2e_current_rulings_run_into_a_paragraph_with_dashless_topics(tmp_path: Path) -> None:
    result = parse(tmp_path, CR_2E + "\n", "current-rulings")
    assert heads(result, "ruling") == [
        "Away Party", "boarding", "Captain's Log", "damage", "range", "Hull Breach",
    ]  # fmt: skip
    assert text_of(result, "Away Party") == ("Whether or not it is attempting a mission, an away party stays together.")
    assert text_of(result, "Captain's Log") == "Erratum: Draw a card."
    assert next(e for e in result.entries if e.headword == "Captain's Log").references == ["drawing"]
    assert [e.marked for e in result.entries if e.kind == "ruling"] == [False, False, False, False, True, False]
    assert text_of(result, "Introduction").startswith("Current Rulings (3/4/09)")
    assert result.warnings[-1] == (
        f"{tmp_path / 'doc.txt'}:1: the text starts mid-sentence with rulings before the introduction "
        "(a page printed out of order); 'ire turn, that personnel may not be kill'... ends a ruling not in this file"
    )
    assert coverage(result).complete


UNMARKED_QA = """These answers cover questions from recent tournaments.
Can a facility be "stopped"? Or only its crew?
No. Only personnel and ships are stopped.
Does Cave-In hit a ship's crew?
Yes. Treat it as if it said "crew or Away Team."
It was printed before ships could attempt missi"""


def test_a_qa_list_with_no_q_marks_and_a_cut_off_last_answer(tmp_path: Path) -> None:
    result = parse(tmp_path, UNMARKED_QA, "faq")
    assert heads(result, "question") == [
        'Can a facility be "stopped"? Or only its crew?',
        "Does Cave-In hit a ship's crew?",
    ]
    last = result.entries[-1]
    assert (
        last.text
        == 'Yes. Treat it as if it said "crew or Away Team."\n\nIt was printed before ships could attempt missi'
    )
    assert [e.partial for e in result.entries] == [False, False, True]
    assert result.warnings == [
        f"{tmp_path / 'doc.txt'}:6: \"Does Cave-In hit a ship's crew?\" is cut off where the file ends (...'missi'); "
        "kept as a partial entry"
    ]


def test_a_glossary_page_cut_off_before_a_skipped_page_is_partial(tmp_path: Path) -> None:
    result = parse(tmp_path, PAGES)
    assert [e.headword for e in result.entries if e.partial] == []  # every page here ends a sentence
    cut = parse(tmp_path, PAGES.replace("volcanic surface.", "volcanic surf"))
    assert [e.headword for e in cut.entries if e.partial] == ["Caldera"]
    assert cut.warnings[-1] == (
        f"{tmp_path / 'doc.txt'}:9: 'Caldera' is cut off where its page ends (...'surf'); kept as a partial entry"
    )


RULEBOOK = """POCKET RULES OF PLAY
Version 2.0

CONTENTS
INTRODUCTION . . . . . . . . 1
PLAYING . . . . . . . . . . . 2

VERSION 4

Welcome to the game. Each player builds a deck.

Play Order And Phases: Super Turns
Each turn has three phases, played in order.

Uploaded by a fan site - page 2 of 9
"""


def test_rulebook_title_contents_headers_and_a_heading_run_into_its_text(tmp_path: Path) -> None:
    result = parse(tmp_path, RULEBOOK, "rulebook")
    assert [(e.kind, e.headword, e.lines) for e in result.entries] == [
        ("preamble", "doc", [1, 2, 10]),
        ("section", "Play Order And Phases: Super Turns", [12, 13]),
    ]
    assert result.entries[0].text.split("\n\n")[0] == "POCKET RULES OF PLAY"
    assert result.chrome == [4, 5, 6, 8, 15]
    assert coverage(result).complete


def test_a_copys_note_in_a_headword_is_split_off(tmp_path: Path) -> None:
    text = (
        "lanes (updated by Current Rulings) – A lane joins two locations.\n"
        "Leah Brahms (Holodeck) – This personnel is a hologram.\n"
    )
    result = parse(tmp_path, text)
    assert heads(result) == ["lanes", "Leah Brahms (Holodeck)"]
    assert result.entries[0].fields == {"note": "updated by Current Rulings"}
    assert text_of(result, "lanes") == "A lane joins two locations."
    assert result.warnings == [
        f"{tmp_path / 'doc.txt'}:1: the copy's note (updated by Current Rulings) is kept apart "
        "from the headword 'lanes'"
    ]


def test_a_page_listing_its_own_letter_ranges_is_a_part(tmp_path: Path) -> None:
    text = (
        "Rulings Updated 04/02/03\n\nINTRODUCTION | RULINGS A-L | RULINGS M-Z\n\nRULINGS\n\n"
        "Nebula - This mission may be attempted by any ship.\n\nOrbital Station - See facility.\n"
    )
    result = parse(tmp_path, text, "current-rulings")
    assert result.document.part == "M-Z"
    assert result.warnings[-1] == (
        f"{tmp_path / 'doc.txt'}:7: the page lists its own letter ranges (A-L, M-Z); read as the part M-Z, "
        "which rescinds no other part"
    )
    whole = parse(tmp_path, text.replace("INTRODUCTION | RULINGS A-L | RULINGS M-Z", "INTRODUCTION | RULINGS"))
    assert whole.document.part == ""


def test_a_page_of_one_word_sub_headings_is_read_one_of_several_words_is_not(tmp_path: Path) -> None:
    """A page begun inside an entry holding only its sub-headings, each one word as the Glossary prints
    them, is read (the lines before them stay unparsed); a sub-heading of several words may be a card the
    catalog lacks: its lines are not read."""
    path = tmp_path / "doc.txt"
    path.write_text(SUB_HEADINGS, encoding="utf-8")
    assert refusal(parse_file(path, "glossary")) is None
    assert reading(parse_file(path, "glossary")).read == 5
    path.write_text(SUB_HEADINGS.replace("Triggers – ", "Delayed Triggers – "), encoding="utf-8")
    assert reading(parse_file(path, "glossary")).read == 2


JOINED_PAGES = """Glossary - K

Kelvan
A species from another galaxy. See species.

Kevin Uxbridge
This personnel may nullify a dilemma only whi

Glossary - L

Lakat
A planet mission of the Cardassian border.
"""


def test_an_entry_cut_off_where_a_joined_html_page_ends_is_partial(tmp_path: Path) -> None:
    """HTML Glossary pages joined into one file, each an excerpt: the entry before a page's title that stops
    mid-word is cut off where its page ends (issue 50, the Q page of the stccgfaq copy)."""
    result = parse(tmp_path, JOINED_PAGES)
    assert [(e.headword, e.partial) for e in result.entries if e.kind == "glossary entry"] == [
        ("Kelvan", False),
        ("Kevin Uxbridge", True),
        ("Lakat", False),
    ]
    assert f"{tmp_path / 'doc.txt'}:7: 'Kevin Uxbridge' is cut off where its page ends (...'whi'); kept as a partial " \
        "entry" in result.warnings  # fmt: skip
