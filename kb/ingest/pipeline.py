"""Build a knowledge base from a library, atomically.

A build parses every document of the manifest, writes the store into a brand-new
directory under ``<kb>/builds/``, and only then switches the ``<kb>/current`` link to
it with one atomic rename. A build that fails at any step leaves ``current`` as it was,
so readers never see a half-written knowledge base.

One ``build`` or ``add`` at a time: both hold the library's and the KB's locks (`transaction`).
Each build stages into ``builds/.<stamp>.<pid>.tmp``, locked while its maker lives; a later
build removes such leftovers only when their maker is gone, and prunes old builds but never
the one in service. Each build records the manifest it was built from (``built_from.json``),
so `library_changed` can tell when the library moved on without a rebuild.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import hashlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from kb import files
from kb.errors import BuildError
from kb.index.texts import see_texts
from kb.index.writer import extend_indexes, indexes_written
from kb.ingest import claims, copies, incremental, store
from kb.ingest.catalog import Catalog, ImportReport, bundled_catalog, import_lackey
from kb.ingest.ledger import apply_documents, dangling_references
from kb.ingest.linking import link_versions, ordinary_words
from kb.paths import BUILDS, BUILT_FROM, CURRENT, DEFAULT_GAME, DEFAULT_KB, DEFAULT_LIBRARY, WAIT
from rulings.manifest import MANIFEST, load_default_game, load_manifest, load_releases, load_titles
from rulings.model import Document, ParseResult
from rulings.parse import Coverage, coverage, parse_document
from rulings.reading import Reading, reading, refusal

KEEP_BUILDS = 3
"""Older builds beyond this many are removed after a successful switch."""


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
    reading: Reading | None = None
    """How much of it was read as its kind expects (`rulings.reading`)."""

    def read_line(self) -> str:
        """``read as glossary: 37 of 39 lines as Glossary entries (94.9%)``, or "" when not measured."""
        return self.reading.line() if self.reading else ""

    def line(self) -> str:
        """The one-line summary printed by ``rulings build``."""
        c = self.coverage
        return (
            f"{self.id}: {self.entries} entries, {self.chrome} chrome lines, "
            f"{self.unparsed} unparsed lines, "
            + (f"{c.split} split lines, " if c.split else "")
            + f"{self.duplicates_merged} duplicates merged "
            f"({c.nonblank} non-blank lines, {c.percent:.1f}% accounted for)"
            + (f"; {c.not_entries} entry-looking lines not made entries (see warnings)" if c.not_entries else "")
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
    """Rows imported from the Lackey files."""
    imports: list[ImportReport] = field(default_factory=list)
    """Each Lackey file's import report."""
    links: int = 0
    """Version-to-card links."""
    rewritten: int | None = None
    """For a build made from the previous one (`kb.ingest.incremental`): the versions indexed anew."""
    full: str | None = None
    """For a full build: why it was not made from the previous one (`kb.ingest.incremental`)."""
    unsettled: str | None = None
    """What failed after the new build was put in service (`_publish`), which the build stands despite."""


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
        reading=reading(result),
    )


def parse_library(library: Path) -> list[ParseResult]:
    """Parse every document of the library, in manifest order."""
    documents = load_manifest(library)
    titles = {game: load_titles(library, game) for game in {d.game for d in documents}}
    return parse_documents(documents, titles)


def parse_documents(documents: list[Document], titles: dict[str, frozenset[str]]) -> list[ParseResult]:
    """`parse_document` of each document, in order; on several processes (one per core) when
    there are several documents and this process runs no other thread (a fork is safe then).
    The results, and the error of the first document that fails, are those of a parse in turn."""
    workers = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1, len(documents))
    if workers < 2 or threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [parse_document(document, titles[document.game]) for document in documents]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(parse_document, documents, [titles[d.game] for d in documents]))


def build(
    library: Path = DEFAULT_LIBRARY,
    kb: Path = DEFAULT_KB,
    cards: list[Path] | Path | None = None,
    wait: float = WAIT,
    notify: Callable[[str], None] | None = None,
    accept_unread: bool = False,
) -> BuildReport:
    """Build a knowledge base from ``library`` (and a Lackey card file) and switch ``kb/current`` to it.
    A document little of which reads as its kind expects is refused (`rulings.reading`), unless
    ``accept_unread`` (or its manifest's ``accept_unread``): then it is kept, warned and noted.

    Holds the library's and the knowledge base's locks throughout (see `transaction`). A
    malformed manifest or titles file is refused before anything (the knowledge-base directory included) is made."""
    for game in {d.game for d in load_manifest(library)}:
        load_titles(library, game)
    load_default_game(library)
    with transaction(library, kb, wait, notify):
        changed = library_changed(library, kb)
        if changed and notify:
            notify(f"note: {changed}; rebuilding")
        return build_locked(library, kb, cards, accept_unread)


@contextlib.contextmanager
def transaction(
    library: Path, kb: Path, wait: float = WAIT, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the lock of ``library`` and then of ``kb`` (always in that order), waiting up to ``wait``
    seconds for another build or add to end; refuse with a `BuildError` line after that."""
    kb.mkdir(parents=True, exist_ok=True)
    directories = [library.resolve()] if library.is_dir() else []  # else the manifest read says what is wrong
    try:
        with contextlib.ExitStack() as stack:
            for directory in dict.fromkeys([*directories, kb.resolve()]):
                stack.enter_context(files.hold(directory, wait, f"build or add on {directory}", notify))
            yield
    except files.Busy as err:
        raise BuildError(str(err)) from None


def build_locked(
    library: Path, kb: Path, cards: list[Path] | Path | None = None, accept_unread: bool = False
) -> BuildReport:
    """`build`, for a caller that already holds the `transaction`. Reuses what the build in
    service saved (`kb.ingest.incremental`): its parse results, and when the library only gained
    newer documents, everything else too."""
    started = time.perf_counter()
    card_files = [cards] if isinstance(cards, Path) else list(cards or [])
    manifest = (library / MANIFEST).read_bytes() if (library / MANIFEST).is_file() else b""
    documents = load_manifest(library)
    carded = card_titles(card_files)
    titles = {game: load_titles(library, game) | carded.get(game, frozenset()) for game in {d.game for d in documents}}
    keys = [incremental.document_key(d, titles[d.game]) for d in documents]
    releases = load_releases(library)
    previous = (kb / CURRENT).resolve() if (kb / CURRENT).is_dir() else None
    prints = copies.refuse_copies(documents, library, keys, copies.load(previous))
    damaged: dict[str, str] = {}
    """The kept caches of the previous build that did not load (key or `incremental.STATE`: why)."""
    state = incremental.load_state(previous, damaged)
    moved = incremental.relocate(state, keys, documents) if state else {}
    full = incremental.newer_only(state, keys, documents, releases, bool(card_files))
    if previous and state and full is None:
        added = [parse_document(d, titles[d.game]) for d in documents[len(state.keys) :]]
        claims.check(added)
        _check_coverage(added, accept_unread)
        extension = incremental.extend(state, added, documents[len(state.keys) :])
        if not isinstance(extension, str):
            return _extend(library, kb, manifest, previous, state, keys, extension, started, moved, prints)
        full, state = extension, None
    reused = [incremental.reuse_parse(previous, k, d, damaged) for k, d in zip(keys, documents, strict=True)]
    cache_warnings = _damaged_caches(damaged)
    parsed = iter(parse_documents([d for d, r in zip(documents, reused, strict=True) if r is None], titles))
    results = [r if r is not None else next(parsed) for r in reused]
    claims.check(results)
    reports = _check_coverage(results, accept_unread)
    ledger = apply_documents(results, releases)
    catalog = bundled_catalog(results)
    saved = incremental.State(
        incremental.code_fingerprint(),
        keys,
        documents,
        releases,
        ledger,
        copy.deepcopy(catalog),
        bool(card_files),
        set(),
        [],
        {},
        [],
    )
    imports = [import_lackey(path, catalog) for path in card_files]
    _refuse_empty(imports, catalog)
    catalog.retire_topics()
    imported = sum(i.printings for i in imports)
    saved.ordinary = ordinary_words(e.text for r in results for e in r.entries)
    links = link_versions(ledger.versions, ledger.topics, catalog, saved.ordinary)
    saved.links = list(links)
    saved.seen = see_texts(ledger.versions, ledger.topics)
    incremental.remember_words(saved)
    dangling = dangling_references(ledger, {r.document.id: r.document.path for r in results})
    saved.report_lines = [r.line() for r in reports] + [w for r in reports for w in r.warnings]

    def write(staging: Path) -> None:
        names = card_names_of(links, catalog)
        with indexes_written(staging, ledger.versions, ledger.topics, names, saved.seen, dt.date.today()):
            store.write(staging / store.DB_NAME, results, ledger, catalog, links)
            files.fault("mid-build")
            incremental.save_parses(staging, previous, keys, dict(zip(keys, results, strict=True)), damaged)
            incremental.save_state(staging, saved)
            copies.save(staging, prints)
            _write_reports(staging, library, manifest, saved.report_lines + ledger.warnings + dangling)

    final, unsettled = _publish(kb, write)
    return BuildReport(
        final,
        reports,
        time.perf_counter() - started,
        cache_warnings + ledger.warnings + catalog.problems,
        dangling,
        cards=len(catalog.cards),
        imported=imported,
        links=len(links),
        imports=imports,
        full=full,
        unsettled=unsettled,
    )


def card_titles(card_files: list[Path]) -> dict[str, frozenset[str]]:
    """The card titles (names and aliases) of ``card_files``, by game: with ``titles/<game>.txt``, the titles the
    parse weighs (a Glossary page's sub-headings, `rulings.glossary`) are the catalog in use. The files'
    problems are reported by the import proper (`import_lackey` in `build_locked`)."""
    catalog = Catalog()
    for path in card_files:
        import_lackey(path, catalog)
    found: dict[str, set[str]] = {}
    for card in catalog.cards.values():
        found.setdefault(card.game, set()).update([card.name, *card.aliases])
    return {game: frozenset(names) for game, names in found.items()}


def _extend(
    library: Path,
    kb: Path,
    manifest: bytes,
    previous: Path,
    state: incremental.State,
    keys: list[str],
    extension: incremental.Extension,
    started: float,
    moved: dict[str, str],
    prints: dict[str, str],
) -> BuildReport:
    """Write the build that `incremental.extend` prepared, from the ``previous`` one (whose
    documents ``moved``, `incremental.relocate`)."""
    ledger = state.ledger
    reports = [report_for(r) for r in extension.results]
    before = len(state.keys)
    state.report_lines = (
        state.report_lines[:before]
        + [r.line() for r in reports]
        + state.report_lines[before:]
        + [w for r in reports for w in r.warnings]
    )
    state.keys = keys
    dangling = dangling_references(ledger, {d.id: d.path for d in state.documents})

    def write(staging: Path) -> None:
        incremental.copy_store(previous, staging, extension, ledger, moved)
        files.fault("mid-build")
        extend_indexes(
            staging,
            previous,
            ledger.versions,
            extension.touched,
            extension.first,
            extension.before,
            ledger.topics,
            card_names_of(state.links, state.catalog),
            state.seen,
            dt.date.today(),
        )
        incremental.save_parses(staging, previous, keys, dict(zip(keys[before:], extension.results, strict=True)))
        incremental.save_state(staging, state)
        copies.save(staging, prints)
        _write_reports(staging, library, manifest, state.report_lines + ledger.warnings + dangling)

    final, unsettled = _publish(kb, write)
    return BuildReport(
        final,
        reports,
        time.perf_counter() - started,
        ledger.warnings + state.catalog.problems,
        dangling,
        cards=len(state.catalog.cards),
        imported=0,
        links=len(state.links),
        rewritten=len(extension.touched),
        unsettled=unsettled,
    )


def _damaged_caches(damaged: dict[str, str]) -> list[str]:
    """One warning for the kept caches that did not load (they were discarded and made anew)."""
    if not damaged:
        return []
    first, *rest = damaged.values()
    more = f" and {len(rest)} more" if rest else ""
    return [f"{first}{more}: discarded; this build parses and applies the documents anew"]


def _refuse_empty(imports: list[ImportReport], catalog: Catalog) -> None:
    """Refuse, in one line, a card file that gave no card (the knowledge base in service stays)."""
    for report in imports:
        if not report.printings:
            said = [p for p in catalog.problems if p.startswith(f"{report.path}:")]
            raise BuildError(
                f"{said[0]}; no card read from this card file"
                if said
                else f"{report.path}:1: no card read from this card file ({report.rows} rows)"
            )


def _check_coverage(results: list[ParseResult], accept_unread: bool = False) -> list[DocumentReport]:
    """Every line accounted for, and enough of each document read as its kind expects: else a
    `BuildError` line; a document kept unread (``accept_unread``) is marked (`Document.unread`)."""
    for result in results:
        unread = refusal(result)
        result.document.unread = unread or ""
        if unread and not (accept_unread or result.document.accept_unread):
            raise BuildError(f"{unread} (--accept-unread keeps it)")
        if unread:
            result.warnings.append(f"{unread} Kept (--accept-unread): every version of it says so")
    reports = [report_for(r) for r in results]
    for report in reports:
        if not report.coverage.complete:
            raise BuildError(f"{report.id}: lines lost or counted twice: {report.coverage}")
    return reports


def card_names_of(links: list[tuple[int, str, str]], catalog: Catalog) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for version_id, card_key, _ in links:
        names.setdefault(version_id, []).append(catalog.cards[card_key].name)
    return names


def _write_reports(staging: Path, library: Path, manifest: bytes, lines: list[str]) -> None:
    (staging / "report.json").write_text(json.dumps(lines, indent=1))
    (staging / BUILT_FROM).write_text(json.dumps(_fingerprint(library, manifest), indent=1))
    (staging / DEFAULT_GAME).write_text(load_default_game(library) or "", encoding="utf-8")


def _publish(kb: Path, write: Callable[[Path], None]) -> tuple[Path, str | None]:
    """Make a new build directory with ``write``, then switch ``current`` to it; on any failure
    until the switch, remove what was made and leave ``current`` as it was. The switch is the
    commit: a failure after it (making it durable, pruning old builds) is returned as a line
    (else None) with the new build, never raised, so that an ``add`` does not undo a library
    change the knowledge base in service already holds."""
    builds = kb / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    remove_leftovers(kb)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
    staging = builds / f".{stamp}.{os.getpid()}.tmp"
    final = builds / stamp
    staging.mkdir()
    try:
        with files.claim(staging):
            try:
                write(staging)
            except sqlite3.Error as err:  # a full disk, a file size limit: the store says it in its words
                raise BuildError(f"{kb}: cannot write the new build's store: {err}") from None
            _fsync_tree(staging)
            staging.rename(final)
            files.fsync_directory(builds)
            files.fault("before-switch")
            link = kb / f".current.{stamp}.{os.getpid()}.tmp"
            link.symlink_to(Path(BUILDS) / stamp)
            link.replace(kb / CURRENT)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if final.is_dir() and (kb / CURRENT).resolve() != final.resolve():
            shutil.rmtree(final, ignore_errors=True)
        raise
    try:  # the new build is in service: nothing after this undoes it, a failure is only reported
        files.fsync_directory(kb)
        files.fault("after-switch")
        _prune(builds, final)
    except OSError as err:
        failed = err.strerror or str(err)
        return final, f"{kb / CURRENT}: the new build is in service, but what follows the switch failed: {failed}"
    return final, None


def _fsync_tree(directory: Path) -> None:
    for path in directory.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    files.fsync_directory(directory)


def remove_leftovers(kb: Path) -> list[Path]:
    """Remove what killed builds left in ``kb``: staging directories and half-made ``current``
    links whose owner is gone. Another process's live staging directory is kept."""
    builds = kb / BUILDS
    candidates = [p for p in kb.glob(".current.*") if p.is_symlink()]
    candidates += [p for p in builds.glob(".*.tmp")] if builds.is_dir() else []
    removed = []
    for path in candidates:
        if files.owner_gone(path):
            if path.is_symlink() or not path.is_dir():
                path.unlink(missing_ok=True)
            else:
                shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _prune(builds: Path, keep: Path) -> None:
    """Remove finished builds beyond `KEEP_BUILDS`, oldest first; never ``keep``, the build
    ``current`` points to, nor a build whose maker still holds it."""
    link = builds.parent / CURRENT
    serving = link.resolve() if link.is_symlink() else None
    olds = sorted(p for p in builds.iterdir() if p.is_dir() and not p.name.startswith(".") and p != keep)
    for old in olds[: max(0, len(olds) - (KEEP_BUILDS - 1))]:
        if old.resolve() != serving and files.unlocked(old):
            shutil.rmtree(old, ignore_errors=True)


def _fingerprint(library: Path, manifest: bytes) -> dict[str, str]:
    return {"library": str(library.resolve()), "manifest_sha256": hashlib.sha256(manifest).hexdigest()}


def library_changed(library: Path, kb: Path, strict: bool = False) -> str | None:
    """Why the knowledge base in service no longer matches ``library`` (its manifest changed since
    that build, e.g. an ``add`` was interrupted), or None if it matches. A KB built from another
    library (or before builds recorded it) is reported only when ``strict``."""
    link = kb / CURRENT
    try:
        manifest = (library / MANIFEST).read_bytes()
        built = json.loads((link.resolve() / BUILT_FROM).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = None
    else:
        now = _fingerprint(library, manifest)
        if built == now:
            return None
        if isinstance(built, dict) and built.get("library") == now["library"]:
            return f"{library / MANIFEST} changed since the knowledge base in service was built"
    if not strict:
        return None
    source = built.get("library") if isinstance(built, dict) else None
    return f"the knowledge base in service was not built from {library}" + (f" but from {source}" if source else "")
