"""The SQLite store of record: documents (with their source text), entries, versions, cards.

Written once per build into a fresh file (`write`), then only read (`open_readonly`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from kb.catalog import Catalog
from kb.paths import DB_NAME as DB_NAME  # the store's file name (store.DB_NAME)
from kb.versions import Ledger, Version
from rulings.model import ParseResult
from rulings.normalize import headword_key

SCHEMA = """
CREATE TABLE documents (
    id TEXT PRIMARY KEY, path TEXT NOT NULL, game TEXT NOT NULL, kind TEXT NOT NULL,
    title TEXT NOT NULL, version TEXT NOT NULL, date TEXT, date_approximate INTEGER NOT NULL,
    supersedes TEXT, note TEXT NOT NULL, declared_date TEXT, previous_date TEXT,
    complete_set TEXT NOT NULL, encoding TEXT NOT NULL, line_count INTEGER NOT NULL,
    nonblank INTEGER NOT NULL, duplicates_merged INTEGER NOT NULL, source TEXT NOT NULL
);
CREATE TABLE entries (
    id INTEGER PRIMARY KEY, document_id TEXT NOT NULL REFERENCES documents(id),
    seq INTEGER NOT NULL, headword TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
    number TEXT, parent TEXT, text TEXT NOT NULL, line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL, lines TEXT NOT NULL, duplicate_lines TEXT NOT NULL,
    marked INTEGER NOT NULL, summary_of TEXT, summary TEXT, fields TEXT NOT NULL
);
CREATE INDEX entries_key ON entries(key);
CREATE TABLE refs (
    entry_id INTEGER NOT NULL REFERENCES entries(id), target TEXT NOT NULL,
    target_key TEXT NOT NULL
);
CREATE TABLE deck_cards (
    entry_id INTEGER NOT NULL REFERENCES entries(id), grp TEXT NOT NULL,
    name TEXT NOT NULL, count INTEGER NOT NULL, known INTEGER NOT NULL
);
CREATE TABLE leftovers (
    document_id TEXT NOT NULL REFERENCES documents(id), line INTEGER NOT NULL,
    what TEXT NOT NULL CHECK (what IN ('chrome', 'unparsed'))
);
CREATE TABLE warnings (document_id TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE topics (id TEXT PRIMARY KEY, game TEXT NOT NULL, headword TEXT NOT NULL, kind TEXT NOT NULL);
CREATE TABLE versions (
    id INTEGER PRIMARY KEY, topic_id TEXT NOT NULL REFERENCES topics(id), series TEXT NOT NULL,
    headword TEXT NOT NULL, text TEXT NOT NULL, valid_from TEXT, valid_to TEXT, ended TEXT,
    document_id TEXT NOT NULL REFERENCES documents(id), line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL, operation TEXT NOT NULL, supersedes INTEGER, note TEXT NOT NULL,
    condition TEXT, refs TEXT NOT NULL, summary TEXT, authority TEXT NOT NULL DEFAULT 'official', ended_by TEXT
);
CREATE INDEX versions_topic ON versions(topic_id);
CREATE TABLE releases (name TEXT PRIMARY KEY, date TEXT NOT NULL);
CREATE TABLE cards (
    key TEXT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL, sets TEXT NOT NULL,
    affiliation TEXT NOT NULL, uniqueness TEXT NOT NULL, persona TEXT NOT NULL, aliases TEXT NOT NULL,
    source TEXT NOT NULL, printings TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE card_links (
    version_id INTEGER NOT NULL REFERENCES versions(id), card_key TEXT NOT NULL REFERENCES cards(key),
    via TEXT NOT NULL
);
CREATE INDEX card_links_card ON card_links(card_key);
"""


def _iso(value: object) -> str | None:
    return None if value is None else str(value)


def write(
    path: Path, results: list[ParseResult], ledger: Ledger, catalog: Catalog, links: list[tuple[int, str, str]]
) -> None:
    """Create the store at ``path`` (which must not exist): documents, versions, cards and links."""
    connection = sqlite3.connect(path)
    try:
        with connection:
            connection.executescript(SCHEMA)
            for result in results:
                _write_one(connection, result)
            _write_versions(connection, ledger)
            connection.executemany(
                "INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (c.key, c.game, c.name, c.type, json.dumps(c.sets), c.affiliation, c.uniqueness, c.persona,
                     json.dumps(c.aliases), c.source, json.dumps([vars(p) for p in c.printings]))
                    for c in catalog.cards.values()
                ],
            )  # fmt: skip
            connection.executemany("INSERT INTO card_links VALUES (?,?,?)", links)
    finally:
        connection.close()


def extend(
    path: Path, results: list[ParseResult], ledger: Ledger, first: int, changed: list[int], topics: list[str],
    links: list[tuple[int, str, str]],
) -> None:  # fmt: skip
    """Bring a copy of the previous build's store up to ``ledger``: add the documents ``results``,
    the versions from number ``first`` on and the card ``links`` of those, rewrite the earlier
    versions listed in ``changed`` (their end) and the ``topics`` (new or renamed). The cards
    and releases are those of the previous build (the caller has checked)."""
    connection = sqlite3.connect(path)
    try:
        with connection:
            for result in results:
                _write_one(connection, result)
            for topic in (ledger.topics[i] for i in topics):
                row = (topic.game, topic.headword, topic.kind, topic.id)
                if not connection.execute("UPDATE topics SET game=?, headword=?, kind=? WHERE id=?", row).rowcount:
                    connection.execute("INSERT INTO topics VALUES (?,?,?,?)", (row[3], *row[:3]))
            connection.executemany("DELETE FROM versions WHERE id = ?", [(i,) for i in changed])
            rewritten = [ledger.versions[i - 1] for i in changed] + ledger.versions[first:]
            connection.executemany(_VERSION_INSERT, _version_rows(rewritten))
            connection.executemany("INSERT INTO card_links VALUES (?,?,?)", links)
    finally:
        connection.close()


_VERSION_INSERT = f"INSERT INTO versions VALUES ({','.join('?' * 19)})"
"""One row of `_version_rows`, in the versions table's column order."""


def _version_rows(versions: list[Version]) -> list[tuple[object, ...]]:
    return [
        (
            v.id, v.topic, v.series, v.headword, v.text, _iso(v.valid_from), _iso(v.valid_to), v.end,
            v.document_id, v.line_start, v.line_end, v.operation, v.supersedes, v.note, v.condition,
            json.dumps(v.references), v.summary, v.authority, json.dumps(v.ended_by) if v.ended_by else None,
        )
        for v in versions
    ]  # fmt: skip


def _write_versions(connection: sqlite3.Connection, ledger: Ledger) -> None:
    connection.executemany(
        "INSERT INTO topics VALUES (?,?,?,?)", [(t.id, t.game, t.headword, t.kind) for t in ledger.topics.values()]
    )
    connection.executemany(_VERSION_INSERT, _version_rows(ledger.versions))
    connection.executemany("INSERT INTO releases VALUES (?,?)", [(k, _iso(v)) for k, v in ledger.releases.items()])


def _write_one(connection: sqlite3.Connection, result: ParseResult) -> None:
    d = result.document
    connection.execute(
        "INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            d.id,
            d.path,
            d.game,
            d.kind,
            d.title,
            d.version,
            _iso(d.date),
            int(d.date_approximate),
            d.supersedes,
            d.note,
            _iso(d.declared_date),
            _iso(d.previous_date),
            json.dumps(d.complete_set),
            d.encoding,
            result.line_count,
            len(result.nonblank),
            result.duplicates_merged,
            "\n".join(result.lines),
        ),
    )
    for seq, e in enumerate(result.entries):
        cursor = connection.execute(
            "INSERT INTO entries (document_id, seq, headword, key, kind, number, parent, text,"
            " line_start, line_end, lines, duplicate_lines, marked, summary_of, summary, fields)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                d.id,
                seq,
                e.headword,
                headword_key(e.headword),
                e.kind,
                e.number,
                e.parent,
                e.text,
                e.span.start,
                e.span.end,
                json.dumps(e.lines),
                json.dumps(sorted(e.duplicate_lines)),
                int(e.marked),
                e.summary_of,
                e.summary,
                json.dumps(e.fields),
            ),
        )
        entry_id = cursor.lastrowid
        connection.executemany(
            "INSERT INTO refs VALUES (?,?,?)", [(entry_id, t, headword_key(t)) for t in e.references]
        )
        connection.executemany(
            "INSERT INTO deck_cards VALUES (?,?,?,?,?)",
            [(entry_id, c.group, c.name, c.count, int(c.known)) for c in e.cards],
        )
    connection.executemany(
        "INSERT INTO leftovers VALUES (?,?,?)",
        [(d.id, n, "chrome") for n in result.chrome] + [(d.id, n, "unparsed") for n in result.unparsed],
    )
    connection.executemany("INSERT INTO warnings VALUES (?,?)", [(d.id, w) for w in result.warnings])


def open_readonly(path: Path) -> sqlite3.Connection:
    """Open the store at ``path`` for reading only."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    return connection
