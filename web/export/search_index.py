"""The browser's search index of an export: the versions in force, their words, the cards.

``search-index.json`` is an inverted index made here, at export time, so the browser only
looks words up (``static/offline_search.js``). It holds:

- ``documents``: for each version in force on the export's day, in version order, what a
  result shows (topic, headword, label, status, text, citation), what the filters test
  (game, kind) and ``lengths``, the number of words of its headword, card names and text;
- ``postings``: each folded word -> its postings, ordered by document then field, each as
  two numbers: the document's number less the previous posting's (the first: the number),
  and ``field + 3 * (count - 1)``, the field numbered as in `FIELDS` (``[5, 0, 2, 5]``: once
  in document 5's headword, twice in document 7's text);
- ``stems``: each word of the postings whose English stem (the server's, Porter) is not the
  word itself and is shared with another word -> that stem (`_stem_of`), so the browser finds
  ``cloaking`` for ``cloaked`` as the server does;
- ``filler``: the question and filler words the server drops from a query (`kb.search.questions.FILLER`).

Words are folded as the server's index folds them (`kb.analysis.folded_words`: ``Cha'Joh`` =
``chajoh``, ``U.S.S.`` = ``uss``, ``Bio-ship`` = ``bioship``, ``bio``, ``ship``). Filler words
are left out of the text's postings (a query drops them when it has other words), but
counted in its length. ``cards.json`` maps each card's folded title and aliases to its page,
for the deck page in the browser.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from whoosh.lang.porter import stem

from kb.analysis import folded_words
from kb.search.questions import FILLER
from kb.vocabulary import series_kind
from rulings.normalize import title_key

if TYPE_CHECKING:
    from web.export.site import Site

FIELDS = ("headword", "cards", "text")
"""The searched fields, numbered in this order in the postings."""


def documents(site: Site) -> list[dict[str, Any]]:
    """One searchable document per version in force on the export's day, in version order,
    with its card names (``cards``, searched but not shown)."""
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


def search_index(found: list[dict[str, Any]]) -> dict[str, Any]:
    """The inverted index of ``found`` (`documents`): the documents as shown, with the
    lengths of their fields, the postings of each word, and the words' stems."""
    postings: dict[str, list[int]] = {}
    last: dict[str, int] = {}
    shown = []
    for number, document in enumerate(found):
        lengths = []
        for field, name in enumerate(FIELDS):
            words = folded_words(document[name])
            lengths.append(len(words))
            counts = Counter(w for w in words if field != 2 or w not in FILLER)
            for word in sorted(counts):
                postings.setdefault(word, []).extend((number - last.get(word, 0), field + 3 * (counts[word] - 1)))
                last[word] = number
        shown.append({**{k: v for k, v in document.items() if k != "cards"}, "lengths": lengths})
    shared = Counter(stem(word) for word in postings)
    stems = {w: _stem_of(w) for w in sorted(postings) if stem(w) != w and shared[stem(w)] > 1}
    return {"documents": shown, "postings": postings, "stems": stems, "filler": sorted(FILLER)}


def _stem_of(word: str) -> int | str:
    """The stem of ``word`` as kept: the length of the word's start it is (``cloaking`` -> 5
    for ``cloak``), or the stem itself when it is not a start of the word (``any`` -> ``ani``)."""
    found = stem(word)
    return len(found) if word.startswith(found) else found


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
    yield "search-index.json", {"today": site.today.isoformat(), **search_index(documents(site))}
    yield "cards.json", cards(site)
