"""Bad documents: a clear error naming file and line, never a traceback or a guess."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, parse_text, render
from rulings.errors import ParseError
from rulings.parse import coverage, parse_file
from rulings.source import MAX_BYTES, MAX_LINE
from web.cli.main import main

GLOSSARY = "\u201cany\u201d - Refers to any version.\nartifact - An artifact is seeded.\n"


def write(tmp_path: Path, data: bytes, name: str = "doc.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"", 1, "the file is empty"),
        (b" \n\t\r\n", 1, "the file is empty"),
        (b"artifact - text\nmore\x00\x01\x02", 2, "binary file (NUL byte); expected plain text"),
        (b"artifact - ok\nbad - \x81\x8d here\n", 2, "byte 0x81 is neither UTF-8 nor cp1252"),
        (b"a - b\n" + b"x" * 100_000 + b"\n", 2, f"line is 100,000 characters long (limit {MAX_LINE:,})"),
    ],
    ids=["empty", "blank", "binary", "undecodable", "100kB-line"],
)
def test_unreadable_files_are_refused_with_file_and_line(tmp_path: Path, data: bytes, line: int, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(ParseError) as caught:
        parse_file(path, "glossary")
    assert (caught.value.line, caught.value.message) == (line, message)
    assert str(caught.value) == f"{path}:{line}: {message}"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (GLOSSARY.encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + GLOSSARY.encode("utf-8"), "utf-8-sig"),
        (GLOSSARY.encode("cp1252"), "cp1252"),
        (GLOSSARY.replace("\n", "\r\n").encode("utf-8"), "utf-8"),
        (GLOSSARY.replace("\n", "\r").encode("cp1252"), "cp1252"),
    ],
    ids=["utf-8", "utf-8-bom", "cp1252", "crlf", "cr-cp1252"],
)
def test_accepted_encodings_and_line_endings_give_the_same_entries(tmp_path: Path, data: bytes, encoding: str) -> None:
    path = write(tmp_path, data)
    result = parse_file(path, "glossary")
    assert result.document.encoding == encoding
    note = f"\nwarning: {path}:1: not UTF-8; the file was decoded as cp1252 (Windows-1252)"
    assert render(result) == (
        "[glossary entry] \u201cany\u201d @1\n  Refers to any version.\n"
        "[glossary entry] artifact @2\n  An artifact is seeded.\n"
        "coverage: 2 lines, chrome [], unparsed [], complete True" + (note if encoding == "cp1252" else "")
    )


def test_rulings_document_without_rulings_heading_is_read_with_a_warning(tmp_path: Path) -> None:
    """A Current Rulings document that lost its heading is still one: its rulings start at the first ``* x - y``."""
    path = write(tmp_path, b"STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS\n\n* tribble - Tribbles breed.\n")
    result = parse_file(path, "current-rulings")
    assert render(result) == (
        "[introduction] Introduction @1-2\n  STAR TREK CUSTOMIZABLE CARD GAME\n  CURRENT RULINGS\n"
        "[ruling] *tribble @4\n  Tribbles breed.\n"
        "coverage: 3 lines, chrome [], unparsed [], complete True\n"
        f"warning: {path}:4: no RULINGS heading; the rulings are taken to start here"
    )


def test_text_that_is_no_rulings_document_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, b"Shopping list\n\nMilk - two bottles.\nBread\n")
    with pytest.raises(ParseError, match=r"doc.txt:1: no RULINGS heading: is this a Current Rulings document\?"):
        parse_file(path, "current-rulings")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"nope.txt:1: cannot read the file: No such file or directory"):
        parse_file(tmp_path / "nope.txt", "rulebook")


@pytest.mark.parametrize("kind", ["rulebook", "glossary", "current-rulings"])
def test_cli_reports_bad_input_without_traceback(tmp_path: Path, kind: str) -> None:
    path = write(tmp_path, b"\x00\x01binary")
    run = subprocess.run(
        [sys.executable, "-m", "web.cli", "parse", str(path), "--kind", kind],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr == f"rulings: error: {path}:1: binary file (NUL byte); expected plain text\n"
    assert run.stdout == ""


MIXED = "artifact - An artifact is seeded.\nCha\u2019Joh - A Klingon ship.\nzone - A\u00a0zone.\n".encode()
"""UTF-8 except for two stray cp1252 bytes: a no-break space (line 1) and a right quote (line 3)."""


def mixed(tmp_path: Path) -> Path:
    data = MIXED.replace(b"is seeded", b"is\xa0seeded").replace(b"A\xc2\xa0zone", b"A \x92zone\x92")
    return write(tmp_path, data)


def test_mixed_encodings_are_decoded_per_line_and_each_guessed_line_is_named(tmp_path: Path) -> None:
    path = mixed(tmp_path)
    result = parse_file(path, "glossary")
    assert [e.headword for e in result.entries] == ["artifact", "Cha\u2019Joh", "zone"]
    assert result.lines == [
        "artifact - An artifact is\u00a0seeded.",
        "Cha\u2019Joh - A Klingon ship.",
        "zone - A \u2019zone\u2019.",
    ]
    assert result.document.encoding == "utf-8+cp1252"
    stray = "this line's stray bytes were read as cp1252, the rest of the file as UTF-8"
    assert result.warnings == [
        f"{path}:1: not valid UTF-8 (byte 0xa0 at column 26); {stray}",
        f"{path}:3: not valid UTF-8 (byte 0x92 at column 10); {stray}",
    ]


def test_mixed_encoding_warning_reaches_the_parse_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = mixed(tmp_path)
    assert main(["parse", str(path), "--kind", "glossary"]) == 0
    out, err = capsys.readouterr()
    assert "Cha\u2019Joh" in out and "\u00e2\u20ac\u2122" not in out
    assert err.splitlines()[0] == (
        f"warning: {path}:1: not valid UTF-8 (byte 0xa0 at column 26); "
        "this line's stray bytes were read as cp1252, the rest of the file as UTF-8"
    )


def test_many_stray_lines_are_named_up_to_a_limit_then_counted(tmp_path: Path) -> None:
    stray = [f"w{chr(97 + n)} - Text\xa0here.".encode("cp1252") for n in range(25)]
    lines = ["Cha\u2019Joh - A Klingon ship.".encode(), *stray]
    path = write(tmp_path, b"\n".join(lines) + b"\n")
    result = parse_file(path, "glossary")
    assert len(result.entries) == 26
    assert [w.split(": ")[0] for w in result.warnings] == [f"{path}:{n}" for n in range(2, 13)]
    assert result.warnings[-1] == (
        f"{path}:12: 15 more lines (the last is line 26) are not valid UTF-8; their stray bytes were read as cp1252"
    )


def test_a_byte_neither_encoding_has_in_a_mixed_file_is_refused_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "Cha\u2019Joh - ok.\n".encode() + b"x - bad \x81 byte\n")
    with pytest.raises(ParseError) as caught:
        parse_file(path, "glossary")
    assert str(caught.value) == f"{path}:2: byte 0x81 is neither UTF-8 nor cp1252"


def special_file(tmp_path: Path, what: str) -> Path:
    if what == "character device":
        return Path("/dev/zero")
    path = tmp_path / what.replace(" ", "-")
    if what == "directory":
        path.mkdir()
    elif what == "named pipe":
        os.mkfifo(path)
    else:  # a sparse file one byte over the limit: nothing is written, so it costs no disk
        with path.open("wb") as handle:
            handle.truncate(MAX_BYTES + 1)
    return path


SPECIAL = {
    "character device": "not a regular file (a character device); expected a plain-text file",
    "directory": "not a regular file (a directory); expected a plain-text file",
    "named pipe": "not a regular file (a named pipe); expected a plain-text file",
    "huge file": f"the file is {MAX_BYTES + 1:,} bytes (limit {MAX_BYTES:,})",
}


@pytest.mark.parametrize("what", list(SPECIAL))
def test_what_is_not_a_bounded_regular_file_is_refused_before_reading(tmp_path: Path, what: str) -> None:
    path = special_file(tmp_path, what)
    with pytest.raises(ParseError) as caught:
        parse_file(path, "rulebook")
    assert str(caught.value) == f"{path}:1: {SPECIAL[what]}"


@pytest.mark.parametrize("what", list(SPECIAL))
def test_cli_refuses_what_is_not_a_bounded_regular_file_in_one_line(tmp_path: Path, what: str) -> None:
    path = special_file(tmp_path, what)
    run = subprocess.run(
        [sys.executable, "-m", "web.cli", "parse", str(path), "--kind", "rulebook"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # the old code read /dev/zero until killed; this only stops such a run
    )
    assert (run.returncode, run.stdout, run.stderr) == (1, "", f"rulings: error: {path}:1: {SPECIAL[what]}\n")


def load_bench() -> object:
    spec = importlib.util.spec_from_file_location("rulebook_bench", ROOT / "bench" / "rulebook_bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_five_megabyte_rulebook_parses_with_every_line_accounted_for(tmp_path: Path) -> None:
    path = write(tmp_path, load_bench().generate_rulebook(5_000_000).encode(), "big.txt")  # type: ignore[attr-defined]
    result = parse_file(path, "rulebook")
    report = coverage(result)
    assert (report.complete, report.nonblank, len(result.entries)) == (True, 21168, 3960)
    assert len([e for e in result.entries if e.kind == "section"]) == 1089


def test_mixed_encoding_warning_reaches_the_build_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "library"
    (library / "stccg").mkdir(parents=True)
    mixed(library / "stccg")
    (library / "library.toml").write_text(
        '[[document]]\nid = "g"\nfile = "stccg/doc.txt"\ngame = "stccg"\nkind = "glossary"\n'
        'title = "G"\nversion = "1"\ndate = "2000-01-01"\n'
    )
    assert main(["build", "--library", str(library), "--kb", str(tmp_path / "kb"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    path = library / "stccg" / "doc.txt"
    stray = "this line's stray bytes were read as cp1252, the rest of the file as UTF-8"
    assert report["documents"][0]["warnings"] == [
        f"{path}:1: not valid UTF-8 (byte 0xa0 at column 26); {stray}",
        f"{path}:3: not valid UTF-8 (byte 0x92 at column 10); {stray}",
    ]


def test_a_reused_section_number_with_another_title_is_not_merged_as_a_copy() -> None:
    text = "01. Setup\nShuffle the deck.\n\n02. Play\nDraw a card.\n\n"
    text += "01. Scoring\nCount points.\n\n01. Setup\nShuffle the deck.\n"
    assert render(parse_text(text, "rulebook")) == (
        "[section] 01. Setup @1-2\n  Shuffle the deck.\n  duplicates: 10, 11\n"
        "[section] 01. Scoring @7-8\n  Count points.\n"
        "[section] 02. Play @4-5\n  Draw a card.\n"
        "coverage: 8 lines, chrome [], unparsed [], complete True\n"
        "warning: doc.txt: section 01 at line 7 has another title than section 01 at line 1; "
        "kept as a section of its own"
    )


def test_differing_copies_over_the_limit_stay_sections_of_their_own() -> None:
    result = parse_text("".join(f"01. Setup\nShuffle the deck {n} times over.\n\n" for n in range(10)), "rulebook")
    assert [(e.span.start, len(e.duplicate_lines)) for e in result.entries] == [(1, 14), (25, 0), (28, 0)]
    assert coverage(result).complete
    assert result.warnings[-1] == (
        "doc.txt: section 01 has 10 differing copies; the fullest 8 merged, "
        "2 kept as sections of their own (lines 25, 28)"
    )
