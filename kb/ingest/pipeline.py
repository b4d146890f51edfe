"""Build a knowledge base from a library, atomically.

A build parses every document of the manifest, writes the store into a brand-new
directory under ``<kb>/builds/``, and only then switches the ``<kb>/current`` link to
it with one atomic rename. A build that fails at any step leaves ``current`` as it was,
so readers never see a half-written knowledge base.

The card files the manifest names (``[[cards]]``) are imported by every build, with those a
build is given; ``rulings build --cards`` makes the files it is given card files of the library
(`kb.ingest.catalogs`), so that no later add or build drops the catalog.

One ``build`` or ``add`` at a time: both hold the library's and the KB's locks (`transaction`).
How a build is staged, put in service and pruned, and the manifest it records, are
`kb.ingest.publish`; what it reports, `kb.ingest.reports`; what it keeps for the next,
`kb.ingest.state`.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from kb import files
from kb.errors import BuildError
from kb.index.writer import extend_indexes, indexes_written
from kb.ingest import catalogs, claims, copies, incremental, store
from kb.ingest.catalog import Catalog, ImportReport, bundled_catalog, import_lackey
from kb.ingest.ledger import apply_documents, dangling_references
from kb.ingest.linking import link_versions, ordinary_words
from kb.ingest.publish import library_changed, publish, write_reports
from kb.ingest.reports import BuildReport, check_coverage, damaged_caches, report_for
from kb.ingest.state import Extension, Run, State
from kb.ingest.versioning import Ledger
from kb.meaning import vectors
from kb.paths import CURRENT, DEFAULT_KB, DEFAULT_LIBRARY, WAIT
from kb.texts import see_texts
from rulings.manifest import (
    MANIFEST,
    load_card_files,
    load_default_game,
    load_manifest,
    load_releases,
    load_titles,
)
from rulings.model import Document, ParseResult
from rulings.parse import parse_document


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


__all__ = [
    "BuildReport",
    "build",
    "build_locked",
    "card_names_of",
    "card_titles",
    "library_changed",
    "parse_documents",
    "parse_library",
    "report_for",
    "transaction",
]


def build(
    library: Path = DEFAULT_LIBRARY,
    kb: Path = DEFAULT_KB,
    cards: list[Path] | Path | None = None,
    *,
    wait: float = WAIT,
    notify: Callable[[str], None] | None = None,
    accept_unread: bool = False,
    keep_cards: bool = False,
) -> BuildReport:
    """Build a knowledge base from ``library`` (its card files, and ``cards``, Lackey card files) and
    switch ``kb/current`` to it. With ``keep_cards`` (``rulings build --cards``), ``cards`` become card
    files of the library (`kb.ingest.catalogs`), which every later build and add imports; without, they
    are imported by this build only.
    A document little of which reads as its kind expects is refused (`rulings.reading`), unless
    ``accept_unread`` (or its manifest's ``accept_unread``): then it is kept, warned and noted.

    Holds the library's and the knowledge base's locks throughout (see `transaction`). A
    malformed manifest or titles file is refused before anything (the knowledge-base directory included) is made."""
    for game in {d.game for d in load_manifest(library)}:
        load_titles(library, game)
    load_default_game(library)
    load_card_files(library)
    given = [cards] if isinstance(cards, Path) else list(cards or [])
    with transaction(library, kb, wait, notify):
        changed = library_changed(library, kb)
        if changed and notify:
            notify(f"note: {changed}; rebuilding")
        if not (keep_cards and given):
            return build_locked(library, kb, given, accept_unread=accept_unread)
        with catalogs.kept(library, kb, given) as names:
            report = build_locked(library, kb, accept_unread=accept_unread)
        report.kept = names
        return report


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
    library: Path,
    kb: Path,
    cards: list[Path] | Path | None = None,
    *,
    accept_unread: bool = False,
    guard: Callable[[Ledger], None] | None = None,
) -> BuildReport:
    """`build`, for a caller that already holds the `transaction`. Reuses what the build in
    service saved (`kb.ingest.incremental`): its parse results, and when the library only gained
    newer documents, everything else too. ``guard`` sees the documents applied before anything is
    written, and may refuse the build (an add's check of what its document ends)."""
    run = _begin(library, kb, cards, accept_unread)
    run.guard = guard
    state = incremental.load_state(run.previous, run.damaged)
    run.moved = incremental.relocate(state, run.keys, run.documents) if state else {}
    full = incremental.newer_only(state, run.keys, run.documents, run.releases, bool(run.card_files))
    if run.previous and state and full is None:
        added = [parse_document(d, run.titles[d.game]) for d in run.documents[len(state.keys) :]]
        claims.check(added)
        check_coverage(added, run.accept_unread)
        extension = incremental.extend(state, added, run.documents[len(state.keys) :])
        if not isinstance(extension, str):
            if guard:
                guard(state.ledger)
            return _extend(run, state, extension)
        full = extension
    return _full(run, full)


def _begin(library: Path, kb: Path, cards: list[Path] | Path | None, accept_unread: bool) -> Run:
    """What the build reads before any step: the manifest, its documents and their keys, the
    releases, the card files' titles, the build in service; a copy of a document is refused."""
    started = time.perf_counter()
    manifest = (library / MANIFEST).read_bytes() if (library / MANIFEST).is_file() else b""
    documents = load_manifest(library)
    kept = load_card_files(library)
    given = [cards] if isinstance(cards, Path) else list(cards or [])
    card_files = kept + [p for p in given if p.resolve() not in {k.resolve() for k in kept}]
    carded = card_titles(card_files)
    titles = {game: load_titles(library, game) | carded.get(game, frozenset()) for game in {d.game for d in documents}}
    keys = [incremental.document_key(d, titles[d.game]) for d in documents]
    releases = load_releases(library)
    previous = (kb / CURRENT).resolve() if (kb / CURRENT).is_dir() else None
    prints = copies.refuse_copies(documents, library, keys, copies.load(previous))
    return Run(
        library=library,
        kb=kb,
        manifest=manifest,
        documents=documents,
        titles=titles,
        keys=keys,
        releases=releases,
        card_files=card_files,
        previous=previous,
        prints=prints,
        started=started,
        accept_unread=accept_unread,
    )


def _full(run: Run, full: str | None) -> BuildReport:
    """Parse (or reuse the parse of) every document, apply, catalogue and link them all, and
    write the build anew; ``full``: why it is not made from the previous one."""
    reused = [
        incremental.reuse_parse(run.previous, k, d, run.damaged) for k, d in zip(run.keys, run.documents, strict=True)
    ]
    cache_warnings = damaged_caches(run.damaged)
    unparsed = [d for d, r in zip(run.documents, reused, strict=True) if r is None]
    parsed = iter(parse_documents(unparsed, run.titles))
    results = [r if r is not None else next(parsed) for r in reused]
    claims.check(results)
    reports = check_coverage(results, run.accept_unread)
    ledger = apply_documents(results, run.releases)
    if run.guard:
        run.guard(ledger)
    catalog = bundled_catalog(results)
    saved = State(
        code=incremental.code_fingerprint(),
        keys=run.keys,
        documents=run.documents,
        releases=run.releases,
        ledger=ledger,
        catalog=copy.deepcopy(catalog),
        imported=bool(run.card_files),
        ordinary=set(),
        links=[],
        seen={},
        report_lines=[],
    )
    imports = [import_lackey(path, catalog) for path in run.card_files]
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
        with indexes_written(
            staging,
            versions=ledger.versions,
            topics=ledger.topics,
            card_names=names,
            seen=saved.seen,
            today=dt.date.today(),
        ):
            store.write(staging / store.DB_NAME, results, ledger, catalog, links)
            vectors.write(staging, ledger.versions, ledger.topics, run.previous, dt.date.today())
            files.fault("mid-build")
            parses = dict(zip(run.keys, results, strict=True))
            incremental.save_parses(staging, run.previous, run.keys, parses, run.damaged)
            incremental.save_state(staging, saved)
            copies.save(staging, run.prints)
            lines = saved.report_lines + ledger.warnings + dangling
            write_reports(staging, run.library, run.manifest, lines, run.card_files)

    final, unsettled = publish(run.kb, write)
    return BuildReport(
        directory=final,
        documents=reports,
        seconds=time.perf_counter() - run.started,
        warnings=cache_warnings + ledger.warnings + catalog.problems,
        references=dangling,
        cards=len(catalog.cards),
        imported=imported,
        links=len(links),
        imports=imports,
        full=full,
        unsettled=unsettled,
    )


def card_titles(card_files: list[Path]) -> dict[str, frozenset[str]]:
    """The card titles (names and aliases) of ``card_files``, by game: with ``titles/<game>.txt``, the titles the
    parse weighs (a Glossary page's sub-headings, `rulings.kinds.glossary.parser`) are the catalog in use. The files'
    problems are reported by the import proper (`import_lackey` in `build_locked`)."""
    catalog = Catalog()
    for path in card_files:
        import_lackey(path, catalog)
    found: dict[str, set[str]] = {}
    for card in catalog.cards.values():
        found.setdefault(card.game, set()).update([card.name, *card.aliases])
    return {game: frozenset(names) for game, names in found.items()}


def _extend(run: Run, state: State, extension: Extension) -> BuildReport:
    """Write the build that `incremental.extend` prepared, from the ``previous`` one (whose
    documents ``moved``, `incremental.relocate`)."""
    previous, keys = run.previous, run.keys
    if previous is None:
        raise AssertionError("a build is extended only from the one in service")
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
        incremental.copy_store(previous, staging, extension, ledger, run.moved)
        vectors.write(staging, ledger.versions, ledger.topics, previous, dt.date.today())
        files.fault("mid-build")
        extend_indexes(
            staging,
            previous,
            versions=ledger.versions,
            touched=extension.touched,
            first=extension.first,
            before=extension.before,
            topics=ledger.topics,
            card_names=card_names_of(state.links, state.catalog),
            seen=state.seen,
            today=dt.date.today(),
        )
        incremental.save_parses(staging, previous, keys, dict(zip(keys[before:], extension.results, strict=True)))
        incremental.save_state(staging, state)
        copies.save(staging, run.prints)
        lines = state.report_lines + ledger.warnings + dangling
        write_reports(staging, run.library, run.manifest, lines, run.card_files)

    final, unsettled = publish(run.kb, write)
    return BuildReport(
        directory=final,
        documents=reports,
        seconds=time.perf_counter() - run.started,
        warnings=ledger.warnings + state.catalog.problems,
        references=dangling,
        cards=len(state.catalog.cards),
        imported=0,
        links=len(state.links),
        rewritten=len(extension.touched),
        unsettled=unsettled,
    )


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


def card_names_of(links: list[tuple[int, str, str]], catalog: Catalog) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for version_id, card_key, _ in links:
        names.setdefault(version_id, []).append(catalog.cards[card_key].name)
    return names
