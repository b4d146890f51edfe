"""Read a source document's bytes into numbered lines, refusing what is not text.

Accepts UTF-8 (with or without BOM), cp1252, and UTF-16 or UTF-32 with a byte-order mark
(a UTF-16 file without one is refused naming the encoding), and CRLF, CR or LF line endings.
A file that is UTF-8 except for a few stray bytes is decoded line by line: every valid
UTF-8 sequence as UTF-8, each stray byte as cp1252, and each such line named in a
warning (never the whole file re-read as cp1252). Refuses, with a `ParseError` naming
file and line: what is not a regular file, a file over `MAX_BYTES` (checked before it
is read), an empty file, a binary file (a NUL byte), bytes no accepted encoding
decodes, and absurdly long lines. A PDF or HTML file is read through `rulings.extract`:
its text as lines, the first warning naming what the extraction did.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rulings.model import ParseError

MAX_BYTES = 8_000_000
"""Largest document accepted, in bytes: eight times the longest real rulebook (under 1 MB).
Documents parse at 0.2-0.4 s a megabyte (a generated rulebook, Glossary, Current Rulings) and
hostile text at up to 2.1 s, so the largest document accepted takes at most about 17 s (the
limit was 50 MB: about 100 s)."""
MAX_LINE = 20_000
"""Longest line accepted, in characters; real rulings paragraphs stay under 3,000."""
MAX_ENCODING_WARNINGS = 10
"""Lines named one by one when a file mixes encodings; the rest are counted in one warning."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark, dropped where a file starts with it."""
_STRAY_AS_CP1252 = "rulings-stray-as-cp1252"
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
"""Byte-order marks that say a file is UTF-16 or UTF-32 (UTF-32 first: its LE mark starts like UTF-16's)."""


@dataclass(frozen=True)
class SourceText:
    """A decoded document: its lines (index 0 is line 1) and the encoding used."""

    path: str
    """The file, as given."""
    lines: list[str]
    """The lines, without line endings."""
    encoding: str
    """``utf-8``, ``utf-8-sig``, ``cp1252``, ``utf-8+cp1252`` (UTF-8 with stray cp1252 bytes),
    ``utf-16-le``, ``utf-16-be``, ``utf-32-le``, ``utf-32-be`` (each from its byte-order mark),
    ``pdf`` (text extracted from a PDF) or ``html (<encoding>)`` (text extracted from HTML)."""
    warnings: tuple[str, ...] = ()
    """What decoding had to guess, each ``file:line: message``."""


def _stray_as_cp1252(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the bytes UTF-8 rejected, read as cp1252 (raises if cp1252 cannot)."""
    if not isinstance(error, UnicodeDecodeError):  # the handler is only registered for decoding
        raise error
    stray = error.object[error.start : error.end]
    try:
        return bytes(stray).decode("cp1252"), error.end
    except UnicodeDecodeError as inner:
        start = error.start + inner.start
        raise UnicodeDecodeError("cp1252", error.object, start, start + 1, "undefined in cp1252") from None


codecs.register_error(_STRAY_AS_CP1252, _stray_as_cp1252)


def line_of(data: bytes, offset: int) -> int:
    """The line number (from 1) of byte ``offset`` of ``data`` (LF, CRLF or CR line ends)."""
    return data.count(b"\n", 0, offset) + 1 if b"\n" in data else data.count(b"\r", 0, offset) + 1


def _neither(path: str, line: int, byte: int) -> ParseError:
    return ParseError(path, line, f"byte 0x{byte:02x} is neither UTF-8 nor cp1252")


def _decode_mixed(path: str, body: bytes) -> tuple[list[str], str, tuple[str, ...]]:
    """Lines of a body that is not valid UTF-8 as a whole: per line, or all cp1252 when no line is UTF-8."""
    raw_lines = _BYTE_LINE_BREAK.split(body)
    lines: list[str] = []
    stray: list[tuple[int, int, int]] = []
    """(line, column, byte) of the first non-UTF-8 byte of each line that has one."""
    utf8_evidence = False
    for number, raw in enumerate(raw_lines, start=1):
        try:
            lines.append(raw.decode("utf-8"))
            utf8_evidence = utf8_evidence or not raw.isascii()
            continue
        except UnicodeDecodeError as err:
            stray.append((number, len(raw[: err.start].decode("utf-8")) + 1, raw[err.start]))
        try:
            lines.append(raw.decode("utf-8", errors=_STRAY_AS_CP1252))
        except UnicodeDecodeError as err:
            raise _neither(path, number, raw[err.start]) from None
    if not utf8_evidence:
        try:
            text = body.decode("cp1252")
        except UnicodeDecodeError as err:
            raise _neither(path, line_of(body, err.start), body[err.start]) from None
        note = f"{path}:{stray[0][0]}: not UTF-8; the file was decoded as cp1252 (Windows-1252)"
        return _LINE_BREAK.split(text), "cp1252", (note,)
    warnings = [
        f"{path}:{line}: not valid UTF-8 (byte 0x{byte:02x} at column {column}); "
        "this line's stray bytes were read as cp1252, the rest of the file as UTF-8"
        for line, column, byte in stray[:MAX_ENCODING_WARNINGS]
    ]
    if len(stray) > MAX_ENCODING_WARNINGS:
        rest = [line for line, _, _ in stray[MAX_ENCODING_WARNINGS:]]
        warnings.append(
            f"{path}:{rest[0]}: {len(rest):,} more lines (the last is line {rest[-1]}) "
            "are not valid UTF-8; their stray bytes were read as cp1252"
        )
    return lines, "utf-8+cp1252", tuple(warnings)


def _wide(path: str, data: bytes) -> tuple[str, str] | None:
    """The text of a UTF-16 or UTF-32 file that starts with its byte-order mark, and its encoding;
    None for a file without one. Refuses one the BOM's encoding does not decode, and one with no
    BOM whose NUL bytes fall every other byte (UTF-16 of Latin text) naming the encoding."""
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), encoding
            except UnicodeDecodeError as err:
                raise ParseError(
                    path,
                    1,
                    f"starts with a {encoding.upper()} byte-order mark but byte {err.start + len(bom):,} "
                    f"is not {encoding.upper()}; save the file as UTF-8",
                ) from None
    head = data[:4096]
    if len(head) >= 4 and head[1::2].count(0) > len(head) // 4 and not head[0::2].count(0):
        raise _no_bom(path, "UTF-16 (little-endian)")
    if len(head) >= 4 and head[0::2].count(0) > len(head) // 4 and not head[1::2].count(0):
        raise _no_bom(path, "UTF-16 (big-endian)")
    return None


def _no_bom(path: str, encoding: str) -> ParseError:
    return ParseError(path, 1, f"looks like {encoding} without a byte-order mark; save the file as UTF-8")


def decode(path: str, data: bytes) -> SourceText:
    """Decode ``data`` (the contents of ``path``) into lines."""
    if not data.strip():
        raise ParseError(path, 1, "the file is empty")
    wide = _wide(path, data)
    if wide is not None:
        text, encoding = wide
        if "\x00" in text:
            number = text.count("\n", 0, text.index("\x00")) + 1
            raise ParseError(
                path, number, f"binary file (NUL character in {encoding.upper()} text); expected plain text"
            )
        return _lines(path, _LINE_BREAK.split(text), encoding, ())
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError(path, line_of(data, nul), "binary file (NUL byte); expected plain text")
    bom = data.startswith(BOM)
    body = data[len(BOM) :] if bom else data
    warnings: tuple[str, ...] = ()
    try:
        lines = _LINE_BREAK.split(body.decode("utf-8"))
        encoding = "utf-8-sig" if bom else "utf-8"
    except UnicodeDecodeError:
        lines, encoding, warnings = _decode_mixed(path, body)
    return _lines(path, lines, encoding, warnings)


def _lines(path: str, lines: list[str], encoding: str, warnings: tuple[str, ...]) -> SourceText:
    """Decoded lines as a source (a last empty line dropped), refusing absurdly long ones."""
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ParseError(path, number, f"line is {len(line):,} characters long (limit {MAX_LINE:,})")
    return SourceText(path, lines, encoding, warnings)


_FILE_TYPES = {
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFSOCK: "a socket",
}


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, refusing anything else or anything over ``limit`` bytes.

    The file is opened without blocking (a named pipe does not wait for a writer), checked
    with ``fstat`` before a byte is read, and read at most ``limit + 1`` bytes (a file that
    grows meanwhile is still refused). Raises `ValueError` with a one-line reason, `OSError`
    when the file cannot be opened or read.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(descriptor)
    except OSError:
        os.close(descriptor)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        kind = _FILE_TYPES.get(stat.S_IFMT(info.st_mode), "not a file")
        raise ValueError(f"not a regular file ({kind}); expected a plain-text file")
    if info.st_size > limit:
        os.close(descriptor)
        raise ValueError(f"the file is {info.st_size:,} bytes (limit {limit:,})")
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"the file is over {limit:,} bytes (limit {limit:,})")
    return data


CHUNK = 1 << 16
"""Bytes read at a time from a stream whose size is not known before (`read_stream`)."""


def read_stream(handle: BinaryIO, limit: int) -> bytes:
    """The bytes of an open stream (standard input, a pipe, a device, a file), read a chunk at a
    time and refused as soon as more than ``limit`` have come: never more than ``limit + 1``
    bytes are held. Raises `ValueError` with a one-line reason."""
    chunks: list[bytes] = []
    held = 0
    while chunk := handle.read(min(CHUNK, limit + 1 - held)):
        chunks.append(chunk)
        held += len(chunk)
        if held > limit:
            raise ValueError(f"over {limit:,} bytes (limit {limit:,})")
    return b"".join(chunks)


def read_source(path: str | Path) -> SourceText:
    """Read and decode the file at ``path`` (at most `MAX_BYTES`)."""
    name = str(path)
    try:
        data = read_bounded(path, MAX_BYTES)
    except ValueError as err:
        raise ParseError(name, 1, str(err)) from None
    except OSError as err:
        raise ParseError(name, 1, f"cannot read the file: {err.strerror or err}") from None
    from rulings.extract import html_lines, kind_of, pdf_lines  # here: a search reads no document

    kind = kind_of(name, data)
    if kind == "pdf":
        lines, did = pdf_lines(name, data)
        return _extracted(name, lines, "pdf", (f"{name}:1: {did}",))
    source = decode(name, data)
    if kind == "html":
        lines, did = html_lines("\n".join(source.lines))
        if not lines:
            raise ParseError(name, 1, "the HTML page holds no text")
        return _extracted(name, lines, f"html ({source.encoding})", (*source.warnings, f"{name}:1: {did}"))
    return source


def _extracted(path: str, lines: list[str], encoding: str, warnings: tuple[str, ...]) -> SourceText:
    """Extracted lines as a source, refused like a text file when a line is absurdly long."""
    lines = [line.replace("\x00", "") for line in lines]
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise ParseError(path, number, f"extracted line is {len(line):,} characters long (limit {MAX_LINE:,})")
    return SourceText(path, lines, encoding, warnings)
