"""The documents of the library, each with its source text and line anchors for citations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, abort, g, request

from kb.answers import DocumentPage, DocumentsPage
from kb.asking import cited_lines, lines_beyond
from web.views import as_of, page, route

bp = Blueprint("documents", __name__)


@route(bp, "/docs")
def documents(json_wanted: bool) -> Any:
    """The documents in force on ``?as_of=`` (default today), those replaced or published later
    apart, and the complete set each Current Rulings declares, marking what the library lacks."""
    answer: DocumentsPage = g.kb.documents_page(as_of() or dt.date.today())
    return page("documents/list.html", answer, json_wanted)


@route(bp, "/docs/<name>")
def document(name: str, json_wanted: bool) -> Any:
    """A document's source line by line, the lines of ``?lines=`` marked cited (an unknown
    document is a 404 before a bad ``?lines=`` is a 400, and so are lines the document has not)."""
    (low, high), problem = cited_lines(request.args.get("lines", ""))
    found: DocumentPage | None = g.kb.document_page(name, low, high)
    if found is None:
        abort(404, f"no document {name!r}")
    problem = problem or lines_beyond(low, high, found["line_count"])
    if problem:
        abort(400, problem)
    return page("documents/document.html", found, json_wanted)
