"""The ``rulings`` command line: its argument parser (`parser`; `commands_markdown` makes the
README's table of commands from it) and the commands parse, build, add and serve; the query
commands (show, history, diff, docs, card, deck, search) are in `web.cli.answers`; export
writes through `web.export.pages`.

Parses arguments, calls `rulings`/`kb`, formats the answer as text or ``--json``. User
mistakes and bad input end with one ``rulings: error: ...`` line and exit status 1
(2 for bad arguments), never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from kb.asking import LIMIT, MAX_LIMIT, RESULTS, kinds_text
from kb.errors import BuildError, NotAPair, UnknownFilter, UnknownName
from kb.paging import SIZE
from kb.paths import DEFAULT_KB, DEFAULT_LIBRARY, LIBRARY_HINT, WAIT, current
from rulings.dates import parse_date
from rulings.errors import BadDate, ManifestError, ParseError
from rulings.kinds import names as kind_names
from rulings.manifest import MANIFEST, load_titles
from rulings.model import ParseResult
from web.cli.answers import (
    cmd_blame,
    cmd_card,
    cmd_cards,
    cmd_deck,
    cmd_diff,
    cmd_docs,
    cmd_history,
    cmd_search,
    cmd_show,
    print_json,
)
from web.cli.serving import CONNECTIONS, PORT, TIMEOUT, PortInUse, cores, serve
from web.errors import BadArguments, ExportError


def _coverage_line(result: ParseResult) -> str:
    from kb.ingest.pipeline import report_for

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

    from kb.ingest.pipeline import report_for
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
    from kb.ingest.pipeline import build, library_changed

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
        Path(args.library), Path(args.kb), cards, wait=args.wait, notify=_notify, accept_unread=args.accept_unread
    )
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
                "warnings": report.warnings,
                "references": report.references,
            }
        )
        return 0
    for document in report.documents:
        print(document.line())
        print(f"  {document.read_line()}")
        for warning in document.warnings:
            print(f"  warning: {warning}")
    print(f"cards: {report.cards} in the catalog ({report.imported} rows imported), {report.links} links")
    for imported in report.imports:
        print(f"  {imported.line()}")
    for warning in report.warnings:
        print(f"  warning: {warning}")
    print(f"references: {len(report.references)} to topics not in this knowledge base")
    for reference in report.references:
        print(f"  {reference}")
    print(f"built {report.directory} in {report.seconds:.2f} s")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from kb.ingest.library import add_document

    titles = load_titles(_library(args), args.game)
    report = add_document(
        Path(args.file),
        _kind_of(args, titles),
        parse_date(args.date),
        Path(args.library),
        Path(args.kb),
        args.game,
        args.title,
        args.version,
        wait=args.wait,
        notify=_notify,
        accept_unread=args.accept_unread,
        force=args.force_contradiction,
    )
    if report.unsettled:
        _notify(f"warning: {report.unsettled}")
    print(report.documents[-1].line() if report.documents else "")
    print(f"  {report.documents[-1].read_line()}" if report.documents else "")
    how = "" if report.rewritten is None else f" from the previous build ({report.rewritten} versions indexed anew)"
    how += f" (a full build: {report.full})" if report.full else ""
    print(f"built {report.directory} in {report.seconds:.2f} s{how}")
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
    current(Path(args.kb))  # fail early, with one line, when nothing is built yet
    serve(args)
    return 0


def _positive(text: str) -> int:
    """An argument that must be a whole number above zero."""
    if not text.isdigit() or int(text) < 1 or len(text) > 9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 999999999")
    return int(text)


def _wait_option(command: argparse.ArgumentParser) -> None:
    wait = f"wait this long for another build or add to end, then refuse (default {WAIT:g})"
    command.add_argument("--wait", type=float, default=WAIT, metavar="SECONDS", help=wait)


def _page_options(command: argparse.ArgumentParser, noun: str) -> None:
    """``--offset`` and ``--size``: the page of a long answer to print (`kb.paging`)."""
    command.add_argument("--offset", type=_whole, default=0, help=f"the first of the {noun} to print (default 0)")
    command.add_argument("--size", type=_positive, default=SIZE, help=f"{noun} per page (default {SIZE})")


def _port(text: str) -> int:
    """A port number, 1 to 65535 (0: any free port, which the server then names)."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number from 0 to 65535")
    return int(text)


def _whole(text: str) -> int:
    """An argument that must be a whole number (zero or more)."""
    if not text.isdigit() or len(text) > 9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 0 to 999999999")
    return int(text)


def parser() -> _Parser:
    """The argument parser for every ``rulings`` command."""
    top = _Parser(prog="rulings", description="Card-game rules and rulings knowledge base.")

    parse = top.command("parse", "parse one document and show its entries and coverage")
    parse.add_argument("file", help="the document, a plain-text file")
    parse.add_argument(
        "--kind", choices=kind_names(), help="the document's kind (default: the one its text looks like)"
    )
    parse.add_argument(
        "--accept-unread", action="store_true", help="keep a document little of which reads as its kind (warned)"
    )
    parse.add_argument("--game", default="stccg", help="game whose card titles split deck lists (default stccg)")
    parse.add_argument(
        "--library", default=str(DEFAULT_LIBRARY), help=f"library holding titles/<game>.txt (default {DEFAULT_LIBRARY})"
    )
    parse.add_argument("--json", action="store_true", help="print JSON")
    parse.set_defaults(run=cmd_parse)

    build_cmd = top.command("build", "build the knowledge base from a library")
    build_cmd.add_argument(
        "--library", default=str(DEFAULT_LIBRARY), help=f"library directory (default {DEFAULT_LIBRARY})"
    )
    build_cmd.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    build_cmd.add_argument(
        "--cards", action="append", help="a Lackey CSV card file to import into the catalog (repeatable)"
    )
    build_cmd.add_argument("--json", action="store_true", help="print JSON")
    build_cmd.add_argument(
        "--accept-unread", action="store_true", help="keep a document little of which reads as its kind (warned)"
    )
    _wait_option(build_cmd)
    build_cmd.add_argument(
        "--check",
        action="store_true",
        help="build nothing; exit 1 if the library changed since the KB in service was built",
    )
    build_cmd.set_defaults(run=cmd_build)

    def query(name: str, help_text: str, run: Any) -> argparse.ArgumentParser:
        if name not in READING:
            raise ValueError(f"{name}: a command that reads, not in READING")
        command = top.command(name, help_text)
        command.add_argument("--kb", default=str(DEFAULT_KB), help="knowledge-base directory")
        command.add_argument(
            "--game",
            default=None,
            help="only this game (e.g. stccg; 'any': every game); a search or diff: default the library's",
        )
        command.add_argument("--json", action="store_true", help="print JSON")
        command.set_defaults(run=run)
        return command

    show = query("show", "the text in force for a topic, with citations", cmd_show)
    show.add_argument("topic", help="a headword, e.g. Conundrum")
    show.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    blame = query("blame", "each sentence of a topic's text in force beside the document that wrote it", cmd_blame)
    blame.add_argument("topic", help="a headword, e.g. commandeering")
    blame.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    history = query("history", "every version of a topic, with word diffs", cmd_history)
    history.add_argument("topic", help="a headword")
    diff = query("diff", "what changed between two dates", cmd_diff)
    diff.add_argument(
        "start", metavar="FROM", nargs="?", help="date (YYYY-MM-DD); with TO, or neither: the latest document's changes"
    )
    diff.add_argument("end", metavar="TO", nargs="?", help="date (YYYY-MM-DD)")
    diff.add_argument("--kind", action="append", help=f"only this kind (repeatable): {kinds_text()}")
    diff.add_argument("--deck", help="limit to the cards of this deck list (a file, or - for standard input)")
    _page_options(diff, "changes")
    card_cmd = query("card", "a card: its rulings, the entries naming it, its history", cmd_card)
    card_cmd.add_argument("name", help="a card title, e.g. Conundrum")
    card_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    pair_cmd = query("cards", "two cards together: every ruling and entry bearing on both, best first", cmd_cards)
    pair_cmd.add_argument("names", nargs=2, metavar="CARD", help="two card titles, e.g. 'Stop First Contact'")
    pair_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    deck_cmd = query("deck", "every card of a deck list with its rulings", cmd_deck)
    deck_cmd.add_argument("file", help="a deck list file, or - for standard input")
    deck_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    _page_options(deck_cmd, "known cards")
    search_cmd = query("search", "full-text search of the rulings in force", cmd_search)
    search_cmd.add_argument("query", help='words, "a phrase", card:NAME, kind:K, doc:ID, -word, prefix*')
    search_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    search_cmd.add_argument("--kind", help=f"only this kind: {kinds_text()}")
    search_cmd.add_argument(
        "--limit", type=_whole, default=LIMIT, help=f"results a page, 1 to {MAX_LIMIT} (default {LIMIT})"
    )
    search_cmd.add_argument(
        "--page", type=_whole, default=1, help=f"which page of results (default 1; {RESULTS} results at most)"
    )
    search_cmd.add_argument("--all", action="store_true", help="search every version, not only those in force")
    search_cmd.add_argument("--exact", action="store_true", help="search the words as typed, without correcting them")
    docs = query("docs", "the documents in force on a date", cmd_docs)
    docs.add_argument("--as-of", help="date (YYYY-MM-DD); default today")

    serve_cmd = top.command("serve", "serve the web app (read-only) on every core")
    serve_cmd.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    serve_cmd.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve_cmd.add_argument("--port", type=_port, default=PORT, help=f"the port to listen on (default {PORT})")
    serve_cmd.add_argument(
        "--workers", type=_positive, default=cores(), help=f"processes (default {cores()}, the cores; 1: waitress)"
    )
    serve_cmd.add_argument(
        "--threads", type=_positive, default=8, help="requests each process answers at once (default 8)"
    )
    serve_cmd.add_argument(
        "--connections",
        type=_positive,
        default=CONNECTIONS,
        help=f"connections each process keeps open at once (default {CONNECTIONS})",
    )
    serve_cmd.add_argument(
        "--timeout",
        type=_positive,
        default=TIMEOUT,
        help=f"seconds before an idle connection is closed (default {TIMEOUT})",
    )
    serve_cmd.set_defaults(run=cmd_serve)

    add = top.command("add", "add a newly published document to the library and rebuild")
    add.add_argument("file", help="the document, a plain-text file")
    add.add_argument("--kind", choices=kind_names(), help="the document's kind (default: the one its text looks like)")
    add.add_argument(
        "--accept-unread", action="store_true", help="keep a document little of which reads as its kind (warned)"
    )
    add.add_argument("--date", required=True, help="the date it takes effect (YYYY-MM-DD)")
    add.add_argument("--title", help="its title as published (default: from the file's name)")
    add.add_argument("--version", help="its version or edition, as the publisher names it (default: the date)")
    add.add_argument("--game", default="stccg", help="the game it is of (default stccg)")
    add.add_argument(
        "--force-contradiction",
        action="store_true",
        help="keep --kind and --date although the document's text says otherwise (each contradiction is warned)",
    )
    add.add_argument(
        "--library", default=str(DEFAULT_LIBRARY), help=f"library to add it to (default {DEFAULT_LIBRARY})"
    )
    add.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    _wait_option(add)
    add.set_defaults(run=cmd_add)

    export = top.command("export", "write the knowledge base as a static site that works offline")
    export.add_argument("directory", metavar="DIR", help="folder to write (replaced whole if it holds an export)")
    export.add_argument("--kb", default=str(DEFAULT_KB), help="knowledge-base directory")
    export.add_argument("--base-url", help="where the export will be published, for the Atom feed's absolute links")
    export.set_defaults(run=cmd_export)
    return top


class _Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are raised (`BadArguments`), so that ``main`` reports
    them as every other error: one line, or JSON with ``--json``; exit status 2. It remembers its
    commands and their one-line help (``summaries``), from which `commands_markdown` makes the
    README's table of commands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.summaries: dict[str, str] = {}
        """Command name -> its one-line help, in the order the commands were added."""
        self._commands: argparse._SubParsersAction[_Parser] | None = None

    def command(self, name: str, help_text: str) -> _Parser:
        """Add the command ``name`` (its one-line help kept in ``summaries``)."""
        if self._commands is None:
            self._commands = self.add_subparsers(dest="command", required=True)
        self.summaries[name] = help_text
        return self._commands.add_parser(name, help=help_text)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("rulings").strip()
        raise BadArguments(f"{command}: {message}" if command else message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rulings`` command line; return the exit status. An error is one line on
    standard error (``rulings: error: ...``), or with ``--json`` a JSON ``{"error": ...}``
    on standard output; the exit status is the same either way."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments
    target: str | None = None
    """The folder the command writes, named by an error that names no file (a full disk)."""
    try:
        args = parser().parse_args(arguments)
        target = getattr(args, "directory", None) or getattr(args, "kb", None)
        status: int = args.run(args)
    except (BadArguments, BadDate, UnknownFilter, NotAPair) as err:
        return _failed(2, f"error: {err}", as_json)
    except UnknownName as err:
        return _failed(1, str(err), as_json, {"suggestions": err.suggestions})
    except (ParseError, ManifestError, BuildError, PortInUse) as err:
        return _failed(1, f"error: {err}", as_json)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # a build or add puts back what it began before this comes here
        return _failed(130, "interrupted; nothing half-written was left", as_json)
    except OSError as err:
        if err.filename is None and target is not None:  # e.g. ENOSPC from a write: say where
            return _failed(1, f"error: {target}: {err.strerror or err}", as_json)
        return _failed(1, f"error: {err}", as_json)
    return status


READING = frozenset({"show", "blame", "history", "diff", "card", "cards", "deck", "search", "docs"})
"""The commands that only read a knowledge base (those `parser` adds with ``query``)."""


def _failed(status: int, message: str, as_json: bool, extra: dict[str, Any] | None = None) -> int:
    if as_json:
        print_json({"error": message.removeprefix("error: "), **(extra or {})})
    else:
        print(f"rulings: {message}", file=sys.stderr)
    return status


def commands_markdown() -> str:
    """The table of commands in README.md (between ``<!-- commands -->`` and ``<!-- /commands -->``),
    made from the argument parser: ``python -m web.cli --commands-markdown`` prints it."""
    cell = str.maketrans({"|": "\\|"})
    rows = [f"| `rulings {name}` | {summary.translate(cell)} |" for name, summary in parser().summaries.items()]
    return "\n".join(["| command | what it does |", "| --- | --- |", *rows]) + "\n"
