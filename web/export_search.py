"""The browser's search index of an export: the versions in force, the words to drop, the cards.

``search-index.json`` holds, for each version in force on the export's day, the fields a
search result shows (topic, headword, label, status, citation) and the fields searched
(headword, card names, text), plus the question and filler words the server drops
(`kb.questions.FILLER`). ``static/offline.js`` indexes it with MiniSearch (vendored in
``web/static/``, MIT licence) using the server's folding (``Cha'Joh`` = ``chajoh``, ``U.S.S.``
= ``USS``), fuzzy matching for typos and prefixes for the word being typed. ``cards.json``
maps each card's folded title and aliases to its page, for the deck page in the browser.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.questions import FILLER
from kb.versions import series_kind
from rulings.normalize import title_key

if TYPE_CHECKING:
    from web.export import Site


def documents(site: Site) -> list[dict[str, Any]]:
    """One searchable document per version in force on the export's day, in version order."""
    kb = site.kb
    found = []
    games = {t["id"]: t["game"] for t in kb.topics()}
    for version in kb.versions_in_force(site.today):
        part = kb.part(version, site.today)
        fallback = version.text or ", ".join(f"See {r}" for r in version.references) or version.note or ""
        found.append({"id": version.id, "topic": version.topic, "headword": part.get("headword", version.headword),
                      "label": part["label"], "status": part["status"], "game": games[version.topic],
                      "kind": series_kind(version.series), "cards": " ; ".join(part.get("cards") or []),
                      "text": fallback, "citation": part["citation"]})  # fmt: skip
    return found


def cards(site: Site) -> dict[str, list[str]]:
    """Folded card title (and alias) -> [name, page file] for the deck page."""
    found: dict[str, list[str]] = {}
    for row in sorted(site.kb.cards(), key=lambda c: str(c["key"])):
        page = f"card/{row['name']}"
        if page not in site.files:
            continue
        for name in [row["name"], *json.loads(row["aliases"])]:
            found.setdefault(title_key(name), [row["name"], page])
    return found


def search_files(site: Site) -> Iterator[tuple[str, Any]]:
    """The JSON files of the browser's search: (name in the export, what it holds)."""
    yield "search-index.json", {"today": site.today.isoformat(), "filler": sorted(FILLER), "documents": documents(site)}
    yield "cards.json", cards(site)
