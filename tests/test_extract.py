"""PDF and HTML files read directly: text extracted (two-column PDF pages column by column,
HTML table rows one a line), the parse report naming what the extraction did, and
``rulings add`` taking such a file. Every PDF here is made by the test, byte by byte."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS
from kb.ingest.library import add_document
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.errors import ParseError
from rulings.extract import html_lines
from rulings.parse import coverage, parse_file


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[list[tuple[int, int, str]]]) -> bytes:
    """A minimal valid PDF: each page's (x, y, text) runs in Helvetica 10 on a US Letter page."""
    body: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    }
    kids: list[int] = []
    for k, runs in enumerate(pages):
        page, content = 4 + 2 * k, 5 + 2 * k
        stream = "".join(f"BT /F1 10 Tf 1 0 0 1 {x} {y} Tm ({_escaped(t)}) Tj ET\n" for x, y, t in runs)
        data = stream.encode("cp1252")
        body[page] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content} 0 R >>"
        ).encode()
        body[content] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data)
        kids.append(page)
    references = " ".join(f"{i} 0 R" for i in kids)
    body[2] = f"<< /Type /Pages /Kids [{references}] /Count {len(kids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n")
    offsets: dict[int, int] = {}
    for number in sorted(body):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body[number])
    start, size = len(out), max(body) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in range(1, size))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, start)
    return bytes(out)


TWO_COLUMNS = [
    (72, 740, "STAR TREK CUSTOMIZABLE CARD GAME GLOSSARY"),
    (72, 700, "artifact - An artifact is a card"),
    (320, 700, "docking - A ship docks at a"),
    (72, 688, "seeded under a mission."),
    (320, 688, "facility by reporting there."),
    (72, 676, "attempt - See mission attempt."),
    (320, 676, "Kle'eg - This personnel is (c) Decipher."),
]
"""One Glossary page set in two columns; read across, each line would mix two entries."""


def test_two_column_pdf_page_is_read_column_by_column(tmp_path: Path) -> None:
    path = tmp_path / "glossary.pdf"
    path.write_bytes(make_pdf([TWO_COLUMNS]))
    result = parse_file(path, "glossary")
    assert result.lines == [
        "STAR TREK CUSTOMIZABLE CARD GAME GLOSSARY",
        "artifact - An artifact is a card",
        "seeded under a mission.",
        "attempt - See mission attempt.",
        "docking - A ship docks at a",
        "facility by reporting there.",
        "Kle'eg - This personnel is (c) Decipher.",
    ]
    assert [e.headword for e in result.entries if e.kind == "glossary entry"] == [
        "artifact", "attempt", "docking", "Kle'eg",
    ]  # fmt: skip
    assert result.document.encoding == "pdf"
    assert result.warnings[0] == (
        f"{path}:1: text extracted from a PDF by pypdf {__import__('pypdf').__version__}: 1 page(s), 7 lines; "
        "page(s) 1 read as two columns, the left column then the right"
    )
    assert coverage(result).complete


def test_one_column_pdf_keeps_its_lines_and_pages_in_order(tmp_path: Path) -> None:
    path = tmp_path / "rulings.pdf"
    first = [(72, 740, "RULINGS"), (72, 700, "* Kle'eg - This personnel may not report to a docking site.")]
    second = [(72, 740, "* Ops - Fixes the count.")]
    path.write_bytes(make_pdf([first, second]))
    result = parse_file(path, "current-rulings")
    assert result.lines == ["RULINGS", "* Kle'eg - This personnel may not report to a docking site.",
                            "* Ops - Fixes the count."]  # fmt: skip
    assert [(e.headword, e.text) for e in result.entries if e.kind == "ruling"] == [
        ("Kle'eg", "This personnel may not report to a docking site."),
        ("Ops", "Fixes the count."),
    ]
    assert "2 page(s), 3 lines" in result.warnings[0] and "two columns" not in result.warnings[0]


def test_a_damaged_pdf_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is no PDF at all\n")
    with pytest.raises(ParseError, match=r"broken.pdf:1: not a readable PDF \(") as raised:
        parse_file(path, "glossary")
    assert "\n" not in str(raised.value)


def test_a_pdf_without_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[]]))
    with pytest.raises(ParseError, match=r"scan.pdf:1: the PDF's 1 page\(s\) hold no text \(scanned images\?\)"):
        parse_file(path, "glossary")


PAGE = """<!DOCTYPE html>
<html><head><title>Current Rulings</title><style>p { color: red }</style>
<script>var x = "<p>not text</p>";</script></head>
<body>
<p>STAR TREK CUSTOMIZABLE CARD GAME<br>CURRENT RULINGS<br>10/30/00</p>
<h2>RULINGS</h2>
<table>
<tr><td>* Cha'Joh -</td><td>You may change the affiliation of this ship &amp; its crew.</td></tr>
<tr><td>* Kle'eg -</td><td>This personnel may not report<br>to a docking site.</td></tr>
</table>
<p>RESPOND TO THE ABOVE</p>
</body></html>
"""


def test_html_page_read_as_lines_with_table_rows(tmp_path: Path) -> None:
    path = tmp_path / "rulings.html"
    path.write_text(PAGE, encoding="utf-8")
    result = parse_file(path, "current-rulings")
    assert result.lines == [
        "STAR TREK CUSTOMIZABLE CARD GAME",
        "CURRENT RULINGS",
        "10/30/00",
        "RULINGS",
        "* Cha'Joh - You may change the affiliation of this ship & its crew.",
        "* Kle'eg - This personnel may not report",
        "to a docking site.",
        "RESPOND TO THE ABOVE",
    ]
    assert result.document.encoding == "html (utf-8)"
    assert result.warnings[0] == (
        f"{path}:1: text extracted from HTML: 8 lines; scripts and styles dropped; "
        "2 table row(s) read one a line, cells joined by '|' (or after a dash)"
    )
    assert [(e.headword, e.text) for e in result.entries if e.kind == "ruling"] == [
        ("Cha'Joh", "You may change the affiliation of this ship & its crew."),
        ("Kle'eg", "This personnel may not report\n\nto a docking site."),
    ]
    assert result.chrome == [8]
    assert coverage(result).complete


def test_rulings_add_takes_a_pdf(tmp_path: Path) -> None:
    library, kb = tmp_path / "library", tmp_path / "kb"
    shutil.copytree(FIXTURES / "library", library)
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
    build(library, kb)
    pdf = tmp_path / "incoming" / "update-2001-03-05.pdf"
    pdf.parent.mkdir()
    runs = [(72, 740, "RULINGS"), (72, 700, "* Zorbak Station - This card may be placed anywhere.")]
    pdf.write_bytes(make_pdf([runs]))
    add_document(pdf, kind="current-rulings-update", date=dt.date(2001, 3, 5), library=library, kb=kb)
    assert (library / "stccg" / "update-2001-03-05.pdf").read_bytes() == pdf.read_bytes()
    shown = KnowledgeBase(current(kb)).show("Zorbak Station", dt.date(2001, 3, 5))
    assert [p["text"] for p in shown["parts"]] == ["This card may be placed anywhere."]


def test_html_table_cells_are_joined_on_their_row() -> None:
    lines, did = html_lines(
        "<table><tr><th>Icon</th><th>Meaning</th></tr><tr><td>[AU]</td><td>Alternate <i>Universe</i></td></tr>"
        "<tr><td>&nbsp;</td></tr></table><p>L&eacute;gende</p>"
    )
    assert lines == ["Icon | Meaning", "[AU] | Alternate Universe", "L\u00e9gende"]
    assert (
        did == "text extracted from HTML: 3 lines; scripts and styles dropped; 2 table row(s) read one a line, "
        "cells joined by '|' (or after a dash)"
    )
