"""A page of two PDF columns flowed onto one line (`rulings.lines.flowed`): read at its headwords, the legend apart,
every entry whose words may interleave two columns warned, nothing lost.

The fixtures (tests/fixtures/flowed/) are written in that shape: a Current Rulings sheet whose two columns'
headwords stand in a row (``*hull icon – *tags – ...``) and a Glossary introduction with an icon legend read
across its sentences. The real pages of that shape are checked too (skipped without ../shared).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from helpers import FIXTURES, SHARED
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.lines.flowed import COLUMNS, heads_in_a_row, read_line
from rulings.lines.noise import interleaved_at
from rulings.model import ParseResult
from rulings.parse import coverage, parse_file

FLOWED = FIXTURES / "flowed"
REAL = SHARED / "real"
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/real (excerpts of real published pages) is absent (only beside the project)"
)


def shape(result: ParseResult) -> list[tuple[str, str, bool, bool]]:
    return [(e.kind, e.headword, e.marked, e.partial) for e in result.entries]


def interleaved(result: ParseResult) -> list[str]:
    found = (re.match(r".*?:1: ('.*?'|the front matter) holds words of two PDF columns", w) for w in result.warnings)
    return [m.group(1).strip("'") for m in found if m]


def test_a_rulings_sheet_of_two_columns_on_one_line_is_read_at_its_headwords() -> None:
    path = FLOWED / "rulings-two-columns.txt"
    result = parse_file(path, "current-rulings")
    assert shape(result) == [
        ("introduction", "Introduction", False, False),
        ("heading", "RULINGS – General", False, False),
        ("ruling", "hull icon", True, False),
        ("ruling", "tags", True, False),
        ("ruling", "docking", False, False),
        ("ruling", "Ore Hauler", False, True),
        ("ruling", "Zed", False, True),
    ]
    texts = {e.headword: e.text for e in result.entries}
    assert (
        texts["docking"]
        == "named by other cards and do nothing alone. A ship docks at an outpost of its own affiliation."
    )
    assert texts["hull icon"] == texts["tags"]
    assert texts["tags"].startswith("This icon marks a ship") and texts["tags"].endswith("traits do and Tags are")
    assert interleaved(result) == ["hull icon", "tags", "docking", "Ore Hauler", "Zed"]
    assert f"{path}:1: 'hull icon' holds words of two PDF columns read across on one line: kept as printed, not " \
        "separated; it stands beside 'tags' (headwords in a row) and shows the text after them, which holds both" \
        in result.warnings  # fmt: skip
    assert result.unparsed == [] and result.split == [1] and coverage(result).complete


def test_a_later_page_begun_mid_entry_keeps_that_text_apart_and_finds_a_headword_run_into() -> None:
    """The text before the first headword of a page that names no document continues an entry of an earlier
    page (a note, warned); ``ships with Kobali Shuttle – a cloak`` is the other column running into a title."""
    path = FLOWED / "rulings-two-columns-page-2.txt"
    result = parse_file(path, "current-rulings")
    assert shape(result) == [
        ("note", "(continued)", False, False),
        ("ruling", "mirror icon", True, False),
        ("ruling", "nebula", True, False),
        ("ruling", "Kobali Shuttle", False, False),
        ("ruling", "Lakat", False, False),
    ]
    texts = {e.headword: e.text for e in result.entries}
    assert (
        texts["(continued)"]
        == "ship is stopped and its crew may not attempt the mission again this turn. Dilemmas that"
    )
    assert texts["Kobali Shuttle"] == "a cloak. Its range cost is 2."
    assert texts["nebula"].endswith("entered only by ships with")
    assert result.warnings[0] == (
        f"{path}:1: the text before the first headword continues an entry of an earlier page "
        "('ship is stopped and its crew may not att'...): kept apart as a note, not read as an entry"
    )
    assert interleaved(result) == ["mirror icon", "nebula", "Kobali Shuttle", "Lakat"]
    assert coverage(result).complete


def test_a_glossary_page_with_its_icon_legend_read_across_keeps_the_legend_apart() -> None:
    path = FLOWED / "glossary-two-columns.txt"
    result = parse_file(path, "glossary")
    assert shape(result) == [
        ("introduction", "glossary-two-columns", False, False),
        ("legend", "[AB]", False, False),
        ("legend", "[Cx]", False, False),
        ("legend", "[DM]", False, False),
        ("legend", "[Ep]", False, False),
        ("glossary entry", "Reading the Glossary", False, False),
        ("legend", "[Rt]", False, False),
        ("glossary entry", "Sorting", False, True),
        ("legend", "[ZZ]", False, False),
    ]
    legend = [e.text for e in result.entries if e.kind == "legend"]
    assert legend == ["Alpha Base", "Cortex", "Delta Mark", "Epsilon", "Red Tower", "Zulu Zone"]
    texts = {e.headword: e.text for e in result.entries}
    assert texts["Reading the Glossary"] == "Look up the card first; then look up the term."
    assert texts["glossary-two-columns"].endswith("Answers from staff are not binding until they are printed.")
    assert interleaved(result) == ["the front matter", "Reading the Glossary", "Sorting"]
    assert (
        f"{path}:1: 6 icon legend items read apart from the text they interleave ([AB] ... [ZZ]), each named by the "
        "words its code abbreviates (more words of a name stay in the text)" in result.warnings
    )
    assert coverage(result).complete


@pytest.mark.parametrize(
    "name", ["rulings-two-columns.txt", "rulings-two-columns-page-2.txt", "glossary-two-columns.txt"]
)
def test_every_character_of_the_line_is_in_one_piece(name: str) -> None:
    line = (FLOWED / name).read_text(encoding="utf-8").rstrip("\n")
    at = interleaved_at(line)
    assert at is not None
    owned = [i for piece in read_line(line, at) for s, e in piece.spans for i in range(s, e)]
    assert sorted(owned) == list(range(len(line)))


def test_a_kind_that_does_not_read_such_pages_still_reports_the_line_unparsed(tmp_path: object) -> None:
    result = parse_file(FLOWED / "glossary-two-columns.txt", "faq")
    assert result.unparsed == [1] and result.entries == []
    assert result.warnings == [
        f"{FLOWED / 'glossary-two-columns.txt'}:1: two columns interleaved on one line "
        "(from '[AB] Alpha Base all the rules as of 2031'): the entries cannot be told apart; "
        "the line is reported as unparsed"
    ]


@needs_real
def test_the_2010_current_rulings_on_one_line_are_read_at_their_headwords() -> None:
    path = REAL / "1e-crd-2010-06-11.txt"
    result = parse_file(path, "current-rulings")
    assert shape(result) == [
        ("introduction", "Introduction", False, False),
        ("heading", "RULINGS – General", False, False),
        ("ruling", "22nd century icon", True, False),
        ("ruling", "keywords", True, False),
        ("ruling", "affiliation", False, False),
        ("ruling", "Altonian Brain Teaser", False, True),
        ("ruling", "Khan", False, True),
    ]
    texts = {e.headword: e.text for e in result.entries}
    assert texts["Introduction"].endswith("please visit http://www.trekcc.org.")
    assert texts["affiliation"].startswith("referenced by other cards, they have no built in function.")
    assert texts["affiliation"].endswith("may use them if applicable (see stopped.)")
    assert interleaved(result) == ["22nd century icon", "keywords", "affiliation", "Altonian Brain Teaser", "Khan"]
    assert result.unparsed == [] and coverage(result).complete
    assert result.document.declared_date == dt.date(2010, 6, 11)  # its title: "... Document (11 June 2010)"


@needs_real
def test_the_glossary_1_6_introduction_in_two_columns_is_read_with_its_legend() -> None:
    path = REAL / "1e-glossary-1.6-intro-2col.txt"
    result = parse_file(path, "glossary")
    assert [e.headword for e in result.entries if e.kind != "legend"] == [
        "1e-glossary-1.6-intro-2col",
        "How to use the Glossary",
    ]
    legend = [f"{e.headword} {e.text}" for e in result.entries if e.kind == "legend"]
    assert legend == [
        "[AU] Alternate Universe", "[Bar] Barash", "[BO] Borg", "[Cmd] Command", "[Com] Communication",
        "[Def] Defense", "[DQ] Delta Quadrant", "[EE] U.S.S. Enterprise-E", "[Ex] U.S.S. Excelsior",
        "[GQ] Gamma Quadrant", "[Holo] Holographic", "[HA] Hidden Agenda", "[KW] Ketracel-White", "[Maq] Maquis",
        "[Nav] Navigation", "[Nem] Nemesis", "[OCD] Optical Compact Disk", "[Orb] Orb", "[P] Planet",
    ]  # fmt: skip
    clean = (REAL / "1e-glossary-1.6-intro.txt").read_text(encoding="utf-8")
    how = next(e.text for e in result.entries if e.headword == "How to use the Glossary")
    assert how.startswith("You do not need to read this document from cover to cover.")
    assert how.split()[:12] == clean.split("How to use the Glossary – ")[1].split()[:12]
    assert interleaved(result) == ["the front matter", "How to use the Glossary"]
    assert result.unparsed == [] and coverage(result).complete


def test_headwords_in_a_row_unmarked_show_two_columns_but_a_sub_topic_does_not() -> None:
    prose = "These rulings settle the cases the rulebook leaves open and bind every event of the season. " * 4
    assert heads_in_a_row("It ends here. Ore Hauler – Zed – The hauler carries ore.") == 14
    assert interleaved_at(prose + "It ends here. Ore Hauler – Zed – The hauler carries ore.") == len(prose) + 14
    assert interleaved_at(prose + "It ends. actions – step 1: initiation – Once you begin, go on.") is None
    assert interleaved_at(prose + "It ends. Some words here – and more – Then it goes on.") is None


def test_a_version_read_from_two_columns_says_so_in_its_note(tmp_path: Path) -> None:
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    (library / "stccg" / "sheet.txt").write_bytes((FLOWED / "rulings-two-columns.txt").read_bytes())
    (library / "library.toml").write_text(
        '[[document]]\nid = "sheet"\nfile = "stccg/sheet.txt"\ngame = "stccg"\nkind = "current-rulings"\n'
        'title = "Pocket Rulings Sheet"\nversion = "1"\ndate = "2001-05-03"\n',
        encoding="utf-8",
    )
    build(library, tmp_path / "kb")
    with KnowledgeBase(current(tmp_path / "kb")) as kb:
        docking = kb.show("docking", game="stccg")["parts"][0]
    assert (
        docking["text"]
        == "named by other cards and do nothing alone. A ship docks at an outpost of its own affiliation."
    )
    assert docking["note"] == COLUMNS
