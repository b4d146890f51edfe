"""Answers from a built knowledge base: show, history, as-of, diff, card, deck, search,
documents in force, each a method of `KnowledgeBase` (the longer ones computed in `kb.changes`,
`kb.cardquery`, `kb.search` and `kb.documents`).

Every answer is a plain dict (JSON-ready) of a shape named in `kb.answers`, so the CLI and
the web app present the same thing. Unknown topics raise `UnknownTopic` with the closest headwords; bad dates raise
`BadDate`. A `KnowledgeBase` is safe to share between threads: it reads the store through
`kb.reader` (each thread its own SQLite connection, only the rows an answer needs), each
thread searches with its own Whoosh searchers, and shared caches are guarded by a lock or
published whole.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from kb import changes, documents
from kb.answers import (
    AsOfAnswer,
    CardAnswer,
    Citation,
    DeckAnswer,
    DiffAnswer,
    DocumentsAnswer,
    Ending,
    Entry,
    HistoryAnswer,
    HistoryVersion,
    Part,
    SearchAnswer,
    ShowAnswer,
    TopicRef,
    iso,
)
from kb.errors import UnknownTopic
from kb.paging import FIRST, Paging, page_of
from kb.paths import BUILT_ON, CURRENT_DIR, INDEX_DIR, VOCABULARY, BuildError
from kb.reader import Names, Reader
from kb.versions import Version, history_order, lines, status
from kb.vocabulary import UnknownFilter, close_matches
from kb.worddiff import word_diff
from rulings.dates import BadDate
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from whoosh.searching import Searcher

    from kb.completion import Completions
    from kb.questions import Vocabulary

# Whoosh, the search and the spelling side (and the card answers) are imported by the methods that
# need them, so that an answer read from the store alone (`show`, `history`...) starts without them.

MAX_FILTERS = 64
"""Dates whose document filters are kept (the cache is emptied when full)."""


def load_search() -> None:
    """Import now what `KnowledgeBase` otherwise imports on first use: the search side (Whoosh's
    searching, `kb.search`, the date filters of `kb.index`), autocomplete and the card answers.
    A server does so before it forks its workers, so that their first requests do not."""
    for name in ("kb.index", "kb.search", "kb.completion", "kb.cardquery"):
        importlib.import_module(name)


class ReversedRange(BadDate):
    """A diff asked from a later date to an earlier one."""


class KnowledgeBase(Reader):
    """Read-only queries over one build directory."""

    def __init__(self, directory: Path) -> None:
        if not (directory / BUILT_ON).is_file():
            raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'")
        self.built_on = dt.date.fromisoformat((directory / BUILT_ON).read_text().strip())
        super().__init__(directory)
        self._allowed: dict[dt.date, set[int]] = {}
        """Date -> document numbers in force then; a set is never changed once stored."""
        self._vocabulary: Vocabulary | None = None
        self._completion: Completions | None = None
        self._changes: dict[tuple[int, tuple[str, ...] | None], dict[str, dict[str, Any]]] = {}
        self._games: list[str] | None = None
        self._lengths: dict[tuple[str, str], bytes] = {}
        """The indexes' field lengths (`kb.weighting`), read once, shared by every thread's searchers."""

    # -- search support ---------------------------------------------------------------

    def searcher(self, on: dt.date | None = None) -> tuple[Searcher, set[int] | None]:
        """This thread's searcher for the versions in force on ``on`` (every version when None),
        and the document numbers it must keep (None: all; never to be changed). Each thread
        opens its own searchers on first use and keeps them until `close` (Whoosh searchers
        are not thread-safe)."""
        if on is not None and self._current_exact(on):
            return self._own(CURRENT_DIR), None
        searcher = self._own(INDEX_DIR)
        if on is None:
            return searcher, None
        with self._lock:
            allowed = self._allowed.get(on)
        if allowed is None:
            from kb.index import date_filter

            allowed = set(searcher.docs_for_query(date_filter(on)))
            with self._lock:
                if len(self._allowed) >= MAX_FILTERS:
                    self._allowed = {}
                self._allowed[on] = allowed
        return searcher, allowed

    def history_searcher(self, on: dt.date | None) -> Searcher | None:
        """This thread's searcher over the index of every version, one document per topic
        (`kb.history`), for a search over every version (``on`` None) or as of a date the
        in-force index is not exact for; None otherwise, and for a build made before that index
        had one document per topic (searched through `searcher`)."""
        if on is not None and self._current_exact(on):
            return None
        searcher = self._own(INDEX_DIR)
        return searcher if "versions" in searcher.schema else None

    def _own(self, name: str) -> Searcher:
        """The calling thread's searcher over index ``name``, opened on first use (`Reader.own`)."""
        return cast("Searcher", self.own(name, lambda: _open_index(self.directory / name, self._lengths)))

    def open_searchers(self) -> int:
        """How many searchers are open (at most two per live thread that searched)."""
        return self.owned(connections=False)

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _current_exact(self, on: dt.date) -> bool:
        """Whether the versions in force on ``on`` are those in force on the build date."""
        low, high = sorted((self.built_on, on))
        return not self.changes_between(low.isoformat(), high.isoformat())

    def names(self) -> Names:
        """Folded headword or card name -> the name, for "did you mean" (read from the store as asked)."""
        return Names(self)

    def vocabulary(self) -> Vocabulary:
        """The words of this knowledge base, for spelling correction (read on first use)."""
        if self._vocabulary is None:
            from kb.questions import Vocabulary

            path = self.directory / VOCABULARY
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"counts": {}, "names": []}
            self._vocabulary = Vocabulary(data["counts"], data["names"], data.get("stems"))
        return self._vocabulary

    def vocabulary_read(self) -> bool:
        """Whether `vocabulary` was read (a search whose words need no correction may not need it)."""
        return self._vocabulary is not None

    def completion_names(self) -> Completions:
        """Every headword and card title, for autocomplete (made on first use)."""
        if self._completion is None:
            from kb.completion import names_of

            self._completion = names_of(self)
        return self._completion

    def document_changes(self, limit: int, only: list[str] | None = None) -> dict[str, dict[str, Any]]:
        """What each document (of ``only``, default all) changed, up to ``limit`` items of each
        kind (`kb.changes.by_document`), made on first use for each limit and documents."""
        key = (limit, tuple(sorted(only)) if only is not None else None)
        if key not in self._changes:  # made whole, then published
            made = changes.by_document(self, limit, None if only is None else set(only))
            self._changes = {**self._changes, key: made}
        return self._changes[key]

    # -- lookup ---------------------------------------------------------------------

    def find(self, query: str, game: str | None = None) -> str:
        """The topic id for a headword (or topic id) as a person types it."""
        game = self.game_filter(game)
        if self.topic(query) is not None:
            return query
        key = headword_key(query)
        matches = [t for t in self.topics_keyed(key) if game in (None, t["game"])]
        if matches:
            return str(sorted(matches, key=lambda t: (t["game"] != "stccg", len(t["id"])))[0]["id"])
        headwords = {headword_key(t["headword"]): t["headword"] for t in self.topics()}
        close = close_matches(key, headwords, n=5, cutoff=0.6)
        raise UnknownTopic(query, [headwords[c] for c in close])

    def games(self) -> list[str]:
        """The games this knowledge base has topics or cards of."""
        if self._games is None:  # read whole, then published
            sql = "SELECT game FROM topics UNION SELECT game FROM cards"
            self._games = sorted(r[0] for r in self.rows(sql))
        return self._games

    def game_filter(self, value: str | None) -> str | None:
        """``value`` if it names a game of this knowledge base (None: any game); else an
        `UnknownFilter` listing the games."""
        if value is None or value in self.games():
            return value
        raise UnknownFilter(f"unknown game {value[:40]!r}; the games are {', '.join(self.games())}")

    def citation(self, version: Version) -> Citation:
        """Where a version's text comes from."""
        document = self.documents()[version.document_id]
        return {"document": document["id"], "title": document["title"], "version": document["version"],
                "date": document["date"], "lines": lines(version.line_start, version.line_end)}  # fmt: skip

    def series_label(self, series: str) -> str:
        """A reader's name for a series."""
        if series.startswith("rulebook:"):
            return f"Rulebook: {self.documents()[series.split(':', 1)[1]]['title']}"
        return {"glossary": "Glossary", "current-rulings": "Current Rulings", "faq": "FAQ"}[series]

    def part(self, version: Version, on: dt.date) -> Part:
        """One version as an answer part: text, status, operation, dates, note, citation, cards."""
        return {
            "version": version.id, "key": version.key, "series": version.series,
            "label": self.series_label(version.series),
            "headword": version.headword, "text": version.text, "status": status(version, on),
            "authority": version.authority,
            "operation": version.operation, "valid_from": iso(version.valid_from), "valid_to": iso(version.valid_to),
            "ended": version.end, "note": version.note, "condition": version.condition,
            "references": version.references, "summary": version.summary, "citation": self.citation(version),
            "ended_by": self.ending(version), "cards": self.cards_of([version]),
        }  # fmt: skip

    def in_force(self, topic: str, on: dt.date) -> list[Version]:
        """The versions of ``topic`` in force on ``on``, one per series."""
        return [v for v in self.versions_of(topic) if status(v, on) == "active"]

    # -- answers --------------------------------------------------------------------

    def show(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> ShowAnswer:
        """Every series' text in force for a topic on a date, with citations."""
        on = as_of or dt.date.today()
        topic = self.find(query, game)
        parts = [self.part(v, on) for v in self.in_force(topic, on)]
        waiting = [self.part(v, on) for v in self.versions_of(topic) if status(v, on) == "pending"]
        row = self.topic(topic) or {}
        return {
            "topic": topic, "headword": row["headword"], "game": row["game"],
            "as_of": on.isoformat(), "text": "\n\n".join(p["text"] for p in parts if p["text"]),
            "parts": parts, "ended": self.ended(topic, on), "pending": waiting, "backrefs": self.backrefs(topic),
            "cards": self.cards_of(self.in_force(topic, on)),
        }  # fmt: skip

    def cards_of(self, versions: list[Version]) -> list[str]:
        """The names of the cards ``versions`` mention or are headed by, in first-mention order."""
        return self.card_names(versions)

    def history(self, query: str, game: str | None = None) -> HistoryAnswer:
        """All versions of a topic, oldest first, each with a word diff against the one it supersedes."""
        topic = self.find(query, game)
        today = dt.date.today()
        history = self.versions_of(topic)
        by_id = {v.id: v for v in history}
        versions: list[HistoryVersion] = []
        for version in sorted(history, key=history_order):
            previous = by_id.get(version.supersedes) if version.supersedes else None
            diff = word_diff(previous.text if previous else "", version.text)
            versions.append({**self.part(version, today), "supersedes": version.supersedes, "diff": diff})
        return {"topic": topic, "headword": (self.topic(topic) or {})["headword"], "versions": versions}

    def as_of(self, on: dt.date, game: str | None = None, paging: Paging = FIRST) -> AsOfAnswer:
        """The whole knowledge base in force on a date: the topics of the page ``paging`` asks
        (`kb.paging`), by headword."""
        game = self.game_filter(game)
        in_force: dict[str, list[Version]] = {}
        for version in self.versions_in_force(on):
            in_force.setdefault(version.topic, []).append(version)
        listed = [t for t in sorted(self.topics(), key=lambda t: headword_key(t["headword"]))
                  if in_force.get(t["id"]) and game in (None, t["game"])]  # fmt: skip

        def entry(topic: dict[str, Any]) -> Entry:
            parts = [self.part(v, on) for v in in_force[topic["id"]]]
            return {"topic": topic["id"], "headword": topic["headword"], "parts": parts}

        topics, page = page_of(listed, paging, entry)
        return {"as_of": on.isoformat(), "topics": topics, "page": page}

    def ending(self, version: Version) -> Ending | None:
        """When, by which document (cited) and why a version stopped being in force (`kb.changes.ending`)."""
        return changes.ending(self, version)

    def ended(self, topic: str, on: dt.date) -> list[Part]:
        """The last versions of ``topic``'s series with nothing in force on ``on`` (`kb.changes.ended`)."""
        return changes.ended(self, topic, on)

    def diff(
        self, start: dt.date, end: dt.date, game: str | None = None, kinds: list[str] | None = None,
        cards: set[str] | None = None, paging: Paging = FIRST,
    ) -> DiffAnswer:  # fmt: skip
        """Topics added, changed, rescinded and pending between two dates, one page of them
        (`kb.changes.diff`); a start after the end is a `ReversedRange`."""
        if start > end:
            raise ReversedRange(f"FROM {start} is after TO {end}; give the earlier date first")
        return changes.diff(self, start, end, game, kinds, cards, paging)

    def backrefs(self, topic: str) -> list[TopicRef]:
        """Topics whose text in force refers to ``topic`` ("See X")."""
        row = self.topic(topic) or {}
        found = self.referring(row["game"], headword_key(row["headword"]))
        return [{"topic": t, "headword": (self.topic(t) or {})["headword"]} for t in found]

    def documents_in_force(self, on: dt.date) -> DocumentsAnswer:
        """The documents in force on ``on`` and the complete sets declared by then (`kb.documents`)."""
        return documents.in_force(self, on)

    def search(
        self, text: str, as_of: dt.date | None = None, game: str | None = None, kind: str | None = None,
        limit: int = 20, every_version: bool = False, exact: bool = False, live: bool = False,
    ) -> SearchAnswer:  # fmt: skip
        """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
        all with ``every_version``), with snippets and citations (`kb.search.search`)."""
        from kb import search

        return search.search(self, text, as_of, game, kind, limit, every_version, exact, live)

    def card(self, name: str, as_of: dt.date | None = None, game: str | None = None) -> CardAnswer:
        """A card's catalog facts, the rulings headed by it, the entries naming it and its
        history, on ``as_of`` (today by default) (`kb.cardquery.card`); an unknown name is an
        `UnknownCard` with close names."""
        from kb import cardquery

        return cardquery.card(self, name, as_of, game)

    def deck(
        self, text: str, as_of: dt.date | None = None, game: str | None = None, paging: Paging = FIRST
    ) -> DeckAnswer:
        """Each card of a deck list (those of the page ``paging`` asks) with its rulings in force
        on ``as_of``, and the unknown names with suggestions (`kb.cardquery.deck`)."""
        from kb import cardquery

        return cardquery.deck(self, text, as_of, game, paging)

    def find_card(self, name: str, game: str | None = None) -> str:
        """The catalog key of a card named (or aliased) ``name`` (`kb.cardquery.find_card`)."""
        from kb import cardquery

        return cardquery.find_card(self, name, game)

    def deck_keys(self, text: str, game: str | None = None) -> set[str]:
        """The catalog keys of a deck list's known cards, for a diff limited to a deck."""
        from kb import cardquery

        return cardquery.deck_keys(self, text, game)


def _open_index(directory: Path, lengths: dict[tuple[str, str], bytes]) -> Searcher:
    """A searcher reading its index's files, not mapping them: a thread's searcher then costs
    well under a megabyte instead of the index's size in resident memory. It scores from the
    field lengths in ``lengths`` (`kb.weighting`), which every thread's searchers share."""
    from whoosh.filedb.filestore import FileStorage

    from kb import weighting

    storage = FileStorage(str(directory), supports_mmap=False)
    return storage.open_index().searcher(weighting=weighting.BM25F(lengths))
