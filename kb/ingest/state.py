"""What one build carries from step to step: what it read before the first (`Run`); the saved
`State` of every document applied, catalogued and linked (which the next build continues,
`kb.ingest.incremental`); and the `Extension` that continuing it with newer documents made
(which `kb.ingest.store.extend` and `kb.index.writer.extend_indexes` write)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kb.ingest.catalog import Card, Catalog
from kb.ingest.versioning import Ledger
from rulings.model import Document, ParseResult


@dataclass
class State:
    """What a build's documents produced, for continuing with newer documents."""

    code: str
    keys: list[str]
    """Each document's `document_key`, in manifest order."""
    documents: list[Document]
    releases: dict[str, dt.date]
    ledger: Ledger
    catalog: Catalog
    """The catalog from the documents (no card file imported)."""
    imported: bool
    """Whether a card file was imported (then an add is a full build)."""
    ordinary: set[str]
    links: list[tuple[int, str, str]]
    seen: dict[int, str]
    """`kb.texts.see_texts` of every version."""
    report_lines: list[str]
    """Each document's report line, then each document's warnings."""
    written: dict[str, str] = field(default_factory=dict)
    """Every word (as `kb.ingest.linking` splits texts) of the versions' texts and "See" references,
    to its `title_key`."""
    after_any: set[str] = field(default_factory=set)
    """The `title_key` of every word written after "any" in those texts (a persona's link, `kb.ingest.linking`)."""
    findable: dict[str, list[str]] = field(default_factory=dict)
    """`card_words` of the catalog."""


@dataclass
class Extension:
    """What continuing a state with newer documents changed."""

    results: list[ParseResult]
    first: int
    """How many versions there were before (the new ones follow)."""
    changed: list[int]
    """Earlier versions whose dates or end changed, or that a new release restated (`Version.restated`)."""
    topics: list[str]
    """Topics new or renamed."""
    links: list[tuple[int, str, str]]
    """The links of the new versions."""
    touched: set[int]
    """Versions whose index document is new or different."""
    before: dict[int, tuple[int, int]]
    """The days in force (`kb.index.writer.days`) the ``changed`` versions whose dates or end changed had before."""
    cards: list[Card]
    """The cards new or changed (safely, `catalog_risk`), in catalog order."""


@dataclass
class Run:
    """What one build read before its first step (`kb.ingest.pipeline`), which every step reads."""

    library: Path
    kb: Path
    manifest: bytes
    """The manifest's bytes (recorded as the build's ``built_from.json``)."""
    documents: list[Document]
    titles: dict[str, frozenset[str]]
    """Each game's card titles: ``titles/<game>.txt`` and the card files'."""
    keys: list[str]
    """Each document's `kb.ingest.incremental.document_key`, in manifest order."""
    releases: dict[str, dt.date]
    card_files: list[Path]
    previous: Path | None
    """The build in service, if any."""
    prints: dict[str, str]
    """Each document's text fingerprint (`kb.ingest.copies`)."""
    started: float
    """When the build began (`time.perf_counter`)."""
    accept_unread: bool = False
    damaged: dict[str, str] = field(default_factory=dict)
    """The kept caches of the previous build that did not load (key or `kb.ingest.incremental.STATE`: why)."""
    guard: Callable[[Ledger], None] | None = None
    """Sees the documents applied before anything is written, and may refuse (`kb.ingest.pipeline.build_locked`)."""
    moved: dict[str, str] = field(default_factory=dict)
    """The documents whose files moved since the previous build (`kb.ingest.incremental.relocate`): id -> path."""
