"""The documents of the library, each with its source text and line anchors for citations."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from flask import Blueprint, abort, g, request

from kb.answers import DocumentPage, DocumentsPage
from web.views import as_of, page, route

bp = Blueprint("documents", __name__)
_LINES = re.compile(r"([0-9]{1,9})(?:-([0-9]{1,9}))?")


@route(bp, "/docs")
def documents(json_wanted: bool) -> Any:
    """The documents in force on ``?as_of=`` (default today), those replaced or published later
    apart, and the complete set each Current Rulings declares, marking what the library lacks."""
    answer: DocumentsPage = g.kb.documents_page(as_of() or dt.date.today())
    return page("documents/list.html", answer, json_wanted)


@route(bp, "/docs/<name>")
def document(name: str, json_wanted: bool) -> Any:
    """A document's source line by line, the lines of ``?lines=`` marked cited (an unknown
    document is a 404 before a bad ``?lines=`` is a 400)."""
    (low, high), problem = _cited_lines()
    found: DocumentPage | None = g.kb.document_page(name, low, high)
    if found is None:
        abort(404, f"no document {name!r}")
    if problem:
        abort(400, problem)
    return page("documents/document.html", found, json_wanted)


def _cited_lines() -> tuple[tuple[int, int], str | None]:
    """The first and last line of ``?lines=N`` or ``?lines=N-M`` (none when absent), and what is
    wrong with a bad one (None when nothing is)."""
    value = request.args.get("lines", "").strip()
    marked = _LINES.fullmatch(value)
    if not marked:
        wrong = f"lines: expected a line number or a range such as 79-83, got {value[:40]!r}" if value else None
        return (0, -1), wrong
    return (int(marked[1]), int(marked[2] or marked[1])), None
