"""Reading a built store: each thread its own SQLite connection; topics, versions, cards and
documents looked up by what an answer needs, never the whole store at open.

A `Reader` is shared by the threads of a server. SQLite connections are not: each thread
opens its own on first use; those of threads that have ended are closed when another thread
opens one, and all of them by `close`. A bounded cache keeps the histories of the topics
asked for last (`HISTORIES`), changed only under the lock (what an answer part tells of a
version's place in its topic's history is stored with it, `kb.model.Place`: no part reads the
rest of its topic); the documents' facts (not their source text) are read once. It counts
the version rows it has read (`versions_read`) and the statements it ran (`statements`), so
tests can bound the work an answer does.
A store of another layout than this code writes (`kb.schema.SCHEMA_VERSION`) is refused with
a `BuildError` line.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, cast

from kb import schema
from kb.errors import BuildError, Damaged
from kb.kept import Kept, Pool, sized
from kb.model import Version
from kb.paging import pause
from kb.read.names import NameReading

HISTORIES = 16 << 20
"""What the topics' versions a knowledge base keeps in memory weigh at most, in bytes (the most
recently asked for)."""
IN_FORCE = "valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)"
"""A version in force on a day (given twice, ISO): begun by then and not yet ended (`kb.model.status`)."""
PAGES_BYTES = 64 << 20
"""What the pages' caches of a process weigh at most together, in bytes, whatever the knowledge
bases open (`PAGES`): the topics' versions of each (`HISTORIES`) and the
diffs' changes (`kb.read.parts.DIFFS`). Before, each knowledge base kept up to 80 MiB of its own
apart from any bound of the process."""
PAGES = Pool(PAGES_BYTES)
"""The process's pool of the pages' caches."""
PAGE_CACHE_KB = 128
"""SQLite's page cache of each connection (its default, 2 MB, times the threads of each process;
512 KB held 0.3 MB more per thread of a server with no answer any faster: the system caches
the file anyway)."""
PAUSE_ROWS = 256
"""Versions read between two points where a long answer may let a search go first (`kb.paging.pause`)."""
_SELECT = f"SELECT {schema.VERSION_SELECT} FROM versions"


class Closable(Protocol):
    """What a thread keeps open for itself: an SQLite connection or a Whoosh searcher."""

    def close(self) -> None: ...


STORE = "store"
"""The name of a thread's SQLite connection among the things it keeps open (`Reader.own`)."""


def _close_all(owned: dict[threading.Thread, dict[str, Closable]]) -> None:
    for thing in [t for mine in owned.values() for t in mine.values()]:
        thing.close()


class Reader:
    """Read-only lookups over one build directory's store, safe to share between threads."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / schema.DB_NAME
        self._lock = threading.Lock()
        """Guards the connection table, the caches, the counter and ``closed``."""
        self._owned: dict[threading.Thread, dict[str, Closable]] = {}
        """Each thread's own connection and searchers, by name: none is ever shared."""
        weakref.finalize(self, _close_all, self._owned)  # a reader dropped unclosed
        self.pool = PAGES
        """The process's bound of the pages' caches, this reader's and its answers' (`PAGES`)."""
        self._histories: Kept[tuple[Version, ...]] = Kept(HISTORIES, sized, self.pool, largest=HISTORIES // 4)
        """Topic id -> its versions in id order."""
        self._documents: dict[str, dict[str, Any]] | None = None
        self.names_read = NameReading(self)
        """The folded names and their characters counted, read once (`kb.read.names`)."""
        self.versions_read = 0
        """Version rows read so far (by every thread)."""
        self.statements = 0
        """SQL statements run so far (by every thread)."""
        self.closed = False
        try:
            layout = self.rows("PRAGMA user_version")[0][0]
        except sqlite3.DatabaseError as err:
            Reader.close(self)
            raise BuildError(f"{self.path}: not a readable store ({err}); run 'rulings build'") from None
        if layout != schema.SCHEMA_VERSION:
            Reader.close(self)
            raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'")

    # -- connections ----------------------------------------------------------------

    def own(self, name: str, opening: Callable[[], Closable]) -> Closable:
        """The calling thread's own ``name`` (its connection, a searcher), made by ``opening`` on
        first use; what threads that have ended kept open is closed here."""
        thread = threading.current_thread()
        with self._lock:
            if self.closed:
                raise BuildError(f"{self.directory}: this knowledge base was replaced and closed")
            mine = self._owned.setdefault(thread, {})
            if name not in mine:
                for ended in [t for t in self._owned if not t.is_alive()]:
                    for thing in self._owned.pop(ended).values():
                        thing.close()
                mine[name] = opening()
            return mine[name]

    def owned(self, connections: bool) -> int:
        """How many connections (``connections``) or else searchers the threads keep open."""
        with self._lock:
            return sum((name == STORE) == connections for mine in self._owned.values() for name in mine)

    def _connection(self) -> sqlite3.Connection:
        """The calling thread's connection, opened on first use."""
        return cast(sqlite3.Connection, self.own(STORE, self._connect))

    def _connect(self) -> sqlite3.Connection:
        # used by its thread only; closed by the thread that retires it, once unused
        connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KB}")  # the system caches the file anyway
        return connection

    def rows(self, sql: str, *parameters: Any) -> list[sqlite3.Row]:
        """Every row ``sql`` selects, read with this thread's connection."""
        with self.reading():
            return self._connection().execute(sql, parameters).fetchall()

    def each_row(self, sql: str, *parameters: Any) -> Iterator[sqlite3.Row]:
        """The rows ``sql`` selects, read one at a time with this thread's connection (the
        caller reads them all before the thread asks for anything else)."""
        with self.reading():
            yield from self._connection().execute(sql, parameters)

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Reads of the store (each counted in `statements`): one it cannot make (a damaged page,
        a file cut short) is `Damaged`."""
        with self._lock:
            self.statements += 1
        try:
            yield
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.ProgrammingError):
                raise  # a mistake of ours, not of the file
            raise Damaged(self.path, err) from None

    def records(self, sql: str, *parameters: Any) -> list[dict[str, Any]]:
        """Every row ``sql`` selects, as a dict."""
        return [dict(r) for r in self.rows(sql, *parameters)]

    def record(self, sql: str, *parameters: Any) -> dict[str, Any] | None:
        """The first row ``sql`` selects, as a dict, or None."""
        found = self.rows(sql, *parameters)
        return dict(found[0]) if found else None

    def versions_where(self, where: str, *parameters: Any) -> list[Version]:
        """The versions ``where`` (a condition and order on the ``versions`` table) selects (counted
        in `versions_read`)."""
        found = []
        for number, row in enumerate(self.rows(f"{_SELECT} {where}", *parameters)):
            if number % PAUSE_ROWS == 0:
                pause()  # a long answer lets a search go first (`kb.paging.yielding`)
            found.append(schema.version_of(row))
        with self._lock:
            self.versions_read += len(found)
        return found

    def open_connections(self) -> int:
        """How many SQLite connections are open (at most one per live thread that read)."""
        return self.owned(connections=True)

    def close(self) -> None:
        """Close every connection and searcher of every thread; answering afterwards is a `BuildError`."""
        with self._lock:
            self.closed = True
            things = [t for mine in self._owned.values() for t in mine.values()]
            self._owned.clear()
        for thing in things:
            thing.close()

    # -- topics and versions --------------------------------------------------------

    def topic(self, ident: str) -> dict[str, Any] | None:
        """A topic's row (id, game, headword, kind), or None."""
        return self.record("SELECT * FROM topics WHERE id = ?", ident)

    def topics(self) -> list[dict[str, Any]]:
        """Every topic, in the order the build made them."""
        return self.records("SELECT * FROM topics ORDER BY rowid")

    def topics_among(self, idents: set[str]) -> list[dict[str, Any]]:
        """The topics ``idents`` (those that exist), in the order the build made them."""
        sql = "SELECT * FROM topics WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid"
        return self.records(sql, json.dumps(sorted(idents)))

    def topics_keyed(self, key: str) -> list[dict[str, Any]]:
        """The topics found by a headword key (or an id's slug in words), in build order."""
        sql = "SELECT t.* FROM topic_keys k JOIN topics t ON t.id = k.topic_id WHERE k.key = ? ORDER BY t.rowid"
        return self.records(sql, key)

    def versions_of(self, topic: str) -> list[Version]:
        """Every version of ``topic``, in id order (none for an unknown topic)."""
        found = self._histories.get(topic)
        if found is None:
            found = self._histories.put(topic, tuple(self.versions_where("WHERE topic_id = ? ORDER BY id", topic)))
        return list(found)

    def version(self, ident: int) -> Version | None:
        """The version numbered ``ident`` in this build, or None."""
        found = self.versions_where("WHERE id = ?", ident)
        return found[0] if found else None

    def versions_numbered(self, idents: list[int]) -> dict[int, Version]:
        """The versions numbered ``idents`` in this build (those it holds), read in one query, in id
        order: any number of them (the list is one parameter, not one each)."""
        if not idents:
            return {}
        where = "WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id"
        return {v.id: v for v in self.versions_where(where, json.dumps(sorted(set(idents))))}

    def version_at(self, key: str) -> Version | None:
        """The version whose permalink is ``key`` (``topic@document@series``), or None."""
        found = self.versions_where("WHERE key = ?", key)
        return found[0] if found else None

    def every_version(self) -> list[Version]:
        """Every version, in id order (for tools that need them all: it reads the whole table)."""
        return self.versions_where("ORDER BY id")

    def versions_in_force(self, on: dt.date) -> list[Version]:
        """Every version in force on the date ``on``, in id order."""
        day = on.isoformat()
        return self.versions_where(f"WHERE {IN_FORCE} ORDER BY id", day, day)

    def histories(self) -> Iterator[list[Version]]:
        """Each topic's versions (id order), topic after topic: every version, read as it goes."""
        topic: list[Version] = []
        for row in self.each_row(f"{_SELECT} ORDER BY topic_id, id"):
            version = schema.version_of(row)
            if topic and topic[0].topic != version.topic:
                yield topic
                topic = []
            topic.append(version)
        if topic:
            yield topic

    def referring(self, game: str, key: str) -> list[str]:
        """The topics (in id order) whose versions in force say "See" the topic of ``key`` in ``game``."""
        sql = (
            "SELECT DISTINCT v.topic_id FROM see_refs r JOIN versions v ON v.id = r.version_id WHERE r.game = ?"
            " AND r.key = ? AND v.valid_to IS NULL AND v.valid_from IS NOT NULL ORDER BY v.topic_id"
        )
        return [r[0] for r in self.rows(sql, game, key)]

    def version_keys(self) -> list[str]:
        """Every version's permalink, sorted."""
        return sorted(r[0] for r in self.rows("SELECT key FROM versions"))

    # -- cards ----------------------------------------------------------------------

    def card_row(self, key: str) -> dict[str, Any] | None:
        """A card's catalog row, or None."""
        return self.record("SELECT * FROM cards WHERE key = ?", key)

    def cards(self) -> list[dict[str, Any]]:
        """Every card of the catalog, in catalog order."""
        return self.records("SELECT * FROM cards ORDER BY rowid")

    def cards_titled(self, title: str) -> list[dict[str, Any]]:
        """The cards a title key (of a name or an alias) names, in key order."""
        sql = "SELECT c.* FROM card_titles t JOIN cards c ON c.key = t.card_key WHERE t.title = ? ORDER BY c.key"
        return self.records(sql, title)

    def card_links(self, version: Version) -> list[tuple[str, str]]:
        """(card key, how it is named) for each card ``version`` names, in the order found."""
        return [
            (r[0], r[1])
            for r in self.rows("SELECT card_key, via FROM card_links WHERE version_id = ? ORDER BY rowid", version.id)
        ]

    def card_keys(self, idents: list[int]) -> dict[int, set[str]]:
        """Each of the versions numbered ``idents`` -> the keys of the cards it names (`card_links`),
        read in one query (a diff limited to a deck: one query where it made one a version)."""
        found: dict[int, set[str]] = {ident: set() for ident in idents}
        sql = "SELECT version_id, card_key FROM card_links WHERE version_id IN (SELECT value FROM json_each(?))"
        for row in self.rows(sql, json.dumps(sorted(found))):
            found[row[0]].add(row[1])
        return found

    def card_versions(self, key: str, on: dt.date | None = None) -> list[tuple[Version, set[str]]]:
        """Every version naming card ``key`` (only those in force on ``on`` when given), in id
        order, with how it names it."""
        columns = ", ".join(f"v.{c}" for c in schema.VERSION_COLUMNS)
        within = "" if on is None else f" AND {IN_FORCE}"
        sql = (
            f"SELECT {columns}, l.via FROM card_links l JOIN versions v ON v.id = l.version_id"
            f" WHERE l.card_key = ?{within} ORDER BY l.version_id, l.rowid"
        )
        found: dict[int, tuple[Version, set[str]]] = {}
        for row in self.rows(sql, key, *([] if on is None else [on.isoformat()] * 2)):
            found.setdefault(row["id"], (schema.version_of(row), set()))[1].add(row["via"])
        with self._lock:
            self.versions_read += len(found)
        return list(found.values())

    def card_names(self, versions: list[Version]) -> list[str]:
        """The names of the cards ``versions`` mention or are headed by, in first-mention order."""
        named = self._card_links(versions)
        return list(dict(pair for v in versions for pair in named.get(v.id, [])).values())

    def card_names_each(self, versions: list[Version]) -> dict[int, list[str]]:
        """Each of ``versions`` (by id) -> `card_names` of it alone, read in one query."""
        named = self._card_links(versions)
        return {v.id: list(dict(named.get(v.id, [])).values()) for v in versions}

    def _card_links(self, versions: list[Version]) -> dict[int, list[tuple[str, str]]]:
        """Version id -> (card key, card name) of each card it mentions or is headed by, in mention order."""
        if not versions:
            return {}
        marks = ",".join("?" * len(versions))
        sql = (
            f"SELECT l.version_id, l.card_key, c.name FROM card_links l JOIN cards c ON c.key = l.card_key"
            f" WHERE l.version_id IN ({marks}) ORDER BY l.rowid"
        )
        named: dict[int, list[tuple[str, str]]] = {}
        for row in self.rows(sql, *(v.id for v in versions)):
            named.setdefault(row[0], []).append((row[1], row[2]))
        return named

    # -- documents ------------------------------------------------------------------

    def documents(self) -> dict[str, dict[str, Any]]:
        """Document id -> its facts (not its source text), in id order; read on first use."""
        if self._documents is None:  # read whole, then published
            columns = [r["name"] for r in self.rows("PRAGMA table_info(documents)") if r["name"] != "source"]
            rows = self.rows(f"SELECT {', '.join(columns)} FROM documents ORDER BY rowid")
            self._documents = {r["id"]: dict(r) for r in rows}
        return self._documents

    def document(self, ident: str) -> dict[str, Any] | None:
        """A document's facts, or None."""
        return self.documents().get(ident)

    def document_lines(self, ident: str) -> list[str]:
        """A document's source text, line by line (none for an unknown document)."""
        found = self.rows("SELECT source FROM documents WHERE id = ?", ident)
        return str(found[0][0]).split("\n") if found else []
