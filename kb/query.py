"""Answers from a built knowledge base: show, history, as-of, diff, documents in force.

Every answer is a plain dict (JSON-ready), so the CLI and the web app present the same
thing. Unknown topics raise `UnknownTopic` with the closest headwords; bad dates raise
`BadDate`. A `KnowledgeBase` is safe to share between threads: the store is read into memory
and closed at load, each thread searches with its own Whoosh searchers, and shared caches
are guarded by a lock or published whole.
"""

from __future__ import annotations

import bisect
import datetime as dt
import difflib
import json
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

from whoosh import index, scoring
from whoosh.searching import Searcher

from kb import changes, documents, store
from kb.build import BuildError
from kb.completion import Name, names_of
from kb.index import BUILT_ON, CURRENT_DIR, INDEX_DIR, VOCABULARY, date_filter, name_analyzer
from kb.questions import Vocabulary
from kb.versions import UnknownFilter, Version, history_order, lines, reference_keys, status
from kb.worddiff import word_diff
from rulings.normalize import headword_key, title_key

NAMES = name_analyzer()
MAX_FILTERS = 64
"""Dates whose document filters are kept (the cache is emptied when full)."""
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$")


class BadDate(ValueError):
    """A date that is not YYYY-MM-DD (or M/D/YY)."""


class ReversedRange(BadDate):
    """A diff asked from a later date to an earlier one."""


class UnknownTopic(LookupError):
    """No topic has that headword; carries the closest headwords."""

    def __init__(self, query: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no entry {query!r}{hint}")
        self.suggestions = suggestions


def parse_date(text: str | None) -> dt.date:
    """``YYYY-MM-DD`` or ``M/D/YY`` as a date; today when None."""
    if text is None:
        return dt.date.today()
    value = text.strip()
    us = _US_DATE.match(value)
    try:
        if us:
            month, day, year = (int(g) for g in us.groups())
            return dt.date(year + (1900 if 70 <= year < 100 else 2000 if year < 100 else 0), month, day)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    raise BadDate(f"{text!r} is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)")


def _date(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


def _version(row: sqlite3.Row) -> Version:
    return Version(
        id=row["id"], topic=row["topic_id"], series=row["series"], headword=row["headword"], text=row["text"],
        valid_from=_date(row["valid_from"]), document_id=row["document_id"], line_start=row["line_start"],
        line_end=row["line_end"], operation=row["operation"], valid_to=_date(row["valid_to"]), end=row["ended"],
        supersedes=row["supersedes"], note=row["note"], condition=row["condition"],
        references=json.loads(row["refs"]), summary=row["summary"], authority=_column(row, "authority", "official"),
        ended_by=_ended_by(row),
    )  # fmt: skip


def _column(row: sqlite3.Row, name: str, default: Any) -> Any:
    """``row[name]``, or ``default`` for a store built before that column existed."""
    names = row.keys()  # a Row's ``in`` looks at its values, not its column names
    return row[name] if name in names else default


def _ended_by(row: sqlite3.Row) -> dict[str, str] | None:
    """The document that ended a version (a store built before this column has none)."""
    ended = _column(row, "ended_by", None)
    return json.loads(ended) if ended else None


class KnowledgeBase:
    """Read-only queries over one build directory."""

    def __init__(self, directory: Path) -> None:
        if not (directory / BUILT_ON).is_file():
            raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'")
        self.built_on = dt.date.fromisoformat((directory / BUILT_ON).read_text().strip())
        db = store.open_readonly(directory / store.DB_NAME)
        try:
            self._load(db)
        finally:
            db.close()  # everything is in memory now: no connection outlives the load
        self.directory = directory
        self.boundaries = sorted({d for v in self.versions for d in (v.valid_from, v.valid_to) if d})
        self._lock = threading.Lock()
        """Guards the searcher table, the filter cache and ``closed``."""
        self._searchers: dict[threading.Thread, dict[str, Searcher]] = {}
        """Each thread's own searchers, by index directory: a searcher is never shared."""
        self._allowed: dict[dt.date, set[int]] = {}
        """Date -> document numbers in force then; a set is never changed once stored."""
        self._names: dict[str, str] | None = None
        self._vocabulary: Vocabulary | None = None
        self._completion: list[Name] | None = None
        self._changes: dict[int, dict[str, dict[str, Any]]] = {}
        self.closed = False

    def _load(self, db: sqlite3.Connection) -> None:
        """Read the store into memory: documents, topics, versions, cards and their indexes."""
        self.documents = {r["id"]: dict(r) for r in db.execute("SELECT * FROM documents")}
        self.topics = {r["id"]: dict(r) for r in db.execute("SELECT * FROM topics")}
        self.versions = [_version(r) for r in db.execute("SELECT * FROM versions ORDER BY id")]
        self.by_topic: dict[str, list[Version]] = {}
        for version in self.versions:
            self.by_topic.setdefault(version.topic, []).append(version)
        self.version_by_id = {v.id: v for v in self.versions}
        self.successor = {v.supersedes: v for v in self.versions if v.supersedes and v.valid_from}
        """Version id -> the version that superseded it."""
        self.number: dict[int, int] = {}
        """Version id -> its place (from 1) in its topic's history, oldest first."""
        for versions in self.by_topic.values():
            for place, version in enumerate(sorted(versions, key=history_order), start=1):
                self.number[version.id] = place
        self.version_keys: dict[int, str] = {}
        self.version_by_key: dict[str, Version] = {}
        for version in self.versions:
            key = base = f"{version.topic}@{version.document_id}@{version.series}"
            number = 1
            while key in self.version_by_key:
                number += 1
                key = f"{base}@{number}"
            self.version_keys[version.id], self.version_by_key[key] = key, version
        self.cards = {r["key"]: dict(r) for r in db.execute("SELECT * FROM cards")}
        self._games = sorted({t["game"] for t in self.topics.values()} | {c["game"] for c in self.cards.values()})
        self.cards_by_title: dict[str, list[str]] = {}
        """Title key of a card's name or alias -> card keys."""
        for key, card in self.cards.items():
            for spelling in {title_key(s) for s in [card["name"], *json.loads(card["aliases"])]}:
                self.cards_by_title.setdefault(spelling, []).append(key)
        self.card_links: dict[int, list[tuple[str, str]]] = {}
        self.card_versions: dict[str, dict[int, set[str]]] = {}
        """Card key -> the versions naming it (in version order) -> how they name it."""
        for row in db.execute("SELECT * FROM card_links ORDER BY version_id, rowid"):
            self.card_links.setdefault(row["version_id"], []).append((row["card_key"], row["via"]))
            self.card_versions.setdefault(row["card_key"], {}).setdefault(row["version_id"], set()).add(row["via"])
        self.referring: dict[tuple[str, str], set[str]] = {}
        """(game, topic key) -> topics whose open versions say "See" it."""
        for version in self.versions:
            if version.valid_to is None and version.valid_from is not None:
                game = self.topics[version.topic]["game"]
                for target in version.references:
                    for key in reference_keys(target):
                        self.referring.setdefault((game, key), set()).add(version.topic)
        self.topics_by_key: dict[str, list[str]] = {}
        """Headword key (or topic id slug) -> topic ids, for finding a topic as typed."""
        for ident, topic in self.topics.items():
            for key in {headword_key(topic["headword"]), ident.split(":", 1)[1].replace("-", " ")}:
                self.topics_by_key.setdefault(key, []).append(ident)

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
        """The calling thread's searcher over index ``name``; opened on first use. Searchers of
        threads that have ended are closed here."""
        thread = threading.current_thread()
        with self._lock:
            if self.closed:
                raise BuildError(f"{self.directory}: this knowledge base was replaced and closed")
            mine = self._searchers.setdefault(thread, {})
            if name not in mine:
                for ended in [t for t in self._searchers if not t.is_alive() and t is not thread]:
                    for searcher in self._searchers.pop(ended).values():
                        searcher.close()
                mine[name] = _open_index(self.directory / name)
            return mine[name]

    def open_searchers(self) -> int:
        """How many searchers are open (at most two per live thread that searched)."""
        with self._lock:
            return sum(len(mine) for mine in self._searchers.values())

    def close(self) -> None:
        """Close every searcher of every thread; searching afterwards is an error. The
        in-memory answers (show, history, diff...) keep working."""
        with self._lock:
            self.closed = True
            searchers = [s for mine in self._searchers.values() for s in mine.values()]
            self._searchers.clear()
        for searcher in searchers:
            searcher.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _current_exact(self, on: dt.date) -> bool:
        """Whether the versions in force on ``on`` are those in force on the build date."""
        low, high = sorted((self.built_on, on))
        first = bisect.bisect_right(self.boundaries, low)
        return first == len(self.boundaries) or self.boundaries[first] > high

    def names(self) -> dict[str, str]:
        """Folded headword or card name -> the name, for "did you mean"."""
        if self._names is None:  # built whole, then published: other threads never see it half made
            spelled = [t["headword"] for t in self.topics.values()]
            spelled += [n for c in self.cards.values() for n in [c["name"], *json.loads(c["aliases"])]]
            names = {" ".join(t.text for t in NAMES(n)): n for n in spelled}
            names.pop("", None)
            self._names = names
        return self._names

    def vocabulary(self) -> Vocabulary:
        """The words of this knowledge base, for spelling correction (read on first use)."""
        if self._vocabulary is None:
            path = self.directory / VOCABULARY
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"counts": {}, "names": []}
            self._vocabulary = Vocabulary(data["counts"], data["names"])
        return self._vocabulary

    def completion_names(self) -> list[Name]:
        """Every headword and card title, for autocomplete (made on first use)."""
        if self._completion is None:
            self._completion = names_of(self)
        return self._completion

    def document_changes(self, limit: int) -> dict[str, dict[str, Any]]:
        """What each document changed, up to ``limit`` items of each kind (`kb.changes.by_document`),
        made on first use for each limit."""
        if limit not in self._changes:  # made whole, then published
            self._changes = {**self._changes, limit: changes.by_document(self, limit)}
        return self._changes[limit]

    # -- lookup ---------------------------------------------------------------------

    def find(self, query: str, game: str | None = None) -> str:
        """The topic id for a headword (or topic id) as a person types it."""
        game = self.game_filter(game)
        if query in self.topics:
            return query
        key = headword_key(query)
        matches = [self.topics[i] for i in self.topics_by_key.get(key, []) if game in (None, self.topics[i]["game"])]
        if matches:
            return str(sorted(matches, key=lambda t: (t["game"] != "stccg", len(t["id"])))[0]["id"])
        headwords = {headword_key(t["headword"]): t["headword"] for t in self.topics.values()}
        close = difflib.get_close_matches(key, list(headwords), n=5, cutoff=0.6)
        raise UnknownTopic(query, [headwords[c] for c in close])

    def games(self) -> list[str]:
        """The games this knowledge base has topics or cards of."""
        return self._games

    def game_filter(self, value: str | None) -> str | None:
        """``value`` if it names a game of this knowledge base (None: any game); else an
        `UnknownFilter` listing the games."""
        if value is None or value in self.games():
            return value
        raise UnknownFilter(f"unknown game {value[:40]!r}; the games are {', '.join(self.games())}")

    def citation(self, version: Version) -> dict[str, Any]:
        """Where a version's text comes from."""
        document = self.documents[version.document_id]
        return {"document": document["id"], "title": document["title"], "version": document["version"],
                "date": document["date"], "lines": lines(version.line_start, version.line_end)}  # fmt: skip

    def series_label(self, series: str) -> str:
        """A reader's name for a series."""
        if series.startswith("rulebook:"):
            return f"Rulebook: {self.documents[series.split(':', 1)[1]]['title']}"
        return {"glossary": "Glossary", "current-rulings": "Current Rulings", "faq": "FAQ"}[series]

    def part(self, version: Version, on: dt.date) -> dict[str, Any]:
        """One version as an answer part: text, status, operation, dates, note, citation, cards."""
        return {
            "version": version.id, "key": self.version_keys[version.id], "series": version.series,
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
        return [v for v in self.by_topic.get(topic, []) if status(v, on) == "active"]

    # -- answers --------------------------------------------------------------------

    def show(self, query: str, as_of: dt.date | None = None, game: str | None = None) -> dict[str, Any]:
        """Every series' text in force for a topic on a date, with citations."""
        on = as_of or dt.date.today()
        topic = self.find(query, game)
        parts = [self.part(v, on) for v in self.in_force(topic, on)]
        waiting = [self.part(v, on) for v in self.by_topic[topic] if status(v, on) == "pending"]
        return {
            "topic": topic, "headword": self.topics[topic]["headword"], "game": self.topics[topic]["game"],
            "as_of": on.isoformat(), "text": "\n\n".join(p["text"] for p in parts if p["text"]),
            "parts": parts, "ended": self.ended(topic, on), "pending": waiting, "backrefs": self.backrefs(topic),
            "cards": self.cards_of(self.in_force(topic, on)),
        }  # fmt: skip

    def cards_of(self, versions: list[Version]) -> list[str]:
        """The names of the cards ``versions`` mention or are headed by, in first-mention order."""
        keys = [key for v in versions for key, _ in self.card_links.get(v.id, [])]
        return [self.cards[k]["name"] for k in dict.fromkeys(keys)]

    def history(self, query: str, game: str | None = None) -> dict[str, Any]:
        """All versions of a topic, oldest first, each with a word diff against the one it supersedes."""
        topic = self.find(query, game)
        today = dt.date.today()
        by_id = {v.id: v for v in self.versions}
        versions = []
        for version in sorted(self.by_topic[topic], key=history_order):
            part = self.part(version, today)
            previous = by_id.get(version.supersedes) if version.supersedes else None
            part["supersedes"] = version.supersedes
            part["diff"] = word_diff(previous.text if previous else "", version.text)
            versions.append(part)
        return {"topic": topic, "headword": self.topics[topic]["headword"], "versions": versions}

    def as_of(self, on: dt.date, game: str | None = None) -> dict[str, Any]:
        """The whole knowledge base in force on a date."""
        game = self.game_filter(game)
        topics = []
        for ident, topic in sorted(self.topics.items(), key=lambda t: headword_key(t[1]["headword"])):
            parts = self.in_force(ident, on)
            if parts and game in (None, topic["game"]):
                topics.append(
                    {"topic": ident, "headword": topic["headword"], "parts": [self.part(v, on) for v in parts]}
                )
        return {"as_of": on.isoformat(), "topics": topics}

    def ending(self, version: Version) -> dict[str, Any] | None:
        """When, by which document (cited) and why a version stopped being in force (`kb.changes.ending`)."""
        return changes.ending(self, version)

    def ended(self, topic: str, on: dt.date) -> list[dict[str, Any]]:
        """The last versions of ``topic``'s series with nothing in force on ``on`` (`kb.changes.ended`)."""
        return changes.ended(self, topic, on)

    def diff(
        self, start: dt.date, end: dt.date, game: str | None = None, kinds: list[str] | None = None,
        cards: set[str] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Topics added, changed, rescinded and pending between two dates (`kb.changes.diff`); a
        start after the end is a `ReversedRange`."""
        if start > end:
            raise ReversedRange(f"FROM {start} is after TO {end}; give the earlier date first")
        return changes.diff(self, start, end, game, kinds, cards)

    def backrefs(self, topic: str) -> list[dict[str, str]]:
        """Topics whose text in force refers to ``topic`` ("See X")."""
        found = self.referring.get((self.topics[topic]["game"], headword_key(self.topics[topic]["headword"])), set())
        return [{"topic": t, "headword": self.topics[t]["headword"]} for t in sorted(found)]

    def documents_in_force(self, on: dt.date) -> dict[str, Any]:
        """The documents in force on ``on`` and the complete sets declared by then (`kb.documents`)."""
        return documents.in_force(self, on)


def _open_index(directory: Path) -> Searcher:
    return index.open_dir(str(directory)).searcher(weighting=scoring.BM25F())


def iso(value: dt.date | None) -> str | None:
    """A date as ISO text, or None."""
    return value.isoformat() if value else None
