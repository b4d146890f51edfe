"""The SQLite store of record: documents (with their source text), topics, versions, cards.

Written once per build into a fresh file (`write`), extended into a copy by an incremental
build (`extend`), then only read (`kb.schema.open_readonly`, `kb.read.reader`). Besides the rows of record
it holds what the answers look things up by: each version's permalink ``key``, a topic's
spellings (``topic_keys``), a card's title spellings (``card_titles``), the "See X"
references of each version (``see_refs``) and the names for "did you mean" (``names``), so
an answer reads only the rows it needs. The versions table is written and read through one
column list (`kb.schema.VERSION_COLUMNS`), the layout both sides share. What only the build
needs (entries, their warnings, chrome
and unparsed lines, releases) is not stored here: the parses are kept by `kb.ingest.incremental`,
the findings in the build's ``report.json``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kb.ingest.catalog import Card, Catalog
from kb.ingest.versioning import Ledger
from kb.model import Place, Topic, Version, places
from kb.schema import DB_NAME as DB_NAME  # the store's file name (store.DB_NAME)
from kb.schema import NAME_TABLE, SCHEMA, SCHEMA_VERSION, VERSION_COLUMNS, VERSION_SELECT
from kb.vocabulary import NameTable, reference_keys
from rulings.model import ParseResult
from rulings.normalize import headword_key, title_key

if TYPE_CHECKING:
    from kb.ingest.state import Extension


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
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            for result in results:
                _write_one(connection, result)
            topics = list(ledger.topics.values())
            connection.executemany(
                "INSERT INTO topics VALUES (?,?,?,?)", [(t.id, t.game, t.headword, t.kind) for t in topics]
            )
            _write_topic_keys(connection, topics, ledger)
            _write_versions(connection, ledger.versions, ledger)
            _write_cards(connection, list(catalog.cards.values()))
            connection.executemany("INSERT INTO card_links VALUES (?,?,?)", links)
            _write_names(connection)
    finally:
        connection.close()


def extend(path: Path, ledger: Ledger, extension: Extension, *, moved: dict[str, str] | None = None) -> None:
    """Bring a copy of the previous build's store up to ``ledger``, as ``extension`` says: add the
    documents of its results, the versions from number ``first`` on and the card ``links`` of
    those, rewrite the earlier versions listed in ``changed`` (their end), the ``topics`` (new or
    renamed), the ``cards`` (changed, or new: those come after every other card of the catalog)
    and the file of each ``moved`` document (id -> path)."""
    results, first, changed, cards = extension.results, extension.first, extension.changed, extension.cards
    topics, links = extension.topics, extension.links
    connection = sqlite3.connect(path)
    try:
        with connection:
            connection.executemany(
                "UPDATE documents SET path = ? WHERE id = ?", [(p, i) for i, p in (moved or {}).items()]
            )
            for result in results:
                _write_one(connection, result)
            renamed = [ledger.topics[i] for i in topics]
            for topic in renamed:
                row = (topic.game, topic.headword, topic.kind, topic.id)
                if not connection.execute("UPDATE topics SET game=?, headword=?, kind=? WHERE id=?", row).rowcount:
                    connection.execute("INSERT INTO topics VALUES (?,?,?,?)", (row[3], *row[:3]))
            connection.executemany("DELETE FROM topic_keys WHERE topic_id = ?", [(t.id,) for t in renamed])
            _write_topic_keys(connection, renamed, ledger)
            connection.executemany("DELETE FROM versions WHERE id = ?", [(i,) for i in changed])
            connection.executemany("DELETE FROM see_refs WHERE version_id = ?", [(i,) for i in changed])
            _write_versions(connection, [ledger.versions[i - 1] for i in changed] + ledger.versions[first:], ledger)
            spelled = _card_spellings(connection, cards)
            stored = [(c.key,) for c, spelling in zip(cards, spelled, strict=True) if spelling]
            connection.executemany("DELETE FROM card_titles WHERE card_key = ?", stored)
            _write_cards(connection, cards)
            connection.executemany("INSERT INTO card_links VALUES (?,?,?)", links)
            if renamed or _card_spellings(connection, cards) != spelled:
                _write_names(connection)
    finally:
        connection.close()


def _write_cards(connection: sqlite3.Connection, cards: list[Card]) -> None:
    """``cards`` (rows, and the title keys of their spellings), in order; a card already stored
    is rewritten in its place (rowid), a new one comes last. Its old title keys must be gone."""
    connection.executemany(
        f"INSERT INTO cards VALUES ({','.join('?' * len(_CARD_COLUMNS))}) ON CONFLICT(key) DO UPDATE SET "
        + ", ".join(f"{column} = excluded.{column}" for column in _CARD_COLUMNS[1:]),
        [
            (
                c.key,
                c.game,
                c.name,
                c.type,
                json.dumps(c.sets),
                c.affiliation,
                c.uniqueness,
                c.persona,
                json.dumps(c.aliases),
                c.source,
                json.dumps([vars(p) for p in c.printings]),
            )
            for c in cards
        ],
    )
    connection.executemany(
        "INSERT INTO card_titles VALUES (?,?)",
        [(t, c.key) for c in cards for t in sorted({title_key(s) for s in [c.name, *c.aliases]})],
    )


def _card_spellings(connection: sqlite3.Connection, cards: list[Card]) -> list[tuple[str, str] | None]:
    """The stored name and aliases of each of ``cards`` (None for one not stored)."""
    found = [connection.execute("SELECT name, aliases FROM cards WHERE key = ?", (c.key,)).fetchone() for c in cards]
    return [tuple(row) if row else None for row in found]


_CARD_COLUMNS = (
    "key",
    "game",
    "name",
    "type",
    "sets",
    "affiliation",
    "uniqueness",
    "persona",
    "aliases",
    "source",
    "printings",
)


def _write_names(connection: sqlite3.Connection) -> None:
    """Folded headword or card name (or alias) -> the name, for "did you mean": of the topics,
    then the cards, as stored; of names folded alike, the last; and their characters counted
    (`kb.schema.NAME_TABLE`), in the same order."""
    from kb.engine.analysers import name_analyzer  # Whoosh's analysers: the readers of a store need not load them

    folded = name_analyzer()
    spelled = [r[0] for r in connection.execute("SELECT headword FROM topics ORDER BY rowid")]
    cards = connection.execute("SELECT name, aliases FROM cards ORDER BY rowid")
    spelled += [n for name, aliases in cards for n in [name, *json.loads(aliases)]]
    names = {" ".join(t.text for t in folded(n)): n for n in spelled}
    names.pop("", None)
    connection.execute("DELETE FROM names")
    connection.executemany("INSERT INTO names VALUES (?,?)", names.items())
    connection.execute(NAME_TABLE)  # a store built before the table was kept is given one
    connection.execute("DELETE FROM name_table")
    packed = NameTable(names).packed()
    if packed is not None:
        connection.execute("INSERT INTO name_table VALUES (?,?,?,?)", packed)


def _write_topic_keys(connection: sqlite3.Connection, topics: list[Topic], ledger: Ledger) -> None:
    ids: dict[str, set[str]] = {}
    for version in ledger.versions:
        if version.fields.get("id"):
            ids.setdefault(version.topic, set()).add(version.fields["id"])
    rows = [(k, t.id) for t in topics for k in topic_keys(t, ids.get(t.id, ()))]
    connection.executemany("INSERT INTO topic_keys VALUES (?,?)", rows)


def topic_keys(topic: Topic, ids: Iterable[str] = ()) -> list[str]:
    """The keys a topic is found by as typed: its headword's key, its id's slug in words, and the ``id``
    field of its versions (a VTES card's VEKN id, ``100519``: the database keys a card by it)."""
    own = {headword_key(topic.headword), topic.id.split(":", 1)[1].replace("-", " ")}
    return sorted(own | {headword_key(i) for i in ids})


def version_keys(versions: list[Version]) -> dict[int, str]:
    """Version id -> permalink: ``topic@document@series``, and ``@2``, ``@3``... after it for
    the later versions (in id order) with the same."""
    keys: dict[int, str] = {}
    taken: set[str] = set()
    for version in versions:
        key = base = f"{version.topic}@{version.document_id}@{version.series}"
        number = 1
        while key in taken:
            number += 1
            key = f"{base}@{number}"
        keys[version.id] = key
        taken.add(key)
    return keys


def version_row(version: Version, key: str, place: Place) -> tuple[object, ...]:
    """A version as a row of `VERSION_COLUMNS`, with its ``place`` in its topic's history."""
    v = version
    fields: dict[str, object] = {
        "id": v.id,
        "topic_id": v.topic,
        "series": v.series,
        "headword": v.headword,
        "text": v.text,
        "valid_from": _iso(v.valid_from),
        "valid_to": _iso(v.valid_to),
        "ended": v.end,
        "document_id": v.document_id,
        "line_start": v.line_start,
        "line_end": v.line_end,
        "operation": v.operation,
        "supersedes": v.supersedes,
        "note": v.note,
        "condition": v.condition,
        "refs": json.dumps(v.references),
        "summary": v.summary,
        "authority": v.authority,
        "ended_by": json.dumps(v.ended_by) if v.ended_by else None,
        "key": key,
        "sources": json.dumps(v.sources),
        "restated": json.dumps(v.restated),
        **place._asdict(),
    }
    return tuple(fields[column] for column in VERSION_COLUMNS)


_VERSION_INSERT = f"INSERT INTO versions ({VERSION_SELECT}) VALUES ({','.join('?' * len(VERSION_COLUMNS))})"


def _write_versions(connection: sqlite3.Connection, versions: list[Version], ledger: Ledger) -> None:
    """``versions`` and the "See" references of each (by the key of the topic it names); the
    place in its topic's history (`kb.model.Place`) of every other version of their topics
    rewritten (an added version changes its series' length, an ended one gains a successor)."""
    keys = version_keys(ledger.versions)
    topics = {v.topic for v in versions}
    histories: dict[str, list[Version]] = {}
    for version in ledger.versions:
        if version.topic in topics:
            histories.setdefault(version.topic, []).append(version)
    placed = {ident: place for history in histories.values() for ident, place in places(history, keys).items()}
    connection.executemany(_VERSION_INSERT, [version_row(v, keys[v.id], placed[v.id]) for v in versions])
    written = {v.id for v in versions}
    others = [(*place, ident) for ident, place in placed.items() if ident not in written]
    columns = ", ".join(f"{name} = ?" for name in Place._fields)
    connection.executemany(f"UPDATE versions SET {columns} WHERE id = ?", others)
    connection.executemany(
        "INSERT INTO see_refs VALUES (?,?,?)",
        [(v.id, ledger.topics[v.topic].game, key) for v in versions for key in _see_keys(v)],
    )


def _see_keys(version: Version) -> list[str]:
    return sorted({key for target in version.references for key in reference_keys(target)})


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
