"""The one door to a built knowledge base: `KnowledgeBase`, whose methods are every answer
(show, history, as-of, diff, card, deck, search, documents in force, autocomplete).

It is a thin door to the two sides that answer: the read side (`kb.read`: the store's rows
through the `Reader` it holds, each version as an answer part through `kb.read.parts.Parts`, the longer
answers in `kb.read.changes`, `kb.read.cards`, `kb.read.documents`) and the search side
(`kb.search.in_force`: each thread's searchers and the shared search tables in
`kb.search.searchers.Searchers`, the search in `kb.search.in_force`). The answer modules take
the parts and searchers as arguments; none imports this module. Its public attributes are the
answers and the search side's lifecycle (`close`, a context manager); the store's raw rows are
`KnowledgeBase.store`'s, for tests and benchmarks, not for the pages or the CLI.

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

from kb import checksums
from kb.answers import (
    AsOfAnswer,
    BlameAnswer,
    CardAnswer,
    Comparison,
    DeckAnswer,
    DiffAnswer,
    DocumentFacts,
    DocumentPage,
    DocumentsAnswer,
    DocumentsPage,
    HistoryAnswer,
    HistoryVersion,
    OfflineIndex,
    PairAnswer,
    Part,
    SearchAnswer,
    ShowAnswer,
    SitePages,
    TopicRef,
    VersionPage,
)
from kb.errors import BuildError, Damaged, ReversedRange
from kb.model import Version
from kb.paging import FIRST, Paging
from kb.paths import BUILT_ON, CURRENT_DIR, DEFAULT_GAME, INDEX_DIR
from kb.read import changes, documents, permalinks, rules, sources, standing, topics, worddiff
from kb.read.names import Names
from kb.read.parts import Parts
from kb.read.reader import Reader

if TYPE_CHECKING:
    from kb.search.completion import Completions
    from kb.search.questions import Vocabulary
    from kb.search.searchers import Searchers

# Whoosh, the search and the spelling side (and the card answers) are imported by the methods that
# need them, so that an answer read from the store alone (`show`, `history`...) starts without them.

__all__ = ["KnowledgeBase", "ReversedRange", "load_search"]


def load_search() -> None:
    """Import now what `KnowledgeBase` otherwise imports on first use: the search side (Whoosh's
    searching, `kb.search.in_force`, the searchers and date filters), autocomplete and the card
    answers. A server does so before it forks its workers, so that their first requests do not."""
    for name in ("kb.search.searchers", "kb.search.in_force", "kb.search.completion", "kb.read.cards"):
        importlib.import_module(name)


class KnowledgeBase:
    """Read-only answers over one build directory."""

    def __init__(self, directory: Path) -> None:
        checksums.check(directory)  # a file damaged or missing since it was built: one line, no answer
        if not (directory / BUILT_ON).is_file():
            raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'")
        try:
            self.built_on = dt.date.fromisoformat((directory / BUILT_ON).read_text(encoding="utf-8").strip())
        except (ValueError, OSError) as err:  # UnicodeDecodeError is a ValueError
            raise Damaged(directory / BUILT_ON, err) from None
        self.directory = directory
        self.store = Reader(directory)
        """The store's rows (`kb.read.reader.Reader`), for tests and benchmarks; the pages, the
        CLI and the export ask the answers."""
        self._parts = Parts(self.store)
        """How a version becomes an answer part (`kb.read.parts`)."""
        self._searchers: Searchers | None = None
        self._searchers_made = threading.Lock()
        self._changes: dict[tuple[int, tuple[str, ...] | None], dict[str, dict[str, Any]]] = {}
        self._default_game: str | None = None

    # -- the search side ------------------------------------------------------------

    @property
    def searchers(self) -> Searchers:
        """Each thread's searchers and the shared search tables (`kb.search.searchers`), made on first use."""
        if self._searchers is None:
            from kb.search.searchers import Searchers

            with self._searchers_made:
                if self._searchers is None:
                    self._searchers = Searchers(self.store, self.built_on)
        return self._searchers

    def open_searchers(self) -> int:
        """How many searchers are open (at most two per live thread that searched)."""
        return self.store.owned(connections=False)

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

    def close(self) -> None:
        """Close every connection and searcher of every thread, and forget what their indexes told
        them; answering afterwards is a `BuildError`."""
        self.store.close()
        if self._searchers is not None:
            self._searchers.forget()

    def names(self) -> Names:
        """Folded headword or card name -> the name, for "did you mean" (read from the store as asked)."""
        return Names(self.store)

    def document_changes(self, limit: int, only: list[str] | None = None) -> dict[str, dict[str, Any]]:
        """What each document (of ``only``, default all) changed, up to ``limit`` items of each
        kind (`kb.read.changes.by_document`), made on first use for each limit and documents."""
        key = (limit, tuple(sorted(only)) if only is not None else None)
        if key not in self._changes:  # made whole, then published
            made = changes.by_document(self._parts, limit, None if only is None else set(only))
            self._changes = {**self._changes, key: made}
        return self._changes[key]

    # -- lookup and answer parts (`kb.read.parts`) --------------------------------------

    def find(self, query: str, game: str | None = None) -> str:
        """The topic id for a headword (or topic id) as a person types it."""
        return self._parts.find(query, game)

    def games(self) -> list[str]:
        """The games this knowledge base has topics or cards of."""
        return self._parts.games()

    def default_game(self) -> str:
        """The game this knowledge base answers within unless asked otherwise: the one its
        manifest names (``game = "stccg"``, `kb.paths.DEFAULT_GAME`), else the game with the most
        documents (the first by name among equals). Worked out once: the build read is fixed
        (as `games`), and every page asks it."""
        if self._default_game is None:
            named = self.directory / DEFAULT_GAME
            game = named.read_text(encoding="utf-8").strip() if named.is_file() else ""
            if game not in self.games():
                counts: dict[str, int] = {}
                for document in self.store.documents().values():
                    counts[document["game"]] = counts.get(document["game"], 0) + 1
                game = min(counts, key=lambda g: (-counts[g], g)) if counts else (self.games() or [""])[0]
            self._default_game = game
        return self._default_game

    def game_filter(self, value: str | None) -> str | None:
        """``value`` if it names a game of this knowledge base (None: any game); else an `UnknownFilter`."""
        return self._parts.game_filter(value)

    def part(self, version: Version, on: dt.date) -> Part:
        """One version as an answer part: text, status, operation, dates, note, citation, cards."""
        return self._parts.part(version, on)

    def in_force(self, topic: str, on: dt.date) -> list[Version]:
        """The versions of ``topic`` in force on ``on``, one per series."""
        return self._parts.in_force(topic, on)

    # -- answers --------------------------------------------------------------------

    def show(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> ShowAnswer:
        """Every series' text in force for a topic on a date, with citations (`kb.read.topics.show`)."""
        return topics.show(self._parts, query, as_of, game)

    def blame(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> BlameAnswer:
        """Each sentence of a topic's texts in force on a date beside the document that wrote it
        (`kb.read.sources.blame`)."""
        topic, on = self.find(query, game), as_of or dt.date.today()
        return sources.blame(self.store, topic, on, [(v, self.part(v, on)) for v in self.in_force(topic, on)])

    def history(self, query: str, game: str | None = None, diffs: bool = True) -> HistoryAnswer:
        """All versions of a topic, oldest first, each with a word diff against the one it
        supersedes unless not ``diffs`` (`kb.read.topics.history`)."""
        return topics.history(self._parts, query, game, diffs)

    def version_page(self, key: str, on: dt.date) -> VersionPage | None:
        """A version's permalink page: the version ``key`` names (``topic@document@series``, or a
        build's number) on ``on``, and its series' text in force then (`kb.read.permalinks`)."""
        return permalinks.version_page(self._parts, key, on)

    def subrules(self, topic: str, on: dt.date) -> list[TopicRef]:
        """The numbered rules directly under the rule ``topic`` (an id) in force on ``on`` (`kb.read.rules`)."""
        return rules.subrules(self._parts, topic, on)

    def cited(self, topic: str, on: dt.date) -> list[TopicRef]:
        """The topics the texts of ``topic`` (an id) in force on ``on`` cite (`kb.read.rules`)."""
        return rules.cited(self._parts, topic, on)

    def as_of(self, on: dt.date, game: str | None = None, paging: Paging = FIRST) -> AsOfAnswer:
        """The whole knowledge base in force on a date: the topics of the page ``paging`` asks
        (`kb.read.topics.as_of`), by headword."""
        return topics.as_of(self._parts, on, game, paging)

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
        return changes.diff(self._parts, start, end, game, kinds, cards, paging)

    def latest_range(self, game: str | None = None) -> tuple[dt.date, dt.date, DocumentFacts | None]:
        """The dates a diff spans by default, what the latest document (of ``game``) changed, and
        that document (`kb.read.changes.latest_range`)."""
        return changes.latest_range(self.store, self.game_filter(game))

    def documents_in_force(self, on: dt.date) -> DocumentsAnswer:
        """The documents in force on ``on`` and the complete sets declared by then (`kb.read.documents`)."""
        return documents.in_force(self.store, on)

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
        meaning: bool = True,
    ) -> SearchAnswer:
        """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
        all with ``every_version``), with snippets and citations, ``limit`` from the ``start``-th
        on (`kb.search.in_force.search`; re-ranked by meaning too, where it can be, unless not
        ``meaning``); headings after text and, on the first page of a search of
        the texts in force, the governing text first (`kb.read.standing.arranged`)."""
        from kb.search.in_force import search

        try:
            found = search(
                self.searchers, self._parts, text, as_of, game, kind, limit, every_version, exact, live, start, meaning
            )
        except (EOFError, struct.error, zlib.error, pickle.UnpicklingError) as err:  # Whoosh reading a file cut short
            raise Damaged(f"{self.directory / INDEX_DIR} or {self.directory / CURRENT_DIR}", err) from None
        return standing.arranged(self.store, found, lead=start == 0 and not every_version)

    def complete(self, text: str, limit: int = 10) -> list[dict[str, Any]]:
        """Up to ``limit`` headwords and card names completing ``text`` (`kb.search.completion.complete`)."""
        from kb.search.completion import complete

        return complete(self.completion_names(), text, limit)

    def card(self, name: str, as_of: dt.date | None = None, game: str | None = None) -> CardAnswer:
        """A card's catalog facts, the rulings headed by it, the entries naming it and its
        history, on ``as_of`` (today by default) (`kb.read.cards.card`); an unknown name is an
        `UnknownCard` with close names."""
        from kb.read import cards

        return cards.card(self._parts, name, as_of, game)

    def together(self, names: list[str], as_of: dt.date | None = None, game: str | None = None) -> PairAnswer:
        """The rulings and entries in force on ``as_of`` that bear on two cards together, best first
        (`kb.read.pairs.together`); an unknown name is an `UnknownCard`, other than two a `NotAPair`."""
        from kb.read import pairs

        return pairs.together(self._parts, names, as_of, game)

    def deck(
        self, text: str, as_of: dt.date | None = None, game: str | None = None, paging: Paging = FIRST
    ) -> DeckAnswer:
        """Each card of a deck list (those of the page ``paging`` asks) with its rulings in force
        on ``as_of``, and the unknown names with suggestions (`kb.read.cards.deck`)."""
        from kb.read import cards

        return cards.deck(self._parts, text, as_of, game, paging)

    def find_card(self, name: str, game: str | None = None) -> str:
        """The catalog key of a card named (or aliased) ``name`` (`kb.read.cards.find_card`)."""
        from kb.read import cards

        return cards.find_card(self._parts, name, game)

    def deck_keys(self, text: str, game: str | None = None) -> set[str]:
        """The catalog keys of a deck list's known cards, for a diff limited to a deck."""
        from kb.read import cards

        return cards.deck_keys(self._parts, text, game)

    # -- the documents pages, the diff page's dates, the feed and the compare view (issue #32) --

    def documents_page(self, on: dt.date) -> DocumentsPage:
        """The documents in force on ``on`` with every fact of each (`kb.read.documents.page`)."""
        return documents.page(self.store, on)

    def document_page(self, name: str, low: int = 0, high: int = -1) -> DocumentPage | None:
        """The document ``name``, its source line by line with the lines ``low`` to ``high`` cited
        (`kb.read.documents.document_page`); None for an unknown document."""
        return documents.document_page(self.store, name, low, high)

    def document_dates(self) -> list[str]:
        """The days the library's documents are dated, earliest first (`kb.read.documents.dates`)."""
        return documents.dates(self.store)

    def latest_documents(self, count: int) -> list[DocumentFacts]:
        """The ``count`` newest documents, newest first (`kb.read.documents.latest`)."""
        return documents.latest(self.store, count)

    def compared(self, a: HistoryVersion, b: HistoryVersion) -> Comparison:
        """Two versions of a `history` answer and the word diff between their texts (`kb.read.worddiff.compared`)."""
        return worddiff.compared(a, b)

    # -- the offline export's answers (issue #32: `web.export` asks these, and reads no row) --------

    def offline_index(self, on: dt.date) -> OfflineIndex:
        """The browser's search index of the versions in force on ``on``, as the server's index
        holds them (`kb.search.offline.index`)."""
        from kb.search import offline

        return offline.index(self._parts, self.searchers, on)

    def site_pages(self) -> SitePages:
        """What a static export has a page of: every document, topic, version and card, and the
        days on which what is in force can change (`kb.read.listing.site_pages`)."""
        from kb.read import listing

        return listing.site_pages(self.store)

    # -- what one document changed (issue #36 item 5, branch r36-dates) ------------------

    def document_range(self, document: str) -> tuple[dt.date, dt.date, DocumentFacts] | None:
        """The dates a diff spans to show what ``document`` changed, and that document; None when
        there is no such dated document (`kb.read.changes.document_range`)."""
        return changes.document_range(self._parts, document)

    def dated_documents(self, game: str | None = None) -> list[DocumentFacts]:
        """The dated documents (of ``game``), oldest first (`kb.read.changes.dated_documents`)."""
        return changes.dated_documents(self.store, self.game_filter(game))
