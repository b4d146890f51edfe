"""Bad documents: a clear error naming file and line, never a traceback or a guess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import render
from rulings.model import ParseError
from rulings.parse import parse_file
from rulings.source import MAX_LINE

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


def test_rulings_document_without_rulings_heading(tmp_path: Path) -> None:
    path = write(tmp_path, b"STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS\n\n* tribble - Tribbles breed.\n")
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
