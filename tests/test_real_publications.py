"""Excerpts of real published pages (../shared/real, see its SOURCES.md) parsed with their hand-counted entries.

Each file is the first ~2,000 characters of its page: a yumpu page of the Glossary PDF starts in
the middle of an entry (those lines are reported unparsed, not filed as an introduction) and the
last entry may be cut off. The entries listed here were counted by reading each file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import SHARED
from kb.ingest.pipeline import build, report_for
from rulings.model import ParseResult
from rulings.parse import coverage, parse_file
from rulings.reading import reading, refusal
from web.cli.main import main

REAL = SHARED / "real"
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/real (excerpts of real published pages) is absent (only beside the project)"
)

GLOSSARIES: dict[str, tuple[list[str], list[int]]] = {
    # file: (headwords in order, lines reported unparsed)
    "1e-glossary-yumpu-p06.txt": (
        ["Aphasia Device", "acquired", "Arachnia", "Arbiter of Succession", "Arne Darvin",
         "Art of Diplomacy, The", "artifact"],
        [1, 2],
    ),
    "1e-glossary-yumpu-p12.txt": (["between", "Beware of Q"], list(range(1, 27))),
    "1e-glossary-yumpu-p18.txt": (
        ["cloaking device", "Clone Machine", "Clown: Playing Doctor, The", "Coalescent Organism", "collective",
         "Colony", "combo dilemma"],
        [1, 2, 3],
    ),
    "1e-glossary-yumpu-p22.txt": (
        ["Dathon", "David Marcus", "D\u2019deridex Advanced", "deactivated", "Dead End", "Dead in Bed",
         "Deanna Troi (First Contact)"],
        [],
    ),
    "1e-glossary-stccgfaq-BQT.txt": (
        ["Bajoran", "Bajoran Civil War", "Bajoran Interceptor", "Bajoran Raider", "Bajoran Resistance Cell",
         "Bajoran Shrine", "Bajoran Wormhole",
         "Q", "Q2", "Qapla'!", "Q-Continuum side deck",
         "tactic", "Talosian Cage", "Tal Shiar", "Tama", "Tamarian-related dilemmas", "Tantalus Field",
         "Tarchannen Study", "Tarellian Plague Ship"],
        [],
    ),
    "1e-glossary-1.6-intro.txt": (["1e-glossary-1.6-intro", "How to use the Glossary"], []),
    "1e-glossary-1.8-intro.txt": (["1e-glossary-1.8-intro", "How to use the Glossary"], []),
}  # fmt: skip


def parse(name: str, kind: str = "glossary") -> ParseResult:
    return parse_file(REAL / name, kind)


def entry_text(result: ParseResult, headword: str) -> tuple[str, list[str]]:
    entry = next(e for e in result.entries if e.headword == headword)
    return entry.text, entry.references


@needs_real
@pytest.mark.parametrize("name", sorted(GLOSSARIES))
def test_glossary_excerpt_entries(name: str) -> None:
    headwords, unparsed = GLOSSARIES[name]
    result = parse(name)
    assert [e.headword for e in result.entries] == headwords
    assert result.unparsed == unparsed
    assert result.not_entries == []
    c = coverage(result)
    assert c.complete and c.not_entries == 0


@needs_real
def test_pdf_lines_are_paragraphs() -> None:
    p22 = parse("1e-glossary-yumpu-p22.txt")
    assert entry_text(p22, "Dathon") == (
        "This personnel is the matching commander of the Tama. His special skill nullifies El-Adrel Creature "
        "and Shaka, When the Walls Fell.",
        [],
    )
    assert entry_text(p22, "D\u2019deridex Advanced")[1] == ["attribute enhancement", "skills - using"]
    p12 = parse("1e-glossary-yumpu-p12.txt")
    assert entry_text(p12, "between")[0] == (
        "When a card allows a ship or personnel to move between one location and another, it may move in either "
        'direction. For example, Bajoran Wormhole: Mirror Universe allows a ship to move "between here and a '
        'Bajoran Wormhole."\n\nThe ship may move either from or to the Bajoran Wormhole.'
    )
    p18 = parse("1e-glossary-yumpu-p18.txt")
    assert entry_text(p18, "cloaking device") == (
        "When engaged, this special equipment makes a ship invisible and invulnerable to attack.",
        ["cloaking and phasing"],
    )
    assert entry_text(p18, "Clown: Playing Doctor, The") == ("", ["skills - First-listed skill"])
    p06 = parse("1e-glossary-yumpu-p06.txt")
    assert entry_text(p06, "Aphasia Device") == ("", ["quarantine"])
    assert entry_text(p06, "Arachnia") == ("", ["Borg - Borg-affiliation ships"])
    assert entry_text(p06, "Art of Diplomacy, The")[0].startswith(
        "This incident allows your personnel to use 2 Treachery as if it were 1 Diplomacy (either one personnel "
        "with Treachery x2, or two personnel, each with Treachery). For example,"
    )
    assert "\n" not in entry_text(p06, "Art of Diplomacy, The")[0]
    assert p06.warnings == [
        f"{REAL / '1e-glossary-yumpu-p06.txt'}:1: lines 1-2, before the first entry, start mid-sentence: "
        "the end of an entry not in this file; reported as unparsed"
    ]


@needs_real
def test_html_glossary_layouts() -> None:
    result = parse("1e-glossary-stccgfaq-BQT.txt")
    assert result.chrome == [1, 3, 5, 7, 9, 37, 39, 41, 67, 80, 95, 97, 99, 101, 103]
    assert entry_text(result, "Bajoran Raider") == ("", ["report with crew"])
    assert entry_text(result, "Q2") == ("", ["Q", "Q-related dilemma"])
    assert entry_text(result, "Bajoran Shrine")[0].split("\n\n")[1].startswith('The "other Bajoran" who must')
    assert entry_text(result, "Tarellian Plague Ship") == ("Revised text:\n\nEntire crew immediately dies", [])
    assert entry_text(result, "Qapla'!")[0].startswith(
        "In Federation Standard, the title, lore, and game text of this interrupt would read:\n\nSUCCESS!\n\n"
        "When threatened, fight."
    )


@needs_real
@pytest.mark.parametrize(("name", "date"), [("1e-glossary-1.6-intro.txt", "October 1999"),
                                            ("1e-glossary-1.8-intro.txt", "August 2002")])  # fmt: skip
def test_how_to_use_the_glossary_is_an_entry(name: str, date: str) -> None:
    result = parse(name)
    introduction, how_to = result.entries
    assert introduction.kind == "introduction"
    assert introduction.text.startswith(f"This document is comprehensive; it contains all Star Trek Customizable "
                                        f"Card Game rules and rulings as of {date}.")  # fmt: skip
    assert introduction.text.endswith("rulings.") or introduction.text.endswith("scoring.")
    assert how_to.kind == "glossary entry"
    assert how_to.text.startswith("You do not need to read this document from cover to cover.")
    assert result.split == [1]


@needs_real
def test_rulebook_contents_without_dot_leaders() -> None:
    result = parse("2e-rulebook-1.1.txt", "rulebook")
    assert [(e.kind, e.headword, str(e.span)) for e in result.entries] == [
        ("preamble", "2e-rulebook-1.1", "1-3"),  # the title line is the document's title, no sub-section
        ("section", "INTRODUCTION", "103-113"),
    ]
    assert result.entries[0].text == "SECOND EDITION RULEBOOK\n\nVersion 1.1 from 08/19/2003"
    assert result.chrome == [5, *range(7, 102, 2)]
    introduction = result.entries[1].text.split("\n\n")
    assert len(introduction) == 5
    assert introduction[0].startswith("Welcome to a universe with endless possibilities.")
    assert introduction[-1] == "The risks will prove even greater against"
    assert coverage(result).complete


SUB_HEADINGS = [
    "Cures \u2013 A dilemma's cure applies only while it is in play.",
    "\u201cStopping\u201d \u2013 A stopped personnel stays stopped until the end of the turn.",
]


@needs_real
def test_sub_headings_are_warned_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real p22 page with two sub-headings put inside "Dead End": every real entry still found, the two
    lines warned with their file and line and counted by the parse, the build report and ``rulings parse``."""
    text = (REAL / "1e-glossary-yumpu-p22.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[19:19] = SUB_HEADINGS  # after line 19, inside Dead End
    page = tmp_path / "p22-with-sub-headings.txt"
    page.write_text("\n".join(lines), encoding="utf-8")
    result = parse_file(page, "glossary")
    assert [e.headword for e in result.entries] == GLOSSARIES["1e-glossary-yumpu-p22.txt"][0]
    dead_end = next(e for e in result.entries if e.headword == "Dead End")
    assert dead_end.lines == list(range(16, 29))
    assert [(n.line, n.headword, n.within) for n in result.not_entries] == [
        (20, "Cures", "Dead End"),
        (21, "\u201cStopping\u201d", "Dead End"),
    ]
    assert result.warnings == [
        f"{page}:20: 'Cures' looks like an entry but is read as part of 'Dead End' (out of alphabetical order "
        "with the entries around it)",
        f"{page}:21: '\u201cStopping\u201d' looks like an entry but is read as part of 'Dead End' (out of alphabetical "
        "order with the entries around it)",
        f"{page}:39: 'Deanna Troi (First Contact)' is cut off where the file ends (...'See'); kept as a partial entry",
    ]
    assert report_for(result).line() == (
        "p22-with-sub-headings: 7 entries, 0 chrome lines, 0 unparsed lines, 0 duplicates merged "
        "(39 non-blank lines, 100.0% accounted for); 2 entry-looking lines not made entries (see warnings)"
    )
    assert main(["parse", str(page), "--kind", "glossary"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[-2:] == [
        "coverage: 39 non-blank lines: 39 in entries, 0 duplicates merged, 0 chrome, 0 unparsed; 100.0% accounted "
        "for; 2 entry-looking lines not made entries (see warnings)",
        "read as glossary: 39 of 39 lines as Glossary entries (100.0%)",
    ]
    assert f"warning: {page}:20: 'Cures' looks like an entry" in out.err


EDITIONS = """
[[document]]
id = "glossary-1-6"
file = "stccg/1e-glossary-1.6-intro.txt"
game = "stccg"
kind = "glossary"
title = "Glossary"
version = "1.6"
date = "1999-10-01"

[[document]]
id = "glossary-1-8"
file = "stccg/1e-glossary-1.8-intro.txt"
game = "stccg"
kind = "glossary"
title = "Glossary"
version = "1.8"
date = "2002-08-01"
supersedes = "glossary-1-6"
"""


@needs_real
def test_how_to_use_the_glossary_is_versioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The two editions' "How to use the Glossary" are two versions of one topic, built and queried for real."""
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    (library / "library.toml").write_text(EDITIONS, encoding="utf-8")
    for name in ("1e-glossary-1.6-intro.txt", "1e-glossary-1.8-intro.txt"):
        (library / "stccg" / name).write_bytes((REAL / name).read_bytes())
    build(library, tmp_path / "kb")
    capsys.readouterr()
    assert main(["history", "--kb", str(tmp_path / "kb"), "How to use the Glossary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        "How to use the Glossary  (stccg:how-to-use-the-glossary): 2 version(s)",
        "1. 1999-10-01 -> 2002-08-01  [Glossary, version 1 of 2] original, superseded",
        "    Source: Glossary (1.6), 1999-10-01, line 1",
        "    Ended 2002-08-01: superseded by version 2 (Glossary (1.8), line 1)",
    ]
    assert "2. 2002-08-01 -> in force  [Glossary, version 2 of 2] replace, active" in lines


@needs_real
def test_a_page_begun_inside_an_entry_is_read_as_its_two_sub_headings() -> None:
    """p24, counted by hand: no entry starts on it; lines 1-14 end an entry of an earlier page (its
    "conditions" part); two sub-headings of that entry follow, Cures (lines 15-37) and “Stopping” (line 38,
    cut off). The page is read as the Glossary lays it out: 24 of 38 lines, the 14 unparsed, warned."""
    result = parse("1e-glossary-yumpu-p24.txt")
    assert [(e.kind, e.headword, e.lines[0], e.lines[-1]) for e in result.entries] == [
        ("sub-heading", "Cures", 15, 37),
        ("sub-heading", "\u201cStopping\u201d", 38, 38),
    ]
    assert result.unparsed == list(range(1, 15))
    assert len(result.warnings) == 4 and result.warnings[0].startswith(
        f"{REAL / '1e-glossary-yumpu-p24.txt'}:1: lines 1-14, before the first entry, start mid-sentence"
    )
    assert reading(result).read == 24 and refusal(result) is None
