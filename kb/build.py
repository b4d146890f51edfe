"""Build a knowledge base from a library, atomically.

A build parses every document of the manifest, writes the store into a brand-new
directory under ``<kb>/builds/``, and only then switches the ``<kb>/current`` link to
it with one atomic rename. A build that fails at any step leaves ``current`` as it was,
so readers never see a half-written knowledge base.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from kb import store
from kb.catalog import bundled_catalog, import_lackey
from kb.index import write_indexes
from kb.linking import link_versions
from kb.versions import apply_documents, dangling_references, series_kind
from rulings.manifest import load_manifest, load_releases, load_titles
from rulings.model import ParseResult
from rulings.parse import Coverage, coverage, parse_document

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_LIBRARY = PROJECT / "data"
"""The bundled document library."""
DEFAULT_KB = Path(os.environ.get("RULINGS_KB", PROJECT / "instance" / "kb"))
"""Where knowledge bases are built (git-ignored); ``RULINGS_KB`` overrides it."""
KEEP_BUILDS = 3
"""Older builds beyond this many are removed after a successful switch."""


class BuildError(Exception):
    """A build that could not complete; the previous knowledge base is untouched."""


@dataclass
class DocumentReport:
    """What one document's parse produced, for the build report."""

    id: str
    entries: int
    chrome: int
    unparsed: int
    duplicates_merged: int
    coverage: Coverage
    warnings: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The one-line summary printed by ``rulings build``."""
        c = self.coverage
        return (
            f"{self.id}: {self.entries} entries, {self.chrome} chrome lines, "
            f"{self.unparsed} unparsed lines, {self.duplicates_merged} duplicates merged "
            f"({c.nonblank} non-blank lines, {c.percent:.1f}% accounted for)"
        )


@dataclass
class BuildReport:
    """The outcome of a build."""

    directory: Path
    documents: list[DocumentReport]
    seconds: float
    warnings: list[str] = field(default_factory=list)
    """Findings of applying the documents and importing cards (bad catalog rows...)."""
    references: list[str] = field(default_factory=list)
    """"See X" references to topics absent from the knowledge base (not errors)."""
    cards: int = 0
    """Cards in the catalog."""
    imported: int = 0
    """Rows imported from the Lackey file."""
    links: int = 0
    """Version-to-card links."""


def report_for(result: ParseResult) -> DocumentReport:
    """The report of one parsed document."""
    return DocumentReport(
        id=result.document.id,
        entries=len(result.entries),
        chrome=len(result.chrome),
        unparsed=len(result.unparsed),
        duplicates_merged=result.duplicates_merged,
        coverage=coverage(result),
        warnings=list(result.warnings),
    )


def parse_library(library: Path) -> list[ParseResult]:
    """Parse every document of the library, in manifest order."""
    documents = load_manifest(library)
    titles = {game: load_titles(library, game) for game in {d.game for d in documents}}
    return [parse_document(document, titles[document.game]) for document in documents]


def build(
    library: Path = DEFAULT_LIBRARY, kb: Path = DEFAULT_KB, cards: Path | None = None, procs: int = 1
) -> BuildReport:
    """Build a knowledge base from ``library`` (and a Lackey card file) and switch ``kb/current`` to it."""
    started = time.perf_counter()
    results = parse_library(library)
    reports = [report_for(r) for r in results]
    for report in reports:
        if not report.coverage.complete:
            raise BuildError(f"{report.id}: lines lost or counted twice: {report.coverage}")
    ledger = apply_documents(results, load_releases(library))
    catalog = bundled_catalog(results)
    imported = import_lackey(cards, catalog) if cards else 0
    texts = [e.text for r in results for e in r.entries]
    links = link_versions(ledger.versions, ledger.topics, catalog, texts)
    dangling = dangling_references(ledger, {r.document.id: r.document.path for r in results})
    builds = kb / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
    staging = builds / f".{stamp}.tmp"
    final = builds / stamp
    try:
        staging.mkdir()
        store.write(staging / store.DB_NAME, results, ledger, catalog, links)
        names: dict[int, list[str]] = {}
        for version_id, card_key, _ in links:
            names.setdefault(version_id, []).append(catalog.cards[card_key].name)
        kinds = {r.document.id: series_kind(r.document.kind) for r in results}
        write_indexes(staging, ledger.versions, ledger.topics, kinds, names, dt.date.today(), procs)
        (staging / "report.json").write_text(
            json.dumps(
                [r.line() for r in reports] + [w for r in reports for w in r.warnings] + ledger.warnings + dangling,
                indent=1,
            )
        )
        staging.rename(final)
        link = kb / f".current.{stamp}"
        link.symlink_to(Path("builds") / stamp)
        link.replace(kb / "current")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _prune(builds, final)
    return BuildReport(
        final, reports, time.perf_counter() - started, ledger.warnings + catalog.problems, dangling,
        cards=len(catalog.cards), imported=imported, links=len(links),
    )  # fmt: skip


def _prune(builds: Path, keep: Path) -> None:
    olds = sorted(p for p in builds.iterdir() if p.is_dir() and p != keep)
    for old in olds[: max(0, len(olds) - (KEEP_BUILDS - 1))]:
        shutil.rmtree(old, ignore_errors=True)


def current(kb: Path = DEFAULT_KB) -> Path:
    """The directory of the knowledge base in service."""
    link = kb / "current"
    if not link.exists():
        raise BuildError(f"{kb}: no knowledge base built yet (run 'rulings build')")
    return link.resolve()
