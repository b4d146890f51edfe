"""Disney Lorcana's Comprehensive Rules as the kind ``comprehensive-rules`` (game ``lorcana``), on
the five real releases in ``../shared/lorcana-cr`` (skipped without them): every numbered rule the
independent reader (`lorcana_reader`, a line scan sharing no code with the parser) finds is an
entry, in the same order; page footers are chrome; the release's date is read from its text; a
library of the five builds, shows a rule as of a date and reports the rules renumbered in 2.0.0 as
moves. With the numbering self-check on Magic's releases and the refusals of other kinds."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from collections import Counter
from pathlib import Path

import pytest
from lorcana_reader import rule_numbers, stated_date

from helpers import SHARED
from kb.ingest.pipeline import build
from kb.paging import Paging
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.model import Document, ParseError
from rulings.parse import coverage, parse_document, parse_source
from rulings.reading import detect, reading, refusal
from rulings.source import read_source

RELEASES = SHARED / "lorcana-cr"
MTG = SHARED / "mtg-cr"
pytestmark = pytest.mark.skipif(not RELEASES.is_dir(), reason="../shared/lorcana-cr (the real releases) is absent")
RULES = ("chapter", "section", "rule", "subrule")

COUNTS = {
    "lorcana-cr-2024-05-20.txt": (dt.date(2024, 5, 20), "May 20, 2024", 10, 55, 189, 113, 76, 1),
    "lorcana-cr-2024-05-20.pdf": (dt.date(2024, 5, 20), "May 20, 2024", 10, 55, 189, 113, 76, 1),
    "lorcana-cr-2025-02-28.txt": (dt.date(2025, 2, 28), "February 28, 2025", 10, 55, 215, 127, 78, 3),
    "lorcana-cr-2026-02-05-v2.0.0.txt": (dt.date(2026, 2, 5), "February 5, 2026", 10, 67, 270, 194, 99, 0),
    "lorcana-cr-2026-04-30-v2.1.0.txt": (dt.date(2026, 4, 30), "April 30, 2026", 10, 67, 276, 198, 101, 1),
}
"""Each release: its date, as printed, then chapters, sections, rules, subrules, Glossary terms and
update summaries. The rules add up to the reader's 367, 367, 407, 541 and 551 numbers."""
READER = {
    "lorcana-cr-2024-05-20.txt": 367,
    "lorcana-cr-2024-05-20.pdf": 367,
    "lorcana-cr-2025-02-28.txt": 407,
    "lorcana-cr-2026-02-05-v2.0.0.txt": 541,
    "lorcana-cr-2026-04-30-v2.1.0.txt": 551,
}
"""The independent reader's count of rule numbers in each release (exact, from the files)."""


def _document(path: Path, kind: str = "comprehensive-rules") -> Document:
    return Document(id="x", path=str(path), game="lorcana", kind=kind, title="Comprehensive Rules")


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_numbered_rule_of_each_release_is_read(name: str) -> None:
    path = RELEASES / name
    result = parse_document(_document(path))
    date, printed, *counts = COUNTS[name]
    found = Counter(e.kind for e in result.entries)
    kinds = (*RULES, "glossary entry", "update summary")
    assert [found[k] for k in kinds] == counts
    numbers = [e.headword for e in result.entries if e.kind in RULES]
    assert len(numbers) == len(rule_numbers(path)) == READER[name]
    assert numbers == rule_numbers(path)
    assert (result.document.date, stated_date(path)) == (date, printed)
    report = coverage(result)
    assert (report.complete, report.unparsed, report.missing, report.twice) == (True, 0, (), ())
    read = reading(result)
    assert (read.read, refusal(result)) == (read.text, None)
    texts = [e.text for e in result.entries]
    assert not [t for t in texts if "disneylorcana.com" in t or "\u00a9Disney" in t]  # page footers are chrome
    problems = [w.split(": ", 1)[1] for w in result.warnings if "pypdf" not in w]
    twice = "rule 6.5.7.3 is numbered twice (also line 1334); read as text of 6.5.7.3"  # cited in an example
    expected = {"lorcana-cr-2026-02-05-v2.0.0.txt": [twice]}
    assert problems == expected.get(name, [])


def test_a_rule_is_read_whole_across_a_page_footer_with_its_example() -> None:
    result = parse_document(_document(RELEASES / "lorcana-cr-2026-02-05-v2.0.0.txt"))
    by = {e.headword: e for e in result.entries}
    intro = by["Introduction"]
    assert (intro.span.start, intro.span.end, intro.text.split("\n\n")[0]) == (7, 21, "A NOTE FOR NEW PLAYERS")
    assert intro.text.endswith("Go to the Disney Lorcana Resources page for the most current version.")  # no Contents
    heads = (by["1"].kind, by["1"].text, by["1.2"].kind, by["1.2"].text)
    assert heads == ("chapter", "CONCEPTS", "section", "Golden Rules")
    assert by["1.2.1"].kind == "rule"
    assert by["1.2.1"].text.startswith(
        "If the text of a card contradicts a game rule, the card text supersedes that rule.\n\n"
        "Example: Mufasa \u2013 Betrayed Leader has an ability called The Sun Will Set"
    )
    assert by["1.3.4.1"].kind == "subrule"
    assert "challenge an opposing character. The players can decide the order" in by["9.3.2"].text
    assert by["8.8.1"].references == ["4.6.6.1"]
    assert by["8.8.1"].fields == {"section": "Resist"} or by["8.8.1"].fields.get("section") == "KEYWORDS"


def test_each_release_is_detected_as_comprehensive_rules() -> None:
    for name in sorted(COUNTS):
        path = RELEASES / name
        unnamed = dataclasses.replace(_document(path), kind="")
        assert detect(unnamed, read_source(path)).kind == "comprehensive-rules", name


@pytest.mark.parametrize("kind", ["rulebook", "glossary"])
def test_another_kind_refuses_numbered_rules_in_one_line(kind: str) -> None:
    path = RELEASES / "lorcana-cr-2026-02-05-v2.0.0.txt"
    with pytest.raises(ParseError) as raised:
        parse_document(_document(path, kind))
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:")
    assert message.endswith("the document is numbered rules (--kind comprehensive-rules)")


def _edited(path: Path, game: str, edit: str, to: str) -> list[str]:
    source = read_source(path)
    lines = [to if line == edit else line for line in source.lines]
    assert lines != source.lines, edit
    lines = [line for line in lines if line != "<gone>"]
    document = Document(id="x", path="cr.txt", game=game, kind="comprehensive-rules", title="CR")
    result = parse_source(document, dataclasses.replace(source, lines=lines))
    assert coverage(result).complete
    return [f"{e.headword}: {e.text[:30]}" for e in result.entries] + result.warnings


@pytest.mark.skipif(not MTG.is_dir(), reason="../shared/mtg-cr (the real Magic releases) is absent")
@pytest.mark.parametrize("name", sorted(p.name for p in MTG.glob("MagicCompRules-*.txt")) if MTG.is_dir() else [])
def test_a_magic_rule_without_its_period_or_deleted(name: str) -> None:
    path = MTG / name
    line = next(t for t in read_source(path).lines if t.startswith("   606.5. "))
    read = _edited(path, "mtg", line, line.replace("606.5. ", "606.5 "))
    assert "606.5: A loyalty ability with a negat" in read
    assert [w for w in read if "cr.txt:" in w] == []
    deleted = next(t for t in read_source(path).lines if t.startswith("   606.4. "))
    gone = _edited(path, "mtg", deleted, "<gone>")
    assert [w.split(": ", 1)[1] for w in gone if "cr.txt:" in w] == [
        "rule 606.4 is missing: the numbers go from 606.3 to 606.5"
    ]


def test_a_lorcana_rule_deleted_is_warned() -> None:
    path = RELEASES / "lorcana-cr-2025-02-28.txt"
    line = next(t for t in read_source(path).lines if t.strip().startswith("1.2.2. "))
    gone = _edited(path, "lorcana", line, "<gone>")
    assert [w.split(": ", 1)[1] for w in gone if "cr.txt:" in w] == [
        "rule 1.2.2 is missing: the numbers go from 1.2.1 to 1.2.3"
    ]


@pytest.fixture(scope="module")
def lorcana(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    """A knowledge base of the five files (the PDF a document of its own, the same release); the
    manifest gives no dates: each is read from its text."""
    work = tmp_path_factory.mktemp("lorcana-kb")
    (work / "library" / "lorcana").mkdir(parents=True)
    tables = []
    for name in sorted(COUNTS):
        shutil.copy(RELEASES / name, work / "library" / "lorcana" / name)
        stamp = name.removeprefix("lorcana-cr-").replace(".", "-")
        tables.append(
            f'[[document]]\nid = "cr-{stamp}"\nfile = "lorcana/{name}"\ngame = "lorcana"\n'
            f'kind = "comprehensive-rules"\ntitle = "Disney Lorcana Comprehensive Rules"\nversion = "{stamp}"\n'
        )
    (work / "library" / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    report = build(work / "library", work / "kb")
    assert [d.reading.read == d.reading.text for d in report.documents if d.reading] == [True] * 5
    return KnowledgeBase(current(work / "kb"))


def test_a_library_of_the_five_shows_a_rule_as_of_a_date(lorcana: KnowledgeBase) -> None:
    before = lorcana.show("1.2.1", dt.date(2025, 3, 1), "lorcana")
    after = lorcana.show("1.2.1", dt.date(2026, 3, 1), "lorcana")
    assert before["text"].startswith("If the text of a card contradicts a game rule, the card effect supersedes")
    assert after["text"].startswith("If the text of a card contradicts a game rule, the card text supersedes")
    deck = "A player\u2019s deck is where cards they may use in a particular game are held."
    assert lorcana.show("8.2.1", dt.date(2025, 3, 1), "lorcana")["text"] == deck
    alert = lorcana.show("8.2.1", dt.date(2026, 3, 1), "lorcana")["text"]
    assert alert.startswith("The Alert keyword represents a static ability.")


@pytest.mark.parametrize("typed", ["4.6.8", "4.6.8.", "rule 4.6.8"])
def test_a_dotted_rule_number_typed_alone_goes_to_that_rule(lorcana: KnowledgeBase, typed: str) -> None:
    """As Magic's ``702.9a`` does: the first result is the rule (it was any text citing the number)."""
    found = lorcana.search(typed, dt.date(2026, 5, 1), "lorcana", limit=3)["results"]
    assert found[0]["headword"] == "4.6.8"


def test_the_diff_across_the_renumbering_reports_moves(lorcana: KnowledgeBase) -> None:
    answer = lorcana.diff(dt.date(2025, 2, 28), dt.date(2026, 2, 5), "lorcana", paging=Paging(0, None))
    moved = {(i["moved_from"], i["headword"]) for kind in ("added", "changed") for i in answer[kind] if i["moved_from"]}
    assert len(moved) == 101  # 94 as printed, 7 with the numbers they cite renumbered
    assert {("10.8", "8.10"), ("4.3.5", "4.5"), ("1.9.1.1", "1.8.1.1"), ("6.1.2", "5.3.3")} <= moved


def test_a_footer_of_one_line_is_chrome_too() -> None:
    path = RELEASES / "lorcana-cr-2025-02-28.txt"
    source = read_source(path)
    lines = [line for line in source.lines if line.strip() != "disneylorcana.com"]
    document = _document(Path("cr.txt"))
    result = parse_source(document, dataclasses.replace(source, lines=lines))
    assert [e.headword for e in result.entries if e.kind in RULES] == rule_numbers(path)
    assert not [e.headword for e in result.entries if "\u00a9Disney" in e.text]
    assert (coverage(result).complete, result.warnings) == (True, [])
