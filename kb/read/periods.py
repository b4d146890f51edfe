"""The rows a diff of a period and the changes feed read from a store (`kb.read.changes`), each
through the store's own indexes (`kb.schema.SCHEMA`): which days anything changed, which topics
changed between two days, the versions deciding a diff, the versions a document made or ended
(and, without their texts, the changes they made), the versions in force a later release
restated. Functions of a `Reader` (moved out of it, which keeps the rows every answer reads)."""

from __future__ import annotations

import datetime as dt
import json
from typing import NamedTuple

from kb.model import Version
from kb.paging import pause
from kb.read.reader import IN_FORCE, PAUSE_ROWS, Reader
from kb.schema import day


class Change(NamedTuple):
    """What tells the change a version made and ended (`changes_of_documents`): a `Version`'s
    fields of the same names, without its text."""

    id: int
    document_id: str
    valid_from: dt.date | None
    valid_to: dt.date | None
    end: str | None
    supersedes: int | None
    ended_by: str | None
    """`Version.ended_by` as stored (JSON text), read only where it is needed."""


def restated_in_force(reader: Reader, on: dt.date) -> list[Version]:
    """The versions in force on ``on`` (id order) that a later release restated (`Version.restated`
    not empty): all a diff's typography looks at, a few of the versions in force (it read them all,
    0.12 s of a one-month diff's 0.8 s on the quarter-size stress library)."""
    iso = on.isoformat()
    where = f"WHERE {IN_FORCE} AND restated <> '[]'"  # as the index `versions_restated` says it
    return reader.versions_where(f"{where} ORDER BY id", iso, iso)


def change_days(reader: Reader) -> set[str]:
    """Every day a version came into force or stopped."""
    sql = "SELECT valid_from FROM versions WHERE valid_from IS NOT NULL UNION SELECT valid_to FROM versions"
    return {r[0] for r in reader.rows(sql) if r[0]}


def changes_between(reader: Reader, low: str, high: str) -> bool:
    """Whether any version came into force or stopped after day ``low``, up to day ``high``."""
    sql = (
        "SELECT 1 FROM versions WHERE (valid_from > ? AND valid_from <= ?) OR (valid_to > ? AND valid_to <= ?) LIMIT 1"
    )
    return bool(reader.rows(sql, low, high, low, high))


def topics_changed(reader: Reader, start: dt.date, end: dt.date) -> set[str]:
    """The topics with a version that came into force or stopped after ``start``, up to
    ``end``, or that a document of those days left pending on ``end``: the only topics whose
    text in force can differ between the two dates."""
    low, high = start.isoformat(), end.isoformat()
    issued = [i for i, d in reader.documents().items() if d["date"] and low < d["date"] <= high]
    sql = (
        "SELECT DISTINCT topic_id FROM versions WHERE (valid_from > ? AND valid_from <= ?)"
        " OR (valid_to > ? AND valid_to <= ?) OR ((valid_from IS NULL OR valid_from > ?)"
        " AND document_id IN (SELECT value FROM json_each(?)))"
    )
    return {r[0] for r in reader.rows(sql, low, high, low, high, high, json.dumps(issued))}


def versions_of_documents(reader: Reader, documents: set[str]) -> list[Version]:
    """The versions (id order) made by one of ``documents`` or ended by one (rescinded,
    cancelled, consolidated: `Version.ended_by`)."""
    chosen = json.dumps(sorted(documents))
    where = (
        "WHERE document_id IN (SELECT value FROM json_each(?)) OR (ended_by IS NOT NULL AND"
        " json_extract(ended_by, '$.document') IN (SELECT value FROM json_each(?))) ORDER BY id"
    )
    return reader.versions_where(where, chosen, chosen)


def changes_of_documents(reader: Reader, documents: set[str]) -> list[Change]:
    """What tells the change each version made by one of ``documents`` or ended by one made, and
    by which document it ended (`Change`), in id order: the rows `versions_of_documents` selects
    without their texts (the feed's 20 documents of the 90k library: 15,067 versions, 0.09 s
    where reading them whole took 0.44 s)."""
    chosen = json.dumps(sorted(documents))
    sql = (
        "SELECT id, document_id, valid_from, valid_to, ended, supersedes, ended_by FROM versions"
        " WHERE document_id IN (SELECT value FROM json_each(?)) OR (ended_by IS NOT NULL AND"
        " json_extract(ended_by, '$.document') IN (SELECT value FROM json_each(?))) ORDER BY id"
    )
    found = []
    for number, row in enumerate(reader.rows(sql, chosen, chosen)):
        if number % PAUSE_ROWS == 0:
            pause()  # a long answer lets a search go first (`kb.paging.yielding`)
        ident, document, start, end, ended, supersedes, ended_by = tuple(row)
        found.append(Change(ident, document, day(start), day(end), ended, supersedes, ended_by))
    return found


def versions_deciding(reader: Reader, topics: set[str], start: dt.date, end: dt.date) -> dict[str, list[Version]]:
    """For each of ``topics`` (those with any), its versions (id order) in force on ``start``
    or on ``end``, or not yet in force on ``end`` but made by a document issued after
    ``start``, up to ``end``: all a diff between the two dates looks at, a few of each topic's
    history (not the versions later documents made: a one-month diff of the stress library
    read 20,908 versions for 819 topics, most of them made by the documents of the later years)."""
    low, high = start.isoformat(), end.isoformat()
    issued = [i for i, d in reader.documents().items() if d["date"] and low < d["date"] <= high]
    where = (
        "WHERE topic_id IN (SELECT value FROM json_each(?)) AND ("
        f"({IN_FORCE}) OR ({IN_FORCE})"
        " OR ((valid_from IS NULL OR valid_from > ?) AND document_id IN (SELECT value FROM json_each(?))))"
        " ORDER BY topic_id, id"
    )
    found: dict[str, list[Version]] = {}
    chosen = json.dumps(sorted(topics))
    for version in reader.versions_where(where, chosen, low, low, high, high, high, json.dumps(issued)):
        found.setdefault(version.topic, []).append(version)
    return found
