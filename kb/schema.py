"""The SQLite store's layout, shared by its writers (`kb.ingest.store`) and its readers
(`kb.read.reader`): the schema and its version, the versions table's one column list, a row
read back as a `Version`, and a store opened for reading only."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

from kb.model import Place, Version
from kb.paths import DB_NAME as DB_NAME  # the store's file name (schema.DB_NAME)

SCHEMA_VERSION = 8
"""The build's layout (``PRAGMA user_version``): the store's tables, and how its indexes hold
words (5: the text stemmed by inflection only, `kb.analysis.inflection_stem`; 6: each version's
sentence sources, `kb.ingest.sources`; 7: the releases restating each version, ``restated``, and
topics by headword; 8: each version's place in its topic's history, `kb.model.Place`); a build of
another layout must be rebuilt (its index would not find the words a query now makes)."""

VERSION_COLUMNS = {
    "id": "INTEGER PRIMARY KEY", "topic_id": "TEXT NOT NULL REFERENCES topics(id)", "series": "TEXT NOT NULL",
    "headword": "TEXT NOT NULL", "text": "TEXT NOT NULL", "valid_from": "TEXT", "valid_to": "TEXT", "ended": "TEXT",
    "document_id": "TEXT NOT NULL REFERENCES documents(id)", "line_start": "INTEGER NOT NULL",
    "line_end": "INTEGER NOT NULL", "operation": "TEXT NOT NULL", "supersedes": "INTEGER", "note": "TEXT NOT NULL",
    "condition": "TEXT", "refs": "TEXT NOT NULL", "summary": "TEXT", "authority": "TEXT NOT NULL",
    "ended_by": "TEXT", "key": "TEXT NOT NULL UNIQUE", "sources": "TEXT NOT NULL", "restated": "TEXT NOT NULL",
    "number": "INTEGER NOT NULL", "of": "INTEGER NOT NULL", "successor": "TEXT", "successor_number": "INTEGER",
    "absent": "TEXT",
}  # fmt: skip
"""The versions table's columns and their declarations: the one list its CREATE, INSERT and
SELECT are made from (`version_row` writes a row by these names, `version_of` reads one). The
last five are the version's `kb.model.Place`: what an answer part tells of its topic's history."""
VERSION_SELECT = ", ".join(VERSION_COLUMNS)
"""The columns to SELECT for `version_of`."""

NAME_TABLE = (
    "CREATE TABLE IF NOT EXISTS name_table (names TEXT NOT NULL, alphabet TEXT NOT NULL, counts BLOB NOT NULL,"
    " size INTEGER NOT NULL)"
)
"""The characters of every name counted (`kb.vocabulary.NameTable.packed`, one row), for "did you
mean"; a store of this layout built before it was kept has none (its readers count them)."""
SCHEMA = """
CREATE TABLE documents (
    id TEXT PRIMARY KEY, path TEXT NOT NULL, game TEXT NOT NULL, kind TEXT NOT NULL,
    title TEXT NOT NULL, version TEXT NOT NULL, date TEXT, date_approximate INTEGER NOT NULL,
    supersedes TEXT, note TEXT NOT NULL, declared_date TEXT, previous_date TEXT,
    complete_set TEXT NOT NULL, encoding TEXT NOT NULL, line_count INTEGER NOT NULL,
    nonblank INTEGER NOT NULL, duplicates_merged INTEGER NOT NULL, source TEXT NOT NULL
);
CREATE TABLE topics (id TEXT PRIMARY KEY, game TEXT NOT NULL, headword TEXT NOT NULL, kind TEXT NOT NULL);
CREATE INDEX topics_headword ON topics(game, headword);
CREATE TABLE versions ({versions});
CREATE INDEX versions_topic ON versions(topic_id, valid_from, valid_to, document_id);
CREATE INDEX versions_supersedes ON versions(supersedes);
CREATE INDEX versions_from ON versions(valid_from);
CREATE INDEX versions_to ON versions(valid_to);
CREATE INDEX versions_document ON versions(document_id);
CREATE INDEX versions_ended_in ON versions(json_extract(ended_by, '$.document'));
CREATE INDEX versions_restated ON versions(id) WHERE restated <> '[]';
CREATE TABLE topic_keys (key TEXT NOT NULL, topic_id TEXT NOT NULL REFERENCES topics(id));
CREATE INDEX topic_keys_key ON topic_keys(key);
CREATE TABLE see_refs (version_id INTEGER NOT NULL REFERENCES versions(id), game TEXT NOT NULL, key TEXT NOT NULL);
CREATE INDEX see_refs_key ON see_refs(game, key);
CREATE INDEX see_refs_version ON see_refs(version_id);
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
CREATE INDEX card_links_version ON card_links(version_id);
CREATE TABLE card_titles (title TEXT NOT NULL, card_key TEXT NOT NULL REFERENCES cards(key));
CREATE INDEX card_titles_title ON card_titles(title);
CREATE TABLE names (folded TEXT PRIMARY KEY, name TEXT NOT NULL);
{name_table}
""".replace("{name_table}", NAME_TABLE + ";").replace(
    "{versions}", ", ".join(f"{name} {declared}" for name, declared in VERSION_COLUMNS.items())
)
"""The tables and indexes of a build. Three indexes make the diff of a period and the feed cheap
(issue 48): ``versions_topic`` holds each version's dates and document beside its topic, so the
versions deciding a diff are told from the rest of the touched topics' histories without reading
those rows (`kb.read.periods.versions_deciding`); ``versions_ended_in`` finds the versions a
document ended (`periods.versions_of_documents`); ``versions_restated`` holds only the versions a
later release restated (`periods.restated_in_force`). A store built before them has the same
rows and answers the same, only slower."""


_COLUMNS = len(VERSION_COLUMNS)


def version_of(row: sqlite3.Row) -> Version:
    """A version from a row whose first columns are `VERSION_SELECT`'s (read by place, not by
    name: a search reads twenty a page)."""
    (ident, topic, series, headword, text, start, end, ended, document, line_start, line_end, operation,
     supersedes, note, condition, refs, summary, authority, ended_by, key, sources,
     restated, number, of, successor, successor_number, absent) = tuple(row)[:_COLUMNS]  # fmt: skip
    return Version(
        id=ident,
        topic=topic,
        series=series,
        headword=headword,
        text=text,
        valid_from=day(start),
        document_id=document,
        line_start=line_start,
        line_end=line_end,
        operation=operation,
        valid_to=day(end),
        end=ended,
        supersedes=supersedes,
        note=note,
        condition=condition,
        references=[] if refs == "[]" else json.loads(refs),
        summary=summary,
        authority=authority,
        ended_by=json.loads(ended_by) if ended_by else None,
        key=key,
        sources=[] if sources == "[]" else json.loads(sources),
        restated=[] if restated == "[]" else json.loads(restated),
        place=Place(number, of, successor, successor_number, absent),
    )


def day(value: str | None) -> dt.date | None:
    """A date as the store keeps it (ISO text, or NULL: none)."""
    return dt.date.fromisoformat(value) if value else None


def open_readonly(path: Path) -> sqlite3.Connection:
    """Open the store at ``path`` for reading only."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    return connection
