"""The knowledge base's model, shared by the side that builds it and the side that reads it:
a `Version` (one text of one topic in one series, and when it was in force), a `Topic`, a
version's status on a date, the order of a topic's history (`history_order`), a version's
place in that history as an answer tells it (`Place`, `places`)
and a cited line range."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class Version:
    """One text of one topic in one series, and when it was in force."""

    id: int
    topic: str
    series: str
    headword: str
    text: str
    valid_from: dt.date | None
    """None while pending on a condition with no date yet."""
    document_id: str
    line_start: int
    line_end: int
    operation: str
    """original, replace, replace-part, add, delete-part, cancel, errata."""
    valid_to: dt.date | None = None
    end: str | None = None
    """Why it stopped: superseded, rescinded, cancelled, consolidated."""
    ended_by: dict[str, str] | None = None
    """The document that ended it: ``document`` id, cited ``lines``, and the ``release`` it waited for."""
    supersedes: int | None = None
    note: str = ""
    """What a reader must know, e.g. that the amended text is not in the knowledge base."""
    condition: str | None = None
    """"upon release of X" for a pending version."""
    references: list[str] = field(default_factory=list)
    summary: str | None = None
    fields: dict[str, str] = field(default_factory=dict)
    """A table row's cells by column name (searchable, not stored in SQLite)."""
    authority: str = "official"
    """official, temporary (a Glossary's Temporary Rulings) or informal (a FAQ's answers)."""
    key: str = ""
    """Its permalink (`kb.ingest.store.version_keys`), given by the store; empty while building."""
    sources: list[list[list[str]]] = field(default_factory=list)
    """Per paragraph, per sentence, ``[document id, lines]`` that wrote it, when some sentence was
    written by another document than its own (an amendment's base, `kb.ingest.sources`); empty:
    every sentence is its own document's."""
    restated: list[list[str]] = field(default_factory=list)
    """The later documents that restated its text unchanged (a release of numbered rules), oldest
    first: ``[document id, lines, text]``, the text empty when the same, else as that document
    prints it (its typography alone differs: `kb.typography`)."""
    place: Place | None = None
    """Its place in its topic's history (`Place`), as the store gives it; None while building."""


def status(version: Version, on: dt.date) -> str:
    """active, superseded, rescinded or pending, as seen on date ``on``."""
    if version.valid_from is None or version.valid_from > on:
        return "pending"
    if version.valid_to is None or on < version.valid_to:
        return "active"
    return "superseded" if version.end == "superseded" else "rescinded"


def history_order(version: Version) -> tuple[dt.date, int]:
    """The order of a topic's history: by start date (pending last), then as built."""
    return version.valid_from or dt.date.max, version.id


class Place(NamedTuple):
    """What an answer part tells of a version's place in its topic's history, worked out by the
    build from the whole history (`places`) and stored in the version's row, so that an answer
    reads nothing else of the topic (before, each hit read its topic's outline: 20% of a search's
    CPU on the 90k library)."""

    number: int
    """Its place (from 1) in its series sorted oldest first (`history_order`)."""
    of: int
    """How many versions its series has."""
    successor: str | None
    """The permalink of the version that superseded it (of those begun, the last built), or None."""
    successor_number: int | None
    """That version's `number`."""
    absent: str | None
    """When it amends a text the library lacks, itself or through the amendments it builds on
    (back to a whole text: `WHOLE`), the note of the amendment that says so (`ABSENT`); else None."""


ABSENT = "that text is not in this knowledge base"
"""How a version's note says the text it amends is absent (`kb.ingest.ledger` writes it)."""
WHOLE = ("original", "replace", "errata")
"""Operations whose text stands alone: a version made by one is whole."""


def places(history: Sequence[Version], keys: dict[int, str]) -> dict[int, Place]:
    """The `Place` of each version of one topic's whole ``history`` (id order), by id, its
    versions' permalinks being ``keys``."""
    series: dict[str, list[int]] = {}
    for version in sorted(history, key=history_order):
        series.setdefault(version.series, []).append(version.id)
    numbers = {ident: (place, len(ids)) for ids in series.values() for place, ident in enumerate(ids, 1)}
    after: dict[int, int] = {}
    for later in history:
        if later.supersedes is not None and later.valid_from:
            after[later.supersedes] = later.id
    by_id = {version.id: version for version in history}
    found = {}
    for version in history:
        successor = after.get(version.id)
        number, of = numbers[version.id]
        found[version.id] = Place(
            number,
            of,
            keys[successor] if successor else None,
            numbers[successor][0] if successor else None,
            _absent(version, by_id),
        )
    return found


def _absent(version: Version, by_id: dict[int, Version]) -> str | None:
    """`Place.absent` of ``version``, among its topic's versions ``by_id``."""
    current: Version | None = version
    while current is not None and current.operation not in WHOLE:
        if ABSENT in current.note:
            return current.note
        current = by_id.get(current.supersedes) if current.supersedes else None
    return None


def placed(version: Version) -> Place:
    """``version``'s `Place`, as its store gave it."""
    if version.place is None:
        raise ValueError(f"version {version.id} has no place in its history: it was not read from a store")
    return version.place


@dataclass
class Topic:
    """A subject with entries: game + normalised headword."""

    id: str
    game: str
    headword: str
    kind: str


def lines(start: int, end: int) -> str:
    """A cited line range as text: ``79`` or ``79-83``."""
    return f"{start}" + (f"-{end}" if end != start else "")
