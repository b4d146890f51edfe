"""Honest coverage (`rulings.reading`): the share read as the kind expects, the one-line refusal of a
document no kind reads, ``--accept-unread``, and the kind named by the detectors when none is given."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES, SHARED
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.model import Document
from rulings.parse import parse_file
from rulings.reading import detect, reading, refusal
from rulings.source import read_source
from web.cli.main import main

LETTER = FIXTURES / "kinds" / "letter.txt"
"""A letter in prose (a heading ``RULINGS`` in it): a layout no kind reads."""
ONE_LINE = FIXTURES / "kinds" / "letter-one-line.txt"
"""The same letter on one line, with no heading: a rulebook reads it as a preamble alone."""
REAL = SHARED / "real"
needs_real = pytest.mark.skipif(not REAL.is_dir(), reason=f"the real pages ({REAL}) are not on this machine")

REFUSALS = [
    ("glossary", LETTER, "only 0 of 14 lines look like Glossary entries"),
    ("current-rulings", LETTER, "only 1 of 14 lines look like Current Rulings topics"),
    ("current-rulings-update", LETTER, "only 1 of 14 lines look like Current Rulings topics"),
    ("faq", LETTER, "only 0 of 14 lines look like FAQ questions and answers"),
    ("dated-rulings", LETTER, "only 0 of 14 lines look like dated rulings"),
    ("rulebook", ONE_LINE, "only 0 of 1 lines look like rulebook sections"),
]


@pytest.mark.parametrize(("kind", "path", "said"), REFUSALS)
def test_a_layout_no_kind_reads_is_refused_in_one_line(
    kind: str, path: Path, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["parse", str(path), "--kind", kind]) == 1
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", f"rulings: error: {path}: read as {kind}, {said}; is it another kind?\n")


def test_the_letter_is_wholly_accounted_for_yet_not_read() -> None:
    result = parse_file(LETTER, "faq")
    assert reading(result).read == 0 and not result.unparsed  # 100% "accounted for", as an introduction
    assert (reading(result).text, reading(result).claimed, reading(result).low) == (14, 14, True)


def test_accept_unread_keeps_it_and_warns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(LETTER), "--kind", "faq", "--accept-unread"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[-1] == "read as faq: 0 of 14 lines as FAQ questions and answers (0.0%)"
    assert out.err.splitlines()[-1] == (
        f"warning: {LETTER}: read as faq, only 0 of 14 lines look like FAQ questions and answers; is it another "
        "kind? Kept (--accept-unread): every version of it would say so"
    )


def test_the_kind_is_detected_when_not_named(capsys: pytest.CaptureFixture[str]) -> None:
    glossary = FIXTURES / "layouts" / "stccg" / "glossary-1.7.txt"
    assert main(["parse", str(glossary), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err == f"rulings: {glossary}: read as glossary (detected)\n"
    assert json.loads(out.out)["reading"] == {
        "kind": "glossary", "text": 5, "read": 5, "claimed": 5, "detected": True, "percent": 100.0,
    }  # fmt: skip
    assert main(["parse", str(LETTER)]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {LETTER}: no kind reads it confidently (rulebook 0.00, glossary 0.00, current-rulings "
        "0.00); name one with --kind\n"
    )


def test_a_library_keeps_a_document_accepted_unread_and_every_version_says_so(tmp_path: Path) -> None:
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    shutil.copy(ONE_LINE, library / "stccg" / "letter.txt")
    (library / "library.toml").write_text(
        '[[document]]\nid = "letter"\nfile = "stccg/letter.txt"\ngame = "stccg"\nkind = "rulebook"\n'
        'title = "Letter"\nversion = "1"\ndate = "2001-01-01"\naccept_unread = true\n'
    )
    report = build(library, tmp_path / "kb")
    assert report.documents[0].read_line() == "read as rulebook: 0 of 1 lines as rulebook sections (0.0%)"
    assert report.documents[0].warnings[-1].endswith("Kept (--accept-unread): every version of it says so")
    with KnowledgeBase(current(tmp_path / "kb")) as kb:
        answer = kb.show("Letter")
    assert [part["note"] for part in answer["parts"]] == [
        "kept unread: most of its document's lines do not look like rulebook sections; this text may not be one entry"
    ]


def test_a_library_refuses_a_document_read_as_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    shutil.copy(LETTER, library / "stccg" / "letter.txt")
    (library / "library.toml").write_text(
        '[[document]]\nid = "letter"\nfile = "stccg/letter.txt"\ngame = "stccg"\nkind = "glossary"\n'
        'title = "Letter"\nversion = "1"\ndate = "2001-01-01"\n'
    )
    assert main(["build", "--library", str(library), "--kb", str(tmp_path / "kb")]) == 1
    path = library.resolve() / "stccg" / "letter.txt"
    assert capsys.readouterr().err == (
        f"rulings: error: {path}: read as glossary, only 0 of 14 lines look like Glossary entries; is it another "
        "kind? (--accept-unread keeps it)\n"
    )


SOURCES_KINDS = {
    "1e-cr-1998-02-13-groups-repost.txt": "current-rulings", "1e-cr-1998-10-19-web-archive.txt": "current-rulings",
    "1e-cr-1999-08-30-mno.txt": "current-rulings", "1e-cr-2000-07-31.txt": "current-rulings",
    "1e-cr-2001-03-26-hz.txt": "current-rulings", "1e-cr-2001-09-24-ag.txt": "current-rulings",
    "1e-cr-update-2001-12-05-forum-repost.txt": "current-rulings-update",
    "1e-faq-dilemmas.txt": "faq", "1e-faq-missions.txt": "faq",
    "1e-glossary-1.6-intro.txt": "glossary", "1e-glossary-1.8-intro.txt": "glossary",
    "1e-glossary-1.9.1-intro.txt": "glossary", "1e-glossary-2014-12-intro.txt": "glossary",
    "1e-glossary-stccgfaq-BQT.txt": "glossary", "1e-glossary-yumpu-6116881.txt": "glossary",
    "1e-glossary-yumpu-p06.txt": "glossary", "1e-glossary-yumpu-p12.txt": "glossary",
    "1e-glossary-yumpu-p18.txt": "glossary", "1e-glossary-yumpu-p22.txt": "glossary",
    "1e-glossary-yumpu-p34.txt": "glossary", "1e-glossary-yumpu-p24.txt": "glossary",
    "1e-glossary-yumpu-p48.txt": "glossary", "2e-official-rulings.txt": "dated-rulings",
    "2e-rulebook-1.1.txt": "rulebook", "2e-rulebook-glossary-d.txt": "glossary",
    "1e-cr-1997-09-25.txt": "faq", "1e-cr-1999-08-30-intro.txt": "current-rulings",
    "2e-cr-2007-09-21.txt": "current-rulings",
    "1e-rules-update-2020-03-02-trekcc.txt": "rules-update", "1e-rules-update-2021-10-04-trekcc.txt": "rules-update",
}  # fmt: skip
"""The real pages read today, each with the kind SOURCES.md gives it."""
SOURCES_KINDS |= {"1e-crd-2010-06-11.txt": "current-rulings", "1e-glossary-1.6-intro-2col.txt": "glossary"}
"""And the pages of two PDF columns interleaved on one line, refused before issue 50: read at their headwords
(`rulings.lines.flowed`), each entry warned."""
UNDETECTED = ("1e-cr-1999-08-30-mno.txt", "1e-glossary-yumpu-p12.txt", "1e-glossary-yumpu-p24.txt",
              "1e-glossary-yumpu-p48.txt", "2e-cr-2007-09-21.txt")  # fmt: skip
"""Pages that name no kind and where few lines start an entry (one Glossary entry runs over most of
p48; p12 is mostly unparsed text; the M-N-O page is one long list; the 2E page starts mid-document
with dashless topics): no detector is sure."""


@needs_real
def test_every_real_page_read_today_is_accepted_and_mostly_detected() -> None:
    pages = sorted(p.name for p in REAL.glob("*.txt"))
    assert sorted(SOURCES_KINDS) == pages
    refused = {name: refusal(parse_file(REAL / name, kind)) for name, kind in SOURCES_KINDS.items()}
    assert {name: line for name, line in refused.items() if line} == {}
    named = {}
    for name in SOURCES_KINDS:
        document = Document(id="page", path=str(REAL / name), game="stccg", kind="", title="page")
        named[name] = detect(document, read_source(REAL / name)).kind
    assert {name for name, kind in named.items() if kind is None} == set(UNDETECTED)
    assert {name: kind for name, kind in named.items() if kind and kind != SOURCES_KINDS[name]} == {}


def test_add_names_the_kind_it_detects_and_refuses_a_letter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "library"
    shutil.copytree(FIXTURES / "layouts", library)
    where = ["--library", str(library), "--kb", str(tmp_path / "kb"), "--date", "2001-05-01", "--game", "stccg"]
    before = (library / "library.toml").read_bytes()
    assert main(["add", str(LETTER), "--kind", "glossary", *where]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {LETTER}: read as glossary, only 0 of 14 lines look like Glossary entries; is it another "
        "kind? (--accept-unread keeps it)\n"
    )
    assert (library / "library.toml").read_bytes() == before
    tracker = FIXTURES / "kinds" / "rule-changes.txt"
    assert main(["add", str(tracker), *where]) == 0
    out = capsys.readouterr()
    assert out.err.splitlines()[0] == f"rulings: {tracker}: read as rule-changes (detected)"
    assert out.out.splitlines()[1] == "  read as rule-changes: 23 of 23 lines as tracked rules (100.0%)"
    assert 'kind = "rule-changes"' in (library / "library.toml").read_text(encoding="utf-8")
