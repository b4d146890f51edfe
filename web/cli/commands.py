"""The commands that parse, build, add, export and serve (the query commands are in
`web.cli.answers`): each reads its parsed arguments, calls `rulings`/`kb` and prints the answer as
text or ``--json``; mistakes are raised for `web.cli.main` to report in one line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kb.errors import BuildError
from kb.paths import LIBRARY_HINT, current
from rulings.dates import parse_date
from rulings.manifest import MANIFEST, load_titles
from rulings.model import ParseResult
from web.cli.answers import print_json
from web.cli.serving import serve
from web.errors import BadArguments, ExportError

if TYPE_CHECKING:
    from kb.ingest.reports import BuildReport


def _coverage_line(result: ParseResult) -> str:
    from kb.ingest.reports import report_for

    c = report_for(result).coverage
    return (
        f"coverage: {c.nonblank} non-blank lines: {c.in_entries} in entries, {c.duplicates} "
        f"duplicates merged, {c.chrome} chrome, {c.unparsed} unparsed"
        + (f", {c.split} split" if c.split else "")
        + f"; {c.percent:.1f}% accounted for"
        + (f"; {c.not_entries} entry-looking lines not made entries (see warnings)" if c.not_entries else "")
        + ("" if c.complete else f"; MISSING {list(c.missing)} TWICE {list(c.twice)}")
    )


# The commands that parse or build import that side when they run, so that the commands that
# only answer (show, search, card...) start without loading it.


def _kind_of(args: argparse.Namespace, titles: frozenset[str]) -> str:
    """``--kind``, or the kind the detectors name (said on standard error), or a `BuildError` line."""
    from kb.ingest.library import detected_kind

    if args.kind:
        return str(args.kind)
    kind = detected_kind(Path(args.file), titles)
    print(f"rulings: {args.file}: read as {kind} (detected)", file=sys.stderr)
    return kind


def _library(args: argparse.Namespace, needs: str = MANIFEST) -> Path:
    """The library ``--library`` names: a folder that does not exist is a `BadArguments` (exit
    status 2), one without ``needs`` a `BuildError`; each says what to pass."""
    library = Path(args.library)
    if not library.is_dir():
        raise BadArguments(f"--library {library}: no such folder; {LIBRARY_HINT}")
    if not (library / needs).exists():
        raise BuildError(f"{library / needs}: no manifest (expected {needs} in the library); {LIBRARY_HINT}")
    return library


def _games(library: Path) -> str:
    """The games whose card titles ``library`` holds (``titles/<game>.txt``), for an error."""
    games = sorted(p.stem for p in (library / "titles").glob("*.txt"))
    return ", ".join(games) if games else "none (it has no titles/<game>.txt)"


def cmd_parse(args: argparse.Namespace) -> int:
    import dataclasses

    from kb.ingest.reports import report_for
    from rulings.parse import parse_file
    from rulings.reading import refusal

    library = Path(args.library)
    if not library.is_dir():
        raise BadArguments(f"--library {library}: no such folder; {LIBRARY_HINT}")
    if not (library / "titles" / f"{args.game}.txt").is_file():
        raise BadArguments(
            f"--game {args.game}: {library} has no titles/{args.game}.txt; its games: {_games(library)} "
            f"(or {LIBRARY_HINT})"
        )
    titles = load_titles(library, args.game)
    detected = not args.kind
    result = parse_file(args.file, _kind_of(args, titles), titles)
    unread = refusal(result, detected)
    if unread and not args.accept_unread:
        raise BuildError(unread)
    if unread:
        result.warnings.append(f"{unread} Kept (--accept-unread): every version of it would say so")
    report = report_for(result)
    reading = dataclasses.replace(report.reading, detected=detected) if report.reading else None
    if args.json:
        print_json(
            {
                "document": result.document,
                "entries": result.entries,
                "chrome": result.chrome,
                "unparsed": result.unparsed,
                "warnings": result.warnings,
                "not_entries": result.not_entries,
                "coverage": report.coverage,
                "reading": {**vars(reading), "percent": round(reading.percent, 1)} if reading else None,
            }
        )
        return 0
    for entry in result.entries:
        number = f"{entry.number}. " if entry.number else ""
        preview = entry.text.replace("\n\n", " / ")[:70]
        print(f"{entry.span!s:>9}  {entry.kind:<15} {number}{entry.headword}" + (f" - {preview}" if preview else ""))
        if entry.references:
            print(f"{'':>11}see: {', '.join(entry.references)}")
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(_coverage_line(result))
    print(reading.line() if reading else "")
    return 0


def _notify(line: str) -> None:
    print(f"rulings: {line}", file=sys.stderr, flush=True)


def cmd_build(args: argparse.Namespace) -> int:
    from kb.ingest.pipeline import build
    from kb.ingest.publish import library_changed

    _library(args)
    if args.check:
        current(Path(args.kb))
        changed = library_changed(Path(args.library), Path(args.kb), strict=True)
        if changed:
            print(f"rulings: {changed}; run 'rulings build'", file=sys.stderr)
            return 1
        print("the knowledge base in service matches the library")
        return 0
    cards = [Path(c) for c in args.cards or []]
    report = build(
        Path(args.library),
        Path(args.kb),
        cards,
        wait=args.wait,
        notify=_notify,
        accept_unread=args.accept_unread,
        keep_cards=True,
    )
    try:
        _print_build(args, report)
    except KeyboardInterrupt:  # the build is done: say so, not that nothing was done
        raise KeyboardInterrupt(f"interrupted after the build completed: {report.directory} is in service") from None
    return 0


def _print_build(args: argparse.Namespace, report: BuildReport) -> None:
    if report.unsettled:
        _notify(f"warning: {report.unsettled}")
    if args.json:
        print_json(
            {
                "directory": str(report.directory),
                "seconds": report.seconds,
                "documents": report.documents,
                "cards": report.cards,
                "imported": report.imported,
                "links": report.links,
                "imports": [{**vars(i), "path": str(i.path)} for i in report.imports],
                "kept": report.kept,
                "warnings": report.warnings,
                "references": report.references,
            }
        )
        return
    for document in report.documents:
        print(document.line())
        print(f"  {document.read_line()}")
        for warning in document.warnings:
            print(f"  warning: {warning}")
    print(f"cards: {report.cards} in the catalog ({report.imported} rows imported), {report.links} links")
    for imported in report.imports:
        print(f"  {imported.line()}")
    if report.kept:
        kept = ", ".join(report.kept)
        print(f"  kept in the library as {kept} ([[cards]] in {MANIFEST}): every build and add imports them")
    for warning in report.warnings:
        print(f"  warning: {warning}")
    print(f"references: {len(report.references)} to topics not in this knowledge base")
    for reference in report.references:
        print(f"  {reference}")
    print(f"built {report.directory} in {report.seconds:.2f} s")


def cmd_add(args: argparse.Namespace) -> int:
    from kb.ingest.library import add_document

    titles = load_titles(_library(args), args.game)
    report = add_document(
        Path(args.file),
        kind=_kind_of(args, titles),
        date=parse_date(args.date),
        library=Path(args.library),
        kb=Path(args.kb),
        game=args.game,
        title=args.title,
        version=args.version,
        wait=args.wait,
        notify=_notify,
        accept_unread=args.accept_unread,
        force=args.force_contradiction,
    )
    try:
        if report.unsettled:
            _notify(f"warning: {report.unsettled}")
        print(report.documents[-1].line() if report.documents else "")
        print(f"  {report.documents[-1].read_line()}" if report.documents else "")
        how = "" if report.rewritten is None else f" from the previous build ({report.rewritten} versions indexed anew)"
        how += f" (a full build: {report.full})" if report.full else ""
        print(f"built {report.directory} in {report.seconds:.2f} s{how}")
    except KeyboardInterrupt:  # the add is done: say so, not that nothing was done
        raise KeyboardInterrupt(f"interrupted after the add completed: {report.directory} is in service") from None
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``rulings export DIR``: print what was written, or one error line."""
    from web.export.pages import export  # Flask and the app's views: only this command needs them

    try:
        report = export(Path(args.kb), Path(args.directory), args.base_url or "")
    except ExportError as err:
        raise BuildError(str(err)) from None
    size = f"{report['pages']} pages ({report['files']} files, {report['bytes'] / 1e6:.1f} MB)"
    print(
        f"exported {size} of build {report['build']} ({report['built_on']}) to {report['directory']} "
        f"in {report['seconds']:.1f} s"
    )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from web.cli.answering import answering  # Flask: loaded by the server only

    current(Path(args.kb))  # fail early, with one line, when nothing is built yet
    serve(args, answering)
    return 0
