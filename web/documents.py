"""The documents of the library, each with its source text and line anchors for citations."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, g, request

from kb.answers import DocumentFacts, DocumentsAnswer
from web.views import as_of, page, route

bp = Blueprint("documents", __name__)
_LINES = re.compile(r"([0-9]{1,9})(?:-([0-9]{1,9}))?")
FIELDS = (
    "id",
    "game",
    "kind",
    "title",
    "version",
    "date",
    "date_approximate",
    "note",
    "declared_date",
    "previous_date",
    "line_count",
)


@route(bp, "/docs")
def documents(json_wanted: bool) -> Any:
    """The documents in force on ``?as_of=`` (default today), those replaced or published later
    apart, and the complete set each Current Rulings declares, marking what the library lacks."""
    answer: DocumentsAnswer = g.kb.documents_in_force(as_of() or dt.date.today())
    stored = g.kb.documents()

    def fuller(documents: Sequence[DocumentFacts]) -> list[dict[str, Any]]:
        """Each document with the library's other facts of it (note, line count, ...)."""
        return [{**d, **{k: stored[d["id"]][k] for k in FIELDS}} for d in documents]

    data = {
        **answer,
        "documents": fuller(answer["documents"]),
        "replaced": fuller(answer["replaced"]),
        "later": fuller(answer["later"]),
    }
    return page("documents/list.html", data, json_wanted)


@route(bp, "/docs/<name>")
def document(name: str, json_wanted: bool) -> Any:
    found = g.kb.document(name)
    if found is None:
        abort(404, f"no document {name!r}")
    low, high = _cited_lines()
    lines = [{"number": n, "text": t, "cited": low <= n <= high} for n, t in enumerate(g.kb.document_lines(name), 1)]
    data = {**{k: found[k] for k in FIELDS}, "complete_set": json.loads(found["complete_set"]), "lines": lines}
    return page("documents/document.html", data, json_wanted)


def _cited_lines() -> tuple[int, int]:
    """The first and last line of ``?lines=N`` or ``?lines=N-M`` (none when absent; a bad one is a 400)."""
    value = request.args.get("lines", "").strip()
    if not value:
        return 0, -1
    marked = _LINES.fullmatch(value)
    if not marked:
        abort(400, f"lines: expected a line number or a range such as 79-83, got {value[:40]!r}")
    return int(marked[1]), int(marked[2] or marked[1])
