"""The browser's search index of an export: the versions in force, their words, the cards.

``search-index.json`` is an inverted index made here, at export time, so the browser only
looks words up and scores as the server does (``static/offline_search.js``). It holds:

- ``documents``: for each version in force on the export's day, in version order (the order
  of the server's index of the versions in force), what a result shows (id, topic, headword,
  label, status, text, citation, key, card names, document), what the filters and phrases test
  (game, kind, document; the headword, card names, text and any extra text) and ``lengths``:
  the words of its headword, card names, text and extra text (`kb.index.extra_text`) as the
  server's index stores a field's length (`FIELDS`; one byte, an approximation);
- ``averages``: each field's average length over the documents (exact, as the server's);
- ``postings``: each folded word -> its postings, ordered by document then field, each as
  two numbers: the document's number less the previous posting's (the first: the number),
  and ``field + 4 * (count - 1)``, the field numbered as in `FIELDS` (``[5, 0, 2, 6]``: once
  in document 5's headword, twice in document 7's text);
- ``filler``: the question and filler words the server drops from a query (`kb.search.questions.FILLER`);
- ``card_lists``: the topics that are a rulebook's list of cards, not rulings (the deck page leaves them out).

Words are folded as the server's index folds them (`kb.analysis.folded_words`: ``Cha'Joh`` =
``chajoh``, ``U.S.S.`` = ``uss``, ``Bio-ship`` = ``bioship``, ``bio``, ``ship``); the
browser stems them as the server does (``inflectionStem``, `kb.analysis.inflection_stem`).
Filler words have postings too: a query of filler words alone searches them, and so does a
phrase ("seed for free"). ``cards.json`` maps each card's
folded title and aliases to its page, for the deck page in the browser.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from whoosh.util.numeric import byte_to_length, length_to_byte

from kb.analysis import folded_words
from kb.index.writer import extra_text, see_texts
from kb.model import Topic
from kb.search.questions import FILLER
from kb.vocabulary import series_kind
from rulings.normalize import title_key

if TYPE_CHECKING:
    from web.export.site import Site

FIELDS = ("headword", "cards", "text", "extra")
"""The searched fields, numbered in this order in the postings."""


def documents(site: Site) -> list[dict[str, Any]]:
    """One searchable document per version in force on the export's day, in version order,
    with its card names, text and extra text as the server's index holds them (``words``,
    ``extra``: searched, not shown)."""
    kb = site.kb
    found = []
    topics = {t["id"]: Topic(t["id"], t["game"], t["headword"], t["kind"]) for t in kb.topics()}
    versions = kb.versions_in_force(site.today)
    seen = see_texts(versions, topics)
    for version in versions:
        part = kb.part(version, site.today)
        fallback = version.text or ", ".join(f"See {r}" for r in version.references) or version.note or ""
        words = version.text or " ".join(f"See {r}." for r in version.references)
        found.append({"id": version.id, "topic": version.topic, "key": version.key,
                      "headword": part.get("headword", version.headword), "label": part["label"],
                      "status": part["status"], "game": topics[version.topic].game,
                      "kind": series_kind(version.series), "cards": " | ".join(part.get("cards") or []),
                      "text": fallback, "words": words, "extra": extra_text(version, seen.get(version.id, "")),
                      "document": version.document_id, "citation": part["citation"]})  # fmt: skip
    return found


def search_index(found: list[dict[str, Any]]) -> dict[str, Any]:
    """The inverted index of ``found`` (`documents`; ``words`` and ``extra`` default to none):
    the documents as shown, with the lengths of their fields, the average lengths and the
    postings of each word."""
    postings: dict[str, list[int]] = {}
    last: dict[str, int] = {}
    shown = []
    totals = [0] * len(FIELDS)
    for number, document in enumerate(found):
        lengths = []
        sources = [document["headword"], document["cards"], document.get("words", document["text"]),
                   document.get("extra", "")]  # fmt: skip
        for field, text in enumerate(sources):
            words = folded_words(text)
            totals[field] += len(words)
            lengths.append(byte_to_length(length_to_byte(len(words))))
            counts = Counter(words)
            for word in sorted(counts):
                postings.setdefault(word, []).extend((number - last.get(word, 0), field + 4 * (counts[word] - 1)))
                last[word] = number
        hidden = ("words",) if document.get("extra") else ("words", "extra")
        shown.append({**{k: v for k, v in document.items() if k not in hidden}, "lengths": lengths})
    averages = [total / (len(found) or 1) for total in totals]
    return {"documents": shown, "averages": averages, "postings": postings, "filler": sorted(FILLER)}


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
    lists = sorted(t["id"] for t in site.kb.topics() if t["kind"] == "card list")
    yield "search-index.json", {"today": site.today.isoformat(), **search_index(documents(site)), "card_lists": lists}
    yield "cards.json", cards(site)
