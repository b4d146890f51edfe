"""The one door to a built knowledge base: `KnowledgeBase`, whose methods are every answer
(show, history, as-of, diff, card, deck, search, documents in force, autocomplete).

It is a thin facade over the two sides that answer: the read side (`kb.read`: the store's rows
through its `Reader`, each version as an answer part through `kb.read.parts.Parts`, the longer
answers in `kb.read.changes`, `kb.read.cards`, `kb.read.documents`) and the search side
(`kb.search.in_force`: each thread's searchers and the shared search tables in
`kb.search.searchers.Searchers`, the search in `kb.search.in_force`). The answer modules take
the parts and searchers as arguments; none imports this module.

Every answer is a plain dict (JSON-ready) of a shape named in `kb.answers`, so the CLI and
the web app present the same thing. Unknown topics raise `UnknownTopic` with the closest headwords; bad dates raise
`BadDate`. A `KnowledgeBase` is safe to share between threads: it reads the store through
`kb.read.reader` (each thread its own SQLite connection, only the rows an answer needs), each
thread searches with its own Whoosh searchers, and shared caches are guarded by a lock or
published whole.
"""

from __future__ import annotations

import datetime as dt
import importlib
import pickle
import struct
import threading
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.answers import (
    AsOfAnswer,
    BlameAnswer,
    CardAnswer,
    Citation,
    DeckAnswer,
    DiffAnswer,
    DocumentsAnswer,
    Ending,
    Entry,
    HistoryAnswer,
    HistoryVersion,
    PairAnswer,
    Part,
    SearchAnswer,
    ShowAnswer,
    TopicRef,
    VersionPage,
)
from kb.errors import BuildError, Damaged, ReversedRange, UnknownTopic
from kb.model import Version, history_order, status
from kb.paging import FIRST, Paging, page_of
from kb.paths import BUILT_ON, CURRENT_DIR, DEFAULT_GAME, INDEX_DIR
from kb.read import changes, documents, permalinks, rules, sources, standing
from kb.read.names import Names
from kb.read.parts import Parts
from kb.read.reader import Reader
from kb.read.worddiff import word_diff
from kb.vocabulary import moved_from
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.engine.searching import Searcher
    from kb.search.completion import Completions
    from kb.search.questions import Vocabulary
    from kb.search.searchers import Searchers

MAX_MOVES = 50
"""How many moves a history follows back (a text that moved back and forth stops there)."""

# Whoosh, the search and the spelling side (and the card answers) are imported by the methods that
# need them, so that an answer read from the store alone (`show`, `history`...) starts without them.

__all__ = ["KnowledgeBase", "ReversedRange", "load_search"]


def load_search() -> None:
    """Import now what `KnowledgeBase` otherwise imports on first use: the search side (Whoosh's
    searching, `kb.search.in_force`, the searchers and date filters), autocomplete and the card
    answers. A server does so before it forks its workers, so that their first requests do not."""
    for name in ("kb.search.searchers", "kb.search.in_force", "kb.search.completion", "kb.read.cards"):
        importlib.import_module(name)


class KnowledgeBase(Reader):
    """Read-only queries over one build directory."""

    def __init__(self, directory: Path) -> None:
        if not (directory / BUILT_ON).is_file():
            raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'")
        try:
            self.built_on = dt.date.fromisoformat((directory / BUILT_ON).read_text(encoding="utf-8").strip())
        except (ValueError, OSError) as err:  # UnicodeDecodeError is a ValueError
            raise Damaged(directory / BUILT_ON, err) from None
        super().__init__(directory)
        self.parts = Parts(self)
        """How a version becomes an answer part (`kb.read.parts`)."""
        self._searchers: Searchers | None = None
        self._searchers_made = threading.Lock()
        self._changes: dict[tuple[int, tuple[str, ...] | None], dict[str, dict[str, Any]]] = {}

    # -- the search side ------------------------------------------------------------

    @property
    def searchers(self) -> Searchers:
        """Each thread's searchers and the shared search tables (`kb.search.searchers`), made on first use."""
        if self._searchers is None:
            from kb.search.searchers import Searchers

            with self._searchers_made:
                if self._searchers is None:
                    self._searchers = Searchers(self, self.built_on)
        return self._searchers

    def searcher(self, on: dt.date | None = None) -> tuple[Searcher, set[int] | None]:
        """This thread's searcher for the versions in force on ``on`` (`Searchers.searcher`)."""
        return self.searchers.searcher(on)

    def history_searcher(self, on: dt.date | None) -> Searcher | None:
        """This thread's searcher over the index of every version (`Searchers.history_searcher`)."""
        return self.searchers.history_searcher(on)

    def open_searchers(self) -> int:
        """How many searchers are open (at most two per live thread that searched)."""
        return self.owned(connections=False)

    def vocabulary(self) -> Vocabulary:
        """The words of this knowledge base, for spelling correction (read on first use)."""
        return self.searchers.vocabulary()

    def vocabulary_read(self) -> bool:
        """Whether `vocabulary` was read (a search whose words need no correction may not need it)."""
        return self._searchers is not None and self._searchers.vocabulary_read()

    def completion_names(self) -> Completions:
        """Every headword and card title, for autocomplete (made on first use)."""
        return self.searchers.completion_names()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def names(self) -> Names:
        """Folded headword or card name -> the name, for "did you mean" (read from the store as asked)."""
        return Names(self)

    def document_changes(self, limit: int, only: list[str] | None = None) -> dict[str, dict[str, Any]]:
        """What each document (of ``only``, default all) changed, up to ``limit`` items of each
        kind (`kb.read.changes.by_document`), made on first use for each limit and documents."""
        key = (limit, tuple(sorted(only)) if only is not None else None)
        if key not in self._changes:  # made whole, then published
            made = changes.by_document(self.parts, limit, None if only is None else set(only))
            self._changes = {**self._changes, key: made}
        return self._changes[key]

    # -- lookup and answer parts (`kb.read.parts`) --------------------------------------

    def find(self, query: str, game: str | None = None) -> str:
        """The topic id for a headword (or topic id) as a person types it."""
        return self.parts.find(query, game)

    def games(self) -> list[str]:
        """The games this knowledge base has topics or cards of."""
        return self.parts.games()

    def default_game(self) -> str:
        """The game this knowledge base answers within unless asked otherwise: the one its
        manifest names (``game = "stccg"``, `kb.paths.DEFAULT_GAME`), else the game with the most
        documents (the first by name among equals)."""
        named = self.directory / DEFAULT_GAME
        game = named.read_text(encoding="utf-8").strip() if named.is_file() else ""
        if game in self.games():
            return game
        counts: dict[str, int] = {}
        for document in self.documents().values():
            counts[document["game"]] = counts.get(document["game"], 0) + 1
        return min(counts, key=lambda g: (-counts[g], g)) if counts else (self.games() or [""])[0]

    def game_filter(self, value: str | None) -> str | None:
        """``value`` if it names a game of this knowledge base (None: any game); else an `UnknownFilter`."""
        return self.parts.game_filter(value)

    def citation(self, version: Version) -> Citation:
        """Where a version's text comes from."""
        return self.parts.citation(version)

    def series_label(self, series: str) -> str:
        """A reader's name for a series."""
        return self.parts.series_label(series)

    def part(self, version: Version, on: dt.date) -> Part:
        """One version as an answer part: text, status, operation, dates, note, citation, cards."""
        return self.parts.part(version, on)

    def in_force(self, topic: str, on: dt.date) -> list[Version]:
        """The versions of ``topic`` in force on ``on``, one per series."""
        return self.parts.in_force(topic, on)

    def cards_of(self, versions: list[Version]) -> list[str]:
        """The names of the cards ``versions`` mention or are headed by, in first-mention order."""
        return self.parts.cards_of(versions)

    def ending(self, version: Version) -> Ending | None:
        """When, by which document (cited) and why a version stopped being in force."""
        return self.parts.ending(version)

    def ended(self, topic: str, on: dt.date) -> list[Part]:
        """The last versions of ``topic``'s series with nothing in force on ``on``."""
        return self.parts.ended(topic, on)

    def backrefs(self, topic: str) -> list[TopicRef]:
        """Topics whose text in force refers to ``topic`` ("See X")."""
        return self.parts.backrefs(topic)

    # -- answers --------------------------------------------------------------------

    def show(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> ShowAnswer:
        """Every series' text in force for a topic on a date, with citations."""
        on = as_of or dt.date.today()
        topic = self.find(query, game)
        parts = standing.govern([self.part(v, on) for v in self.in_force(topic, on)], self)
        waiting = [self.part(v, on) for v in self.versions_of(topic) if status(v, on) == "pending"]
        row = self.topic(topic) or {}
        return {
            "topic": topic,
            "headword": row["headword"],
            "game": row["game"],
            "as_of": on.isoformat(),
            "text": "\n\n".join(p["text"] for p in parts if p["text"]),
            "parts": parts,
            "ended": self.ended(topic, on),
            "pending": waiting,
            "backrefs": self.backrefs(topic),
            "cards": self.cards_of(self.in_force(topic, on)),
        }

    def blame(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> BlameAnswer:
        """Each sentence of a topic's texts in force on a date beside the document that wrote it
        (`kb.read.sources.blame`)."""
        topic, on = self.find(query, game), as_of or dt.date.today()
        return sources.blame(self, topic, on, [(v, self.part(v, on)) for v in self.in_force(topic, on)])

    def history(self, query: str, game: str | None = None) -> HistoryAnswer:
        """All versions of a topic, oldest first, each with a word diff against the one it supersedes."""
        topic = self.find(query, game)
        today = dt.date.today()
        history = self._followed(topic)
        by_id = {v.id: v for v in history}
        versions: list[HistoryVersion] = []
        for version in sorted(history, key=history_order):
            previous = by_id.get(version.supersedes) if version.supersedes else None
            diff = word_diff(previous.text if previous else "", version.text)
            versions.append({**self.part(version, today), "supersedes": version.supersedes, "diff": diff})
        return {"topic": topic, "headword": (self.topic(topic) or {})["headword"], "versions": versions}

    def version_page(self, key: str, on: dt.date) -> VersionPage | None:
        """A version's permalink page: the version ``key`` names (``topic@document@series``, or a
        build's number) on ``on``, and its series' text in force then (`kb.read.permalinks`)."""
        return permalinks.version_page(self.parts, key, on)

    def subrules(self, topic: str, on: dt.date) -> list[TopicRef]:
        """The numbered rules directly under the rule ``topic`` (an id) in force on ``on`` (`kb.read.rules`)."""
        return rules.subrules(self.parts, topic, on)

    def cited(self, topic: str, on: dt.date) -> list[TopicRef]:
        """The topics the texts of ``topic`` (an id) in force on ``on`` cite (`kb.read.rules`)."""
        return rules.cited(self.parts, topic, on)

    def _followed(self, topic: str, depth: int = 0) -> list[Version]:
        """The versions of ``topic``, after those of the number its text moved from
        (`kb.ingest.restatement`: "moved from 702.137"), back to where that text began."""
        own = self.versions_of(topic)
        dated = [v for v in own if v.valid_from is not None]
        first = min(dated, key=history_order) if dated else None
        origin = moved_from(first.note) if first else None
        if first is None or origin is None or depth >= MAX_MOVES:
            return own
        try:
            earlier = self._followed(self.find(origin, topic.split(":")[0]), depth + 1)
        except UnknownTopic:
            return own
        start = first.valid_from or dt.date.max
        return [v for v in earlier if v.valid_from is not None and v.valid_from < start] + own

    def as_of(self, on: dt.date, game: str | None = None, paging: Paging = FIRST) -> AsOfAnswer:
        """The whole knowledge base in force on a date: the topics of the page ``paging`` asks
        (`kb.paging`), by headword."""
        game = self.game_filter(game)
        in_force: dict[str, list[Version]] = {}
        for version in self.versions_in_force(on):
            in_force.setdefault(version.topic, []).append(version)
        listed = [
            t
            for t in sorted(self.topics(), key=lambda t: headword_key(t["headword"]))
            if in_force.get(t["id"]) and game in (None, t["game"])
        ]

        def entry(topic: dict[str, Any]) -> Entry:
            parts = [self.part(v, on) for v in in_force[topic["id"]]]
            return {"topic": topic["id"], "headword": topic["headword"], "parts": parts}

        topics, page = page_of(listed, paging, entry)
        return {"as_of": on.isoformat(), "topics": topics, "page": page}

    def diff(
        self,
        start: dt.date,
        end: dt.date,
        game: str | None = None,
        kinds: list[str] | None = None,
        cards: set[str] | None = None,
        paging: Paging = FIRST,
    ) -> DiffAnswer:
        """Topics added, changed, rescinded and pending between two dates, one page of them
        (`kb.read.changes.diff`); a start after the end is a `ReversedRange`."""
        if start > end:
            raise ReversedRange(f"FROM {start} is after TO {end}; give the earlier date first")
        return changes.diff(self.parts, start, end, game, kinds, cards, paging)

    def latest_range(self, game: str | None = None) -> tuple[dt.date, dt.date, dict[str, Any] | None]:
        """The dates a diff spans by default, what the latest document (of ``game``) changed, and
        that document (`kb.read.changes.latest_range`)."""
        return changes.latest_range(self, self.game_filter(game))

    def documents_in_force(self, on: dt.date) -> DocumentsAnswer:
        """The documents in force on ``on`` and the complete sets declared by then (`kb.read.documents`)."""
        return documents.in_force(self, on)

    def search(
        self,
        text: str,
        as_of: dt.date | None = None,
        game: str | None = None,
        kind: str | None = None,
        limit: int = 20,
        every_version: bool = False,
        exact: bool = False,
        live: bool = False,
        start: int = 0,
    ) -> SearchAnswer:
        """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
        all with ``every_version``), with snippets and citations, ``limit`` from the ``start``-th
        on (`kb.search.in_force.search`); headings after text and, on the first page of a search of
        the texts in force, the governing text first (`kb.read.standing.arranged`)."""
        from kb.search.in_force import search

        try:
            found = search(
                self.searchers, self.parts, text, as_of, game, kind, limit, every_version, exact, live, start
            )
        except (EOFError, struct.error, zlib.error, pickle.UnpicklingError) as err:  # Whoosh reading a file cut short
            raise Damaged(f"{self.directory / INDEX_DIR} or {self.directory / CURRENT_DIR}", err) from None
        return standing.arranged(self, found, lead=start == 0 and not every_version)

    def complete(self, text: str, limit: int = 10) -> list[dict[str, Any]]:
        """Up to ``limit`` headwords and card names completing ``text`` (`kb.search.completion.complete`)."""
        from kb.search.completion import complete

        return complete(self.completion_names(), text, limit)

    def card(self, name: str, as_of: dt.date | None = None, game: str | None = None) -> CardAnswer:
        """A card's catalog facts, the rulings headed by it, the entries naming it and its
        history, on ``as_of`` (today by default) (`kb.read.cards.card`); an unknown name is an
        `UnknownCard` with close names."""
        from kb.read import cards

        return cards.card(self.parts, name, as_of, game)

    def together(self, names: list[str], as_of: dt.date | None = None, game: str | None = None) -> PairAnswer:
        """The rulings and entries in force on ``as_of`` that bear on two cards together, best first
        (`kb.read.pairs.together`); an unknown name is an `UnknownCard`, other than two a `NotAPair`."""
        from kb.read import pairs

        return pairs.together(self.parts, names, as_of, game)

    def deck(
        self, text: str, as_of: dt.date | None = None, game: str | None = None, paging: Paging = FIRST
    ) -> DeckAnswer:
        """Each card of a deck list (those of the page ``paging`` asks) with its rulings in force
        on ``as_of``, and the unknown names with suggestions (`kb.read.cards.deck`)."""
        from kb.read import cards

        return cards.deck(self.parts, text, as_of, game, paging)

    def find_card(self, name: str, game: str | None = None) -> str:
        """The catalog key of a card named (or aliased) ``name`` (`kb.read.cards.find_card`)."""
        from kb.read import cards

        return cards.find_card(self.parts, name, game)

    def deck_keys(self, text: str, game: str | None = None) -> set[str]:
        """The catalog keys of a deck list's known cards, for a diff limited to a deck."""
        from kb.read import cards

        return cards.deck_keys(self.parts, text, game)

    # -- what one document changed (issue #36 item 5, branch r36-dates) ------------------

    def document_range(self, document: str) -> tuple[dt.date, dt.date, dict[str, Any]] | None:
        """The dates a diff spans to show what ``document`` changed, and that document; None when
        there is no such dated document (`kb.read.changes.document_range`)."""
        return changes.document_range(self.parts, document)

    def dated_documents(self, game: str | None = None) -> list[dict[str, Any]]:
        """The dated documents (of ``game``), oldest first (`kb.read.changes.dated_documents`)."""
        return changes.dated_documents(self, self.game_filter(game))
