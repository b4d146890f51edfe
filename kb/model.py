"""The knowledge base's model, shared by the side that builds it and the side that reads it:
a `Version` (one text of one topic in one series, and when it was in force), a `Topic`, a
version's status on a date, the order of a topic's history (of versions, `history_order`, or
of their `Outline`, `outline_order`), a topic's history in outline with its series numbers
(`Outlines`) and a cited line range."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final


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


def status(version: Version, on: dt.date) -> str:
    """active, superseded, rescinded or pending, as seen on date ``on``."""
    if version.valid_from is None or version.valid_from > on:
        return "pending"
    if version.valid_to is None or on < version.valid_to:
        return "active"
    return "superseded" if version.end == "superseded" else "rescinded"


Outline = tuple[int, str, str, "dt.date | None", "int | None", str, str]
"""A version's place in its topic's history, without its text: its id, key, series, start
date, the version it supersedes, operation and note (read by index: `ID` ... `NOTE`), what
numbering a version in its series, finding its successor and telling whether its text is
partial read. A plain tuple of plain values: once the cyclic collector has seen one it stops
walking it (not so a named tuple), and a server keeps tens of thousands (`kb.read.reader.OUTLINES`)."""
ID: Final = 0
"""The places of an `Outline`'s fields."""
KEY: Final = 1
SERIES: Final = 2
VALID_FROM: Final = 3
SUPERSEDES: Final = 4
OPERATION: Final = 5
NOTE: Final = 6


def outline_of(version: Version) -> Outline:
    """The outline of a version at hand."""
    return (version.id, version.key, version.series, version.valid_from, version.supersedes, version.operation,
            version.note)  # fmt: skip


def history_order(version: Version) -> tuple[dt.date, int]:
    """The order of a topic's history: by start date (pending last), then as built."""
    return version.valid_from or dt.date.max, version.id


def outline_order(outline: Outline) -> tuple[dt.date, int]:
    """`history_order` of an outline."""
    return outline[VALID_FROM] or dt.date.max, outline[ID]


@dataclass(frozen=True)
class Outlines:
    """A topic's history in outline: its versions' outlines in id order (``each``) and each one's
    place (from 1) in its series sorted oldest first (`outline_order`) with the series' length
    (``numbers``, by version id), worked out once (`outlines`)."""

    each: tuple[Outline, ...]
    numbers: dict[int, tuple[int, int]]


def outlines(each: Sequence[Outline]) -> Outlines:
    """The `Outlines` of a topic whose versions ``each`` outlines (in id order)."""
    series: dict[str, list[int]] = {}
    for outline in sorted(each, key=outline_order):
        series.setdefault(outline[SERIES], []).append(outline[ID])
    numbers = {ident: (place, len(ids)) for ids in series.values() for place, ident in enumerate(ids, 1)}
    return Outlines(tuple(each), numbers)


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
