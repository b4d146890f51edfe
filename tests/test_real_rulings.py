"""Real published Current Rulings and FAQ pages (``../shared/real/``), read entry by entry.

Each file is the first ~2,000 characters of a real page (see SOURCES.md there), so its last
entry may be cut off. The entries were counted by hand; each test names them exactly. Also
here: a condition on one paragraph of a ruling (MADRED) and a document that is one part of
an edition (``part`` in the manifest), through a real build.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from helpers import ROOT
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.model import ParseResult
from rulings.parse import coverage, parse_file

REAL = ROOT.parent / "shared" / "real"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason=f"the real published excerpts are not here ({REAL})")
D = dt.date.fromisoformat


def parse(name: str, kind: str) -> ParseResult:
    result = parse_file(REAL / name, kind)
    assert coverage(result).complete
    return result


def heads(result: ParseResult, kind: str) -> list[str]:
    return [e.headword for e in result.entries if e.kind == kind]


def entry(result: ParseResult, headword: str) -> str:
    return next(e.text for e in result.entries if e.headword == headword)


def test_groups_repost_cut_off_before_its_rulings() -> None:
    """4 change summaries (written ``TOPIC: text``; the last cut off), no ruling: the page ends first."""
    result = parse("1e-cr-1998-02-13-groups-repost.txt", "current-rulings")
    assert heads(result, "change summary") == [
        "BRAINWASH", "DUAL-ICON MISSIONS", "EQUIPMENT CARDS, AFFILIATION-SPECIFIC", "HOLOGRAPHIC PERSONNEL",
    ]  # fmt: skip
    assert heads(result, "ruling") == []
    assert entry(result, "DUAL-ICON MISSIONS") == (
        "Planet dilemmas are not removed during space-location scouting by Borg."
    )
    assert heads(result, "section") == ["SIGNIFICANT RULES CHANGES TO NOTE"]
    assert entry(result, "Introduction").split("\n\n")[2] == (
        "Current Rulings are periodic updates to the FAQ, including rules changes, clarifications and situations not "
        "addressed in the rulebook, supplements or FAQ. Current Rulings are the official supplement to the FAQ and "
        "should be used by tournament directors in making tournament rulings."
    )
    assert result.chrome == [1, 3, 4, 6, 8, 9, 10]  # the Google Groups header, its author Major Rakal included
    assert result.document.declared_date == D("1998-02-13")
    ending = "71: no RULINGS heading; the document ends before its rulings"
    assert f"{REAL / '1e-cr-1998-02-13-groups-repost.txt'}:{ending}" in result.warnings


def test_web_archive_capture_toolbar_is_chrome() -> None:
    """The toolbar (``Nov DEC Jul``, ``3 Dec 1998 - 15 Jul 2001``, ...) is chrome, no headword; the page
    ends inside the introduction (0 rulings)."""
    result = parse("1e-cr-1998-10-19-web-archive.txt", "current-rulings")
    assert set(range(1, 10)) <= set(result.chrome)
    assert heads(result, "ruling") == [] and heads(result, "change summary") == []
    intro = entry(result, "Introduction")
    assert intro.startswith("Star Trek\u2122 Customizable Card Game\u2122 Current Rulings\n\nReleased 10/19/98")
    assert "3 Dec 1998" not in intro and "capture" not in intro
    assert (result.document.declared_date, result.document.previous_date) == (D("1998-10-19"), D("1998-09-21"))


def test_mno_page() -> None:
    """4 rulings, the last cut off in its list of ships."""
    result = parse("1e-cr-1999-08-30-mno.txt", "current-rulings")
    assert heads(result, "ruling") == ["MADRED", "MANDARIN BAILIFF", "MARTOK", "MATCHING COMMANDER"]
    assert entry(result, "MARTOK") == (
        'This personnel has a clarification: His special download of "D\'k Tagh" should read "D\'k Tahg".'
    )
    assert result.chrome == list(range(1, 20, 2))  # the site's letter index ABC ... XYZ and "main"
    assert [e.kind for e in result.entries][:1] == ["heading"]
    madred = next(e for e in result.entries if e.headword == "MADRED")
    assert madred.text.split("\n\n")[1].startswith("Effective upon release of the Blaze of Glory expansion set.")
    assert madred.references == ["Cardassians", "Non-Aligned"]


def test_forum_repost_that_lost_its_line_breaks() -> None:
    """10 change summaries written with dashes and glued; 4 rulings after ``RULINGS*`` (the last cut off)."""
    result = parse("1e-cr-update-2001-12-05-forum-repost.txt", "current-rulings-update")
    assert heads(result, "change summary") == [
        "assimilation", "Cybernetics", "gender", "Harness Particle 010", "Holo-projectors", "In the Zone",
        "Q's Fantasy Women", "scouting locations", "Supernova", "white deprivation",
    ]  # fmt: skip
    assert heads(result, "ruling") == ["All Threes", "Ar-Q-ologist", "Assimilate Counterpart", "assimilation"]
    assert entry(result, "All Threes") == (
        "When you play this interrupt, reveal the first three cards and the next three cards from the top of your "
        "draw deck in two sets. You may not rearrange these sets."
    )
    assert next(e for e in result.entries if e.headword == "All Threes").references == ["any", "reveal", "in play"]
    assert heads(result, "section") == ["SIGNIFICANT RULINGS CHANGES AND CLARIFICATIONS"]
    cancelled = "The existing Glossary entry is cancelled upon release of Holodeck Adventures."
    assert entry(result, "Cybernetics") == cancelled
    assert entry(result, "Q's Fantasy Women") == "Errata: card is a Q-icon EVENT, not DILEMMA."
    summary = next(e for e in result.entries if e.kind == "change summary" and e.headword == "assimilation")
    assert summary.summary_of == "assimilation"
    assert result.chrome == [1]
    assert result.document.declared_date == D("2001-12-05")
    assert result.document.complete_set == [
        "Rulebook Version 1.7 (August 2000)", "Glossary Version 1.7 (August 2000)",
        "Current Rulings (12/05/01 - full version)",
    ]  # fmt: skip
    assert sorted(result.split) == [12, 13, 14, 16, 17, 21, 23, 25, 26]


def test_faq_missions_page() -> None:
    """3 questions, each by its short name; the index of names is chrome; the last answer is cut off."""
    result = parse("1e-faq-missions.txt", "faq")
    assert heads(result, "question") == ["DUPLICATE MISSIONS", "ABORTING MISSIONS", "INSUFFICIENT PERSONNEL"]
    assert result.unparsed == []
    assert result.chrome == [3, 12, 13, 14]
    assert entry(result, "DUPLICATE MISSIONS") == (
        "Q: 1) Can each player lay down the same mission card when creating the spaceline (i.e., each player lays "
        "down a Pegasus Search)?\n\n2) Can one player lay down more than one of the same mission (i.e., one player "
        "lays down three Pegasus Searches)?\n\nA: 1. Yes, each player can lay down the same mission unless you play "
        "with a house rule that prepares the players so they can agree on a substitute Mission for the duplicate."
        "\n\n2. No. This is stated in the rules on page 6: each mission card a player lays down must be unique."
    )
    assert heads(result, "section") == ["General"]


MANIFEST = """
{releases}
[[document]]
id = "cr-1999-08-30-mno"
file = "stccg/mno.txt"
game = "stccg"
kind = "current-rulings"
title = "Current Rulings"
version = "8/30/99"
date = "1999-08-30"
{part}
[[document]]
id = "cr-1999-08-30-abc"
file = "stccg/abc.txt"
game = "stccg"
kind = "current-rulings"
title = "Current Rulings"
version = "8/30/99"
date = "1999-08-30"
{part_abc}
"""
ABC = "RULINGS\n\nASSIMILATION - A Borg ruling of the A-C page.\n"


def _kb(tmp_path: Path, releases: str = "", part: bool = True) -> KnowledgeBase:
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    shutil.copy(REAL / "1e-cr-1999-08-30-mno.txt", library / "stccg" / "mno.txt")
    (library / "stccg" / "abc.txt").write_text(ABC, encoding="utf-8")
    (library / "library.toml").write_text(
        MANIFEST.format(
            releases=releases, part='part = "M-O"' if part else "", part_abc='part = "A-C"' if part else ""
        ),
        encoding="utf-8",
    )
    build(library, tmp_path / "kb")
    return KnowledgeBase(current(tmp_path / "kb"))


FIRST = (
    "This personnel does *not* have Obsidian Order skill. A skill must be in the skills box (not the lore) to qualify "
    "as a skill."
)
SECOND = (
    "Effective upon release of the Blaze of Glory expansion set. This personnel may add 1 to Interrogation or Torture "
    "only when Madred and the captive are both aboard the same outpost."
)


def test_condition_on_one_paragraph_holds_back_only_that_paragraph(tmp_path: Path) -> None:
    """MADRED's first paragraph is in force from the document's date; the second waits for Blaze of Glory."""
    kb = _kb(tmp_path)
    shown = kb.show("MADRED", D("1999-09-15"))
    assert [p["text"] for p in shown["parts"]] == [FIRST]
    assert shown["parts"][0]["note"] == (
        "the rest of this ruling takes effect upon release of the Blaze of Glory expansion set"
    )
    (pending,) = shown["pending"]
    assert (pending["text"], pending["condition"]) == (
        f"{FIRST}\n\n{SECOND}",
        "upon release of the Blaze of Glory expansion set",
    )


def test_the_held_paragraph_joins_on_the_release(tmp_path: Path) -> None:
    kb = _kb(tmp_path, releases='[[release]]\nname = "Blaze of Glory"\ndate = "1999-10-04"\n')
    assert [p["text"] for p in kb.show("MADRED", D("1999-10-03"))["parts"]] == [FIRST]
    shown = kb.show("MADRED", D("1999-10-04"))
    assert [p["text"] for p in shown["parts"]] == [f"{FIRST}\n\n{SECOND}"]
    assert shown["pending"] == []


def test_a_part_of_an_edition_never_rescinds_by_omission(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    assert [p["text"] for p in kb.show("MANDARIN BAILIFF", D("1999-09-15"))["parts"]] != []
    assert [p["text"] for p in kb.show("ASSIMILATION", D("1999-09-15"))["parts"]] == ["A Borg ruling of the A-C page."]


def test_without_part_the_second_page_of_the_day_is_still_a_part(tmp_path: Path) -> None:
    """The same two pages as whole documents: the later one shares no topic with the first, of the same kind
    and day, so it is a part of the edition too (`kb.ingest.ledger._whole`, warned) and rescinds none of the
    first's (before, it rescinded them all; a later whole document still rescinds: test_versions)."""
    kb = _kb(tmp_path, part=False)
    assert [p["citation"]["document"] for p in kb.show("MANDARIN BAILIFF", D("1999-09-15"))["parts"]] == [
        "cr-1999-08-30-mno"
    ]
    assert kb.history("MANDARIN BAILIFF")["versions"][-1]["ended"] is None


def test_the_forum_repost_with_every_line_break_lost_reads_the_same_entries(tmp_path: Path) -> None:
    """The whole document on one line, as a copy that lost every line break has it."""
    text = (REAL / "1e-cr-update-2001-12-05-forum-repost.txt").read_text(encoding="utf-8")
    one = tmp_path / "one-line.txt"
    one.write_text(" ".join(line.strip() for line in text.splitlines()) + "\n", encoding="utf-8")
    lines = parse_file(one, "current-rulings-update")
    whole = parse("1e-cr-update-2001-12-05-forum-repost.txt", "current-rulings-update")
    kinds = ("change summary", "ruling")
    assert [(e.kind, e.headword) for e in lines.entries if e.kind in kinds] == [
        (e.kind, e.headword) for e in whole.entries if e.kind in kinds
    ]
    assert entry(lines, "Cybernetics") == entry(whole, "Cybernetics")
    assert coverage(lines).complete and lines.split == [1]
