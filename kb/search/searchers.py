"""Each thread's searchers over one knowledge base's indexes, and what searches read once and
share: the document numbers in force on a date (the date filters), the words for spelling
correction (`kb.search.questions.Vocabulary`), the names for autocomplete and the indexes'
field lengths (`kb.engine.weighting`). Whoosh searchers are not thread-safe: each thread opens
its own on first use (`kb.engine.opening`), owned through the knowledge base's `Reader.own` and
closed with it. A searcher is an open index of the engine's (`kb.engine.handles.Index`): this
module and those it hands it to ask it nothing, they give it to the engine's functions."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING

from kb.engine import memo
from kb.engine.handles import Index
from kb.engine.opening import in_force_on, keeps_histories, opened
from kb.errors import Damaged
from kb.kept import Kept, sized
from kb.paths import CURRENT_DIR, INDEX_DIR, VOCABULARY
from kb.read import periods
from kb.read.reader import Reader

if TYPE_CHECKING:
    from kb.search.completion import Completions
    from kb.search.questions import Vocabulary

FILTERS = 32 << 20
"""What the dates' document filters kept weigh at most, in bytes (the least recently asked dropped first)."""


class Searchers:
    """The searchers and shared search tables of the knowledge base ``reader`` reads, built on ``built_on``."""

    def __init__(self, reader: Reader, built_on: dt.date) -> None:
        self.reader = reader
        self.built_on = built_on
        self._allowed: Kept[set[int]] = Kept(FILTERS, sized, largest=FILTERS // 2)
        """Date -> document numbers in force then; a set is never changed once stored."""
        self._vocabulary: Vocabulary | None = None
        self._completion: Completions | None = None
        self._lengths: dict[tuple[str, str], bytes] = {}
        """The indexes' field lengths (`kb.engine.weighting`), read once, shared by every thread's searchers."""
        self._totals: dict[tuple[str, str], int] = {}
        """The indexes' field lengths summed over the live documents of each segment (`kb.engine.weighting`)."""
        self._memos = {name: memo.Memo() for name in (INDEX_DIR, CURRENT_DIR)}
        """What each index told a search (`kb.engine.memo`), shared by every thread's searchers of it."""

    def searcher(self, on: dt.date | None = None) -> tuple[Index, set[int] | None]:
        """This thread's searcher for the versions in force on ``on`` (every version when None),
        and the document numbers it must keep (None: all; never to be changed). Each thread
        opens its own searchers on first use and keeps them until the reader closes (Whoosh
        searchers are not thread-safe)."""
        if on is not None and self._current_exact(on):
            return self.index_searcher(CURRENT_DIR), None
        searcher = self.index_searcher(INDEX_DIR)
        if on is None:
            return searcher, None
        allowed = self._allowed.get(on)
        if allowed is None:
            allowed = self._allowed.put(on, in_force_on(searcher, on))
        return searcher, allowed

    def history_searcher(self, on: dt.date | None) -> Index | None:
        """This thread's searcher over the index of every version, one document per topic
        (`kb.index.history`), for a search over every version (``on`` None) or as of a date the
        in-force index is not exact for; None otherwise, and for a build made before that index
        had one document per topic (searched through `searcher`)."""
        if on is not None and self._current_exact(on):
            return None
        searcher = self.index_searcher(INDEX_DIR)
        return searcher if keeps_histories(searcher) else None

    def index_searcher(self, name: str) -> Index:
        """The calling thread's searcher over index ``name``, opened on first use (`Reader.own`),
        sharing the tables of the index's other searchers."""
        directory = self.reader.directory / name
        return self.reader.own(name, lambda: opened(directory, self._lengths, self._totals, self._memos[name]))

    def forget(self) -> None:
        """Forget what the indexes told their searchers, giving the tables' bytes back to the
        process (the knowledge base is closed)."""
        for shared in self._memos.values():
            shared.empty()

    def open_searchers(self) -> int:
        """How many searchers are open (at most two per live thread that searched)."""
        return self.reader.owned(connections=False)

    def _current_exact(self, on: dt.date) -> bool:
        """Whether the versions in force on ``on`` are those in force on the build date."""
        low, high = sorted((self.built_on, on))
        return not periods.changes_between(self.reader, low.isoformat(), high.isoformat())

    def vocabulary(self) -> Vocabulary:
        """The words of this knowledge base, for spelling correction (read on first use)."""
        if self._vocabulary is None:
            from kb.search.questions import Vocabulary

            path = self.reader.directory / VOCABULARY
            try:
                data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"counts": {}, "names": []}
                self._vocabulary = Vocabulary(dict(data["counts"]), list(data["names"]), data.get("stems"))
            except (ValueError, KeyError, TypeError, AttributeError, OSError) as err:  # cut short, not what was written
                raise Damaged(path, err) from None
        return self._vocabulary

    def vocabulary_read(self) -> bool:
        """Whether `vocabulary` was read (a search whose words need no correction may not need it)."""
        return self._vocabulary is not None

    def completion_names(self) -> Completions:
        """Every headword and card title, for autocomplete (made on first use)."""
        if self._completion is None:
            from kb.search.completion import names_of

            self._completion = names_of(self.reader)
        return self._completion
