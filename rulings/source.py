"""Read a source document's bytes into numbered lines, refusing what is not text.

Accepts UTF-8 (with or without BOM) and cp1252, and CRLF, CR or LF line endings.
Refuses, with a `ParseError` naming file and line: an empty file, a binary file
(a NUL byte), bytes no accepted encoding decodes, and absurdly long lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulings.model import ParseError

MAX_LINE = 20_000
"""Longest line accepted, in characters; real rulings paragraphs stay under 3,000."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class SourceText:
    """A decoded document: its lines (index 0 is line 1) and the encoding used."""

    path: str
    """The file, as given."""
    lines: list[str]
    """The lines, without line endings."""
    encoding: str
    """``utf-8``, ``utf-8-sig`` or ``cp1252``."""


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1 if b"\n" in data else data.count(b"\r", 0, offset) + 1


def decode(path: str, data: bytes) -> SourceText:
    """Decode ``data`` (the contents of ``path``) into lines."""
    if not data.strip():
        raise ParseError(path, 1, "the file is empty")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError(path, _line_of(data, nul), "binary file (NUL byte); expected plain text")
    if data.startswith(b"\xef\xbb\xbf"):
        encoding, body = "utf-8-sig", data[3:]
    else:
        encoding, body = "utf-8", data
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        encoding = "cp1252"
        try:
            text = body.decode("cp1252")
        except UnicodeDecodeError as err:
            raise ParseError(
                path,
                _line_of(body, err.start),
                f"byte 0x{body[err.start]:02x} is neither UTF-8 nor cp1252",
            ) from None
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ParseError(path, number, f"line is {len(line):,} characters long (limit {MAX_LINE:,})")
    return SourceText(path, lines, encoding)


def read_source(path: str | Path) -> SourceText:
    """Read and decode the file at ``path``."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ParseError(name, 1, f"cannot read the file: {err.strerror or err}") from None
    return decode(name, data)
