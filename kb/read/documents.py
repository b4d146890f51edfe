"""The library's documents in force on a date, and the complete set of documents each
Current Rulings declares, matched against the library (which declared documents it lacks);
the documents page (`page`), one document's page with its source lines (`document_page`), the
days documents are dated (`dates`) and the newest documents (`latest`).

A document is in force from its date until a later one replaces it: the document that
names it in ``supersedes``, a later full Current Rulings (for the Current Rulings and
their updates of its game), or a later Glossary (for a Glossary).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import TYPE_CHECKING, Any

from kb.answers import (
    Declaration,
    DocumentDetails,
    DocumentFacts,
    DocumentPage,
    DocumentsAnswer,
    DocumentsPage,
)

if TYPE_CHECKING:
    from kb.read.reader import Reader

_WORD = re.compile(r"[a-z0-9]+")


def in_force(reader: Reader, on: dt.date) -> DocumentsAnswer:
    """The documents in force on ``on`` (oldest first), the later or replaced ones apart, and
    each declaration of a complete set made by then (newest first) with the library's document
    for each name (None: the library lacks it)."""
    dated = sorted(
        (d for d in reader.documents().values() if document_day(d) <= on), key=lambda d: (d["date"] or "", d["id"])
    )
    replaced = _replacements(dated)
    current = [d for d in dated if d["id"] not in replaced]
    declarations: list[Declaration] = []
    for document in reversed(dated):
        names = json.loads(document["complete_set"])
        if names:
            declarations.append(
                {
                    **facts(document),
                    "set": [{"name": n, "document": _match(reader, n, document["game"])} for n in names],
                }
            )
    latest = declarations[0] if declarations else None
    return {
        "as_of": on.isoformat(),
        "declared_by": latest["id"] if latest else None,
        "complete_set": [item["name"] for item in latest["set"]] if latest else [],
        "documents": [facts(d) for d in current],
        "replaced": [{**facts(d), "replaced_by": replaced[d["id"]]} for d in dated if d["id"] in replaced],
        "later": [facts(d) for d in reader.documents().values() if document_day(d) > on],
        "declarations": declarations,
    }


def page(reader: Reader, on: dt.date) -> DocumentsPage:
    """The documents in force on ``on`` (`in_force`), each listed with every fact the library has of it."""
    answer = in_force(reader, on)
    stored = reader.documents()
    return {
        **answer,
        "documents": [{**d, **details(stored[d["id"]])} for d in answer["documents"]],
        "replaced": [{**d, **details(stored[d["id"]])} for d in answer["replaced"]],
        "later": [{**d, **details(stored[d["id"]])} for d in answer["later"]],
    }


def document_page(reader: Reader, ident: str, low: int, high: int) -> DocumentPage | None:
    """The document ``ident`` with its facts, the complete set it declares and its source line
    by line, the lines ``low`` to ``high`` marked cited (none when ``low`` is after ``high``);
    None for an unknown document."""
    found = reader.document(ident)
    if found is None:
        return None
    lines = reader.document_lines(ident)
    return {
        **facts(found),
        **details(found),
        "complete_set": json.loads(found["complete_set"]),
        "lines": [{"number": n, "text": t, "cited": low <= n <= high} for n, t in enumerate(lines, 1)],
    }


def dates(reader: Reader) -> list[str]:
    """The days the library's documents are dated (each once, earliest first)."""
    return sorted({d["date"] for d in reader.documents().values() if d["date"]})


def latest(reader: Reader, count: int) -> list[DocumentFacts]:
    """The ``count`` newest documents, newest first (undated last; those of one date in the library's order)."""
    newest = sorted(reader.documents().values(), key=lambda d: d["date"] or "", reverse=True)
    return [facts(d) for d in newest[:count]]


def facts(document: dict[str, Any]) -> DocumentFacts:
    """A stored document as an answer names it: id, game, kind, title, version, date."""
    return {
        "id": document["id"],
        "game": document["game"],
        "kind": document["kind"],
        "title": document["title"],
        "version": document["version"],
        "date": document["date"],
    }


def details(document: dict[str, Any]) -> DocumentDetails:
    """A stored document's other facts: whether its date is approximate, its note, the dates it
    states, its line count."""
    return {
        "date_approximate": document["date_approximate"],
        "note": document["note"],
        "declared_date": document["declared_date"],
        "previous_date": document["previous_date"],
        "line_count": document["line_count"],
    }


def document_day(document: dict[str, Any]) -> dt.date:
    """A stored document's date (the earliest date when it has none)."""
    return dt.date.fromisoformat(document["date"]) if document["date"] else dt.date.min


def _replacements(dated: list[dict[str, Any]]) -> dict[str, str]:
    """Document id -> the id of the later document (of ``dated``, oldest first) that replaced it."""
    replaced: dict[str, str] = {}
    for index, document in enumerate(dated):
        for later in dated[index + 1 :]:
            same_game = later["game"] == document["game"] and later["date"] != document["date"]
            full = later["kind"] == "current-rulings" and document["kind"].startswith("current-rulings")
            glossary = later["kind"] == "glossary" == document["kind"]
            if later["supersedes"] == document["id"] or (same_game and (full or glossary)):
                replaced.setdefault(document["id"], later["id"])
    return replaced


def _match(reader: Reader, name: str, game: str) -> str | None:
    """The library document a declared name means ("Glossary Version 1.7 (August 2000)"): one
    of ``game`` whose title's words are all in the name and whose version is one of its words."""
    words = _WORD.findall(name.lower())
    text = " ".join(words)
    for document in reader.documents().values():
        title = _WORD.findall(document["title"].lower())
        version = " ".join(_WORD.findall(document["version"].lower()))
        named = document["game"] == game and title and set(title) <= set(words) and version
        if named and re.search(rf"(?<![a-z0-9]){re.escape(version)}(?![a-z0-9])", text):
            return str(document["id"])
    return None
