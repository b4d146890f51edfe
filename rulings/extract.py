"""Text out of the files people have: PDF pages and HTML pages, as numbered lines.

A PDF's text is taken with pypdf, one line per printed line: every piece of text with its
place on the page, grouped into lines by height. A page whose lines hold text starting in
both halves of the page (two columns set side by side) is read column by column, the left
column top to bottom, then the right. An HTML page is read with the standard library's
``html.parser``: block elements and ``<br>`` end a line, scripts and styles are dropped, and
each table row is one line, its cells joined by `` | `` (by a space after a cell that
ends with a dash or a colon: ``Kle'eg -`` then its text). Either way the first warning of the
source names what the extraction did, so that the parse report says it; a file that is not
a readable PDF, or a PDF with no text at all (scanned pages), is refused with one line.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Sequence
from html.parser import HTMLParser

from rulings.model import ParseError

PDF_SUFFIXES = (".pdf",)
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
CELL = " | "
"""How the cells of an HTML table row are joined on its line."""
_HTML_START = re.compile(rb"^\s*(?:<!doctype html|<html\b)", re.IGNORECASE)
_SAME_LINE = 2.0
"""Pieces of text at most this far apart in height (PDF points) are one line."""
_COLUMN_SHARE = 0.25
"""A page is two columns when at least this share of its lines has text starting in both halves."""

Fragment = tuple[float, float, str]
"""A piece of PDF text: x and y of its start on the page, and the text."""


def kind_of(name: str, data: bytes) -> str | None:
    """``pdf`` or ``html`` for a file to extract text from (by its name or its first bytes), else None."""
    lower = name.lower()
    if lower.endswith(PDF_SUFFIXES) or data.startswith(b"%PDF-"):
        return "pdf"
    if lower.endswith(HTML_SUFFIXES) or _HTML_START.match(data[:512].removeprefix(b"\xef\xbb\xbf")):
        return "html"
    return None


def pdf_lines(path: str, data: bytes) -> tuple[list[str], str]:
    """The lines of a PDF's text, and what the extraction did (one sentence)."""
    import pypdf  # imported here: only a PDF needs it

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ParseError(path, 1, "the PDF is encrypted; save it without a password")
        pages = list(reader.pages)
        lines: list[str] = []
        columns: list[int] = []
        empty: list[int] = []
        for number, page in enumerate(pages, start=1):
            box = page.mediabox
            fragments = _fragments(page.extract_text)
            text, split = _page_lines(fragments, float(box.left), float(box.width))
            if not text:
                empty.append(number)
            if split:
                columns.append(number)
            lines += text
    except ParseError:
        raise
    except Exception as err:  # pypdf raises many kinds on a damaged file; each is one line here
        raise ParseError(path, 1, f"not a readable PDF ({type(err).__name__}: {_one_line(err)})") from None
    if not any(line.strip() for line in lines):
        raise ParseError(path, 1, f"the PDF's {len(pages)} page(s) hold no text (scanned images?); expected text")
    did = f"text extracted from a PDF by pypdf {pypdf.__version__}: {len(pages)} page(s), {len(lines)} lines"
    if columns:
        did += f"; page(s) {_ranges(columns)} read as two columns, the left column then the right"
    if empty:
        did += f"; page(s) {_ranges(empty)} hold no text"
    return lines, did


def _fragments(extract: Callable[..., str]) -> list[Fragment]:
    found: list[Fragment] = []

    def visit(text: str, cm: Sequence[float], tm: Sequence[float], *_: object) -> None:
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        for k, part in enumerate(text.split("\n")):
            if part.strip():
                found.append((x, y - k * 0.001, part.strip()))

    extract(visitor_text=visit)
    return found


def _rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Fragments grouped into printed lines, top to bottom, each left to right."""
    rows: list[list[Fragment]] = []
    for fragment in sorted(fragments, key=lambda f: (-f[1], f[0])):
        if rows and abs(rows[-1][0][1] - fragment[1]) <= _SAME_LINE:
            rows[-1].append(fragment)
        else:
            rows.append([fragment])
    return [sorted(row) for row in rows]


def _page_lines(fragments: list[Fragment], left: float, width: float) -> tuple[list[str], bool]:
    """A page's lines, column by column when it is set in two columns; and whether it was."""
    rows = _rows(fragments)
    middle = left + width / 2
    both = [row for row in rows if row[0][0] < middle <= row[-1][0]]
    if rows and len(both) >= max(2, _COLUMN_SHARE * len(rows)):
        gutter = min(f[0] for row in both for f in row if f[0] >= middle)
        first = [[f for f in row if f[0] < gutter] for row in rows]
        second = [[f for f in row if f[0] >= gutter] for row in rows]
        return [_join(row) for row in first + second if row], True
    return [_join(row) for row in rows], False


def _join(row: list[Fragment]) -> str:
    return " ".join(text for _, _, text in row)


def _ranges(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers) if len(numbers) < 6 else f"{numbers[0]}-{numbers[-1]}"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:200]


_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "caption", "center", "dd", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
        "nav", "ol", "p", "pre", "section", "table", "tbody", "tfoot", "thead", "title", "ul",
    }
)  # fmt: skip
_SKIPPED = frozenset({"script", "style", "head", "noscript", "template", "svg"})


class _Text(HTMLParser):
    """An HTML page's text as lines: blocks and ``<br>`` break lines, table rows are lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.skipping = 0
        self.cells: list[str] | None = None
        self.rows = 0
        self.tables = 0
        self.pre = 0

    def _write(self, text: str) -> None:
        if self.cells is not None and self.cells:
            self.cells[-1] += text
        else:
            self.lines[-1] += text

    def _break(self) -> None:
        if self.cells is not None and self.cells:
            self.cells[-1] += "\n"
        elif self.lines[-1].strip():
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag == "tr":
            self._end_row()
            self.cells = []
        elif tag in ("td", "th"):
            if self.cells is None:
                self.cells = []
            self.cells.append("")
        elif tag == "br" or tag in _BLOCKS:
            self.tables += tag == "table"
            self.pre += tag == "pre"
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in ("tr", "table"):
            self._end_row()
        elif tag in _BLOCKS:
            self.pre = max(0, self.pre - (tag == "pre"))
            self._break()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self._write(data if self.pre else re.sub(r"\s+", " ", data))

    def _end_row(self) -> None:
        if self.cells is None:
            return
        cells = [re.sub(r"[ \t]*\n[ \t]*", "\n", c).strip() for c in self.cells]
        kept = [c for c in cells if c]
        self.cells = None
        if kept:
            self.rows += 1
            self._break()
            self.lines[-1] += _row(kept)
            self._break()

    def result(self) -> list[str]:
        self._end_row()
        out: list[str] = []
        for line in "\n".join(self.lines).split("\n"):
            text = line.strip()
            if text or (out and out[-1]):
                out.append(text)
        while out and not out[-1]:
            out.pop()
        return out


def _row(cells: list[str]) -> str:
    """A table row's cells on one line: joined by `CELL`, or by a space after a cell that
    ends with its own separator (``Kle'eg -`` then the text)."""
    line = cells[0]
    for cell in cells[1:]:
        line += (" " if re.search(r"[-\u2013\u2014:]$", line) else CELL) + cell
    return line


def html_lines(text: str) -> tuple[list[str], str]:
    """The lines of an HTML page's text, and what the extraction did (one sentence)."""
    parser = _Text()
    parser.feed(text)
    parser.close()
    lines = parser.result()
    did = f"text extracted from HTML: {len(lines)} lines; scripts and styles dropped"
    if parser.rows:
        did += f"; {parser.rows} table row(s) read one a line, cells joined by '{CELL.strip()}' (or after a dash)"
    return lines, did
