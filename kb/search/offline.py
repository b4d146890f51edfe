"""The browser's search index of an export (`index`, `KnowledgeBase.offline_index`): the versions
in force on a day, their words, as the server's index holds them.

``search-index.json`` (`web.export.search_index` writes it) is an inverted index made here, at
export time, so the browser only looks words up and scores as the server does
(``static/offline_search.js``). It holds (`kb.answers.OfflineIndex`):

- ``documents``: for each version in force on the export's day, in version order (the order
  of the server's index of the versions in force), what a result shows (id, topic, headword,
  label, status, text, citation, key, card names, document), what the filters and phrases test
  (game, kind, document; the headword, card names, text and any extra text), whether it is a
  Glossary entry restating a numbered rule (``restates``: ranked after the rules,
  `kb.search.restating`; ``cites``: the documents of the rules it cites), the terms of the
  section title a numbered rule defines (``defines``), and ``lengths``:
  the words of its headword, card names, text and extra text (`kb.texts.extra_text`) as the
  server's index stores a field's length (`FIELDS`; one byte, an approximation);
- ``averages``: each field's average length over the documents, of the lengths as coded (as the
  server's, `kb.engine.weighting`);
- ``postings``: each folded word -> its postings, ordered by document then field, each as
  two numbers: the document's number less the previous posting's (the first: the number),
  and ``field + 4 * (count - 1)``, the field numbered as in `FIELDS` (``[5, 0, 2, 6]``: once
  in document 5's headword, twice in document 7's text);
- ``filler``: the question and filler words the server drops from a query (`kb.search.questions.FILLER`);
- ``numerals``: a number in words -> in digits and back, searched with it (`kb.search.questions.NUMERALS`);
- ``boosts``: each of the server's scored fields (``headword``, ``headstem``, ``cards``,
  ``cardstem``, ``text``, ``extra``) -> its boost (`kb.boosts.BOOSTS`): the browser scores with
  these, and holds no copy of its own;
- ``indexed``: the postings of the card names' fields (``cards``, ``cardstem``) and of the
  extra text's (``extra``, by stem) as the server's index holds them (term -> the document's
  number less the previous one's, and the count), their lengths and averages with them, when
  that index is the one the server searches on the export's day: the card names a build
  linked and a table row's cells are in it and in no store;
- ``card_lists``: the topics that are a rulebook's list of cards, not rulings (the deck page leaves them out).
- ``players``: each game of the copy that declares players' words -> the stem of each word -> the
  words its rules use for it (`kb.search.players`); ``players_weight``: their weight against the word typed.

Words are folded as the server's index folds them (`kb.analysis.folded_words`: ``Cha'Joh`` =
``chajoh``, ``U.S.S.`` = ``uss``, ``Bio-ship`` = ``bioship``, ``bio``, ``ship``); the
browser stems them as the server does (``inflectionStem``, `kb.analysis.inflection_stem`).
Filler words have postings too: a query of filler words alone searches them, and so does a
phrase ("seed for free").
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import TYPE_CHECKING, Any

from kb.analysis import folded_words
from kb.answers import OfflineIndex
from kb.boosts import BOOSTS
from kb.engine.analysers import text_analyzer
from kb.engine.exported import exported_fields
from kb.engine.lengths import stored_length
from kb.model import Topic
from kb.read import standing
from kb.search import players
from kb.search.questions import FILLER, NUMERALS
from kb.search.restating import cited_rules, defined_term, restates, restating_documents
from kb.texts import extra_text, see_texts
from kb.vocabulary import series_kind
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts
    from kb.search.searchers import Searchers

FIELDS = ("headword", "cards", "text", "extra")
"""The searched fields, numbered in this order in the postings."""


_HEADWORD = text_analyzer(joined=False)
"""The terms a query must hold to name an entry (`kb.search.in_force.names_entry`)."""


def index(parts: Parts, searchers: Searchers, on: dt.date) -> OfflineIndex:
    """The browser's search index of the versions in force on ``on`` (the module's docstring)."""
    found = documents(parts, on)
    made = search_index(found)
    lists = sorted(t["id"] for t in parts.reader.topics() if t["kind"] == "card list")
    answer: OfflineIndex = {
        "today": on.isoformat(),
        "documents": made["documents"],
        "averages": made["averages"],
        "postings": made["postings"],
        "filler": made["filler"],
        "numerals": made["numerals"],
        "boosts": made["boosts"],
        "card_lists": lists,
        "players_weight": players.WEIGHT,
        "players": {
            game: {stem: list(others) for stem, others in said.items()}
            for game in sorted({document["game"] for document in found})
            if (said := players.table(game))
        },
    }
    indexed = indexed_fields(searchers, on, found)
    if indexed is not None:
        for field, lengths in indexed["lengths"].items():
            for document, length in zip(answer["documents"], lengths, strict=True):
                document["lengths"][field] = length
        for field, average in indexed["averages"].items():
            answer["averages"][field] = average
        answer["indexed"] = indexed["postings"]
    return answer


def documents(parts: Parts, on: dt.date) -> list[dict[str, Any]]:
    """One searchable document per version in force on ``on``, in version order, with its card
    names, text and extra text as the server's index holds them (``words``, ``extra``: searched,
    not shown)."""
    reader = parts.reader
    found = []
    topics = {t["id"]: Topic(t["id"], t["game"], t["headword"], t["kind"]) for t in reader.topics()}
    versions = reader.versions_in_force(on)
    seen = see_texts(versions, topics)
    numbered = restating_documents(reader.documents())
    for version in versions:
        part = parts.part(version, on)
        fallback = version.text or ", ".join(f"See {r}" for r in version.references) or version.note or ""
        words = version.text or " ".join(f"See {r}." for r in version.references)
        found.append(
            {
                "id": version.id,
                "topic": version.topic,
                "key": version.key,
                "headword": part.get("headword", version.headword),
                "label": part["label"],
                "status": part["status"],
                "game": topics[version.topic].game,
                "kind": series_kind(version.series),
                "cards": " | ".join(part.get("cards") or []),
                "text": fallback,
                "words": words,
                "extra": extra_text(version, seen.get(version.id, "")),
                "document": version.document_id,
                "citation": part["citation"],
                "restated": part["restated"],
                "partial": part["partial"],
                "restates": restates(version.series, version.document_id, numbered),
                **standing.offline_facts(reader, part),
                "named": [t.text for t in _HEADWORD(headword_key(version.headword))],
            }
        )
    at = {version.id: number for number, version in enumerate(versions)}
    for version, document in zip(versions, found, strict=True):
        if document["restates"]:
            document["cites"] = [at[v] for v in cited_rules(parts, version, on) if v in at]
        if (term := defined_term(parts, version, on)) is not None:
            document["defines"] = [t.text for t in _HEADWORD(headword_key(term))]
    return found


def search_index(found: list[dict[str, Any]]) -> dict[str, Any]:
    """The inverted index of ``found`` (`documents`; ``words`` and ``extra`` default to none):
    the documents as shown, with the lengths of their fields, the average lengths, the
    postings of each word, the filler words and the fields' boosts."""
    postings: dict[str, list[int]] = {}
    last: dict[str, int] = {}
    shown = []
    totals = [0] * len(FIELDS)
    for number, document in enumerate(found):
        lengths = []
        sources = [
            document["headword"],
            document["cards"],
            document.get("words", document["text"]),
            document.get("extra", ""),
        ]
        for field, text in enumerate(sources):
            words = folded_words(text)
            lengths.append(stored_length(len(words)))
            totals[field] += lengths[-1]  # the server averages the lengths as its index codes them
            counts = Counter(words)
            for word in sorted(counts):
                postings.setdefault(word, []).extend((number - last.get(word, 0), field + 4 * (counts[word] - 1)))
                last[word] = number
        hidden = ("words",) if document.get("extra") else ("words", "extra")
        shown.append({**{k: v for k, v in document.items() if k not in hidden}, "lengths": lengths})
    averages = [total / (len(found) or 1) for total in totals]
    return {
        "documents": shown,
        "averages": averages,
        "postings": postings,
        "filler": sorted(FILLER),
        "numerals": NUMERALS,
        "boosts": dict(BOOSTS),
    }


INDEXED = {"cards": 1, "cardstem": 1, "extra": 3}
"""The server's fields whose postings the export takes from its index (field -> the number of
`FIELDS` whose lengths they give): the card names a build linked and a table row's cells are in
no store, only in the index."""


def indexed_fields(searchers: Searchers, on: dt.date, found: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The fields `INDEXED` as the server's index of the versions in force holds them: each term
    -> its postings (the document's number less the previous one's, and the count), each
    document's stored length of those fields, and their averages; None when that index is not
    the one the server searches on ``on``."""
    searcher, allowed = searchers.searcher(on)
    if allowed is not None or searchers.history_searcher(on) is not None:
        return None
    number = {document["id"]: n for n, document in enumerate(found)}
    return exported_fields(searcher, number, INDEXED, len(found))
