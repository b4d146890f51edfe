"""The ``rulings`` argument parser (`parser`): every command, its options and the function
that runs it; `commands_markdown` makes the README's table of commands from it. A mistake in
the arguments is raised (`BadArguments`) for `web.cli.main` to report as every other error."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any, NoReturn

from kb.asking import LIMIT, MAX_LIMIT, RESULTS, kinds_text
from kb.paging import SIZE
from kb.paths import DEFAULT_KB, DEFAULT_LIBRARY, WAIT
from rulings.kinds import names as kind_names
from web.cli.answers import (
    cmd_blame,
    cmd_card,
    cmd_cards,
    cmd_deck,
    cmd_diff,
    cmd_history,
    cmd_search,
    cmd_show,
)
from web.cli.clients import PER_CLIENT
from web.cli.documents import cmd_docs, cmd_version
from web.cli.resident import ASKED, FILE
from web.cli.serving import CONNECTIONS, PORT, TIMEOUT, cores
from web.errors import BadArguments

READING = frozenset({"show", "blame", "history", "diff", "card", "cards", "deck", "search", "docs", "version"})
"""The commands that only read a knowledge base (those `parser` adds with ``query``)."""


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


def _version() -> str:
    """The installed distribution's version (``pyproject.toml``), or "unknown" when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulings")
    except PackageNotFoundError:
        return "unknown"


def _later(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """The command function ``name`` of ``module``, imported when the command runs: the build,
    the server and the following of sources (the manifest's TOML, the parsers' models, sockets)
    are not loaded by a command that only answers (a cold search's CPU)."""

    def run(args: argparse.Namespace) -> int:
        status: int = getattr(importlib.import_module(module), name)(args)
        return status

    run.__name__ = run.__qualname__ = name
    return run


cmd_parse, cmd_build, cmd_serve, cmd_add, cmd_export = (
    _later("web.cli.commands", name) for name in ("cmd_parse", "cmd_build", "cmd_serve", "cmd_add", "cmd_export")
)
cmd_follow, cmd_games, cmd_update = (
    _later("web.cli.following", name) for name in ("cmd_follow", "cmd_games", "cmd_update")
)


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (`importlib.metadata`
    and the scan of the installed distributions were a sixth of a cold search's CPU)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: str | None = None) -> None:
        print(f"rulings {_version()}")
        parser.exit()


def parser() -> _Parser:
    """The argument parser for every ``rulings`` command."""
    top = _Parser(prog="rulings", description="Card-game rules and rulings knowledge base.")
    top.add_argument("--version", action=_Version, help="print the version")

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
        "--cards",
        action="append",
        help="a Lackey CSV card file to import into the catalog, kept in the library (cards/, [[cards]] in "
        "the manifest) so that every later build and add imports it (repeatable)",
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
        if name in ASKED:  # a command a running server may answer (`web.cli.resident`)
            command.add_argument(
                "--local",
                action="store_true",
                help=f"answer here, never asking a 'rulings serve' running on the knowledge base ({FILE})",
            )
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
    docs = query("docs", "the documents in force on a date, or one document's lines", cmd_docs)
    docs.add_argument("document", nargs="?", help="a document's id (as the list gives it): its source, line by line")
    docs.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    docs.add_argument("--lines", help="with a document: mark these lines, N or N-M (as a citation gives them)")
    version = query("version", "one version by its permalink key, and what is in force instead", cmd_version)
    version.add_argument(
        "key", help="TOPIC@DOCUMENT@SERIES (each version's 'key' in --json answers), or a build's number"
    )
    version.add_argument("--as-of", help="date (YYYY-MM-DD); default today")

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
        "--per-client",
        type=_positive,
        default=PER_CLIENT,
        help=f"connections one client address keeps open at once in each process (default {PER_CLIENT})",
    )
    serve_cmd.add_argument(
        "--timeout",
        type=_positive,
        default=TIMEOUT,
        help=f"seconds before an idle connection, or a request not yet arrived whole, is closed (default {TIMEOUT})",
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

    follow = top.command("follow", "make a library follow a game's publisher: its [[source]] tables added")
    follow.add_argument("game", help="the game whose publisher to follow: mtg, lorcana, vtes or stccg")
    follow.add_argument("--library", required=True, help="your library folder (made if it does not exist)")
    follow.add_argument("--url", help="read the publisher at this address instead (e.g. a mirror)")
    follow.set_defaults(run=cmd_follow)

    update = top.command("update", "bring in every new release the library's sources publish, and what it changed")
    update.add_argument(
        "--library", default=str(DEFAULT_LIBRARY), help=f"library directory (default {DEFAULT_LIBRARY})"
    )
    update.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    update.add_argument("--game", help="only the sources of this game")
    update.add_argument("--json", action="store_true", help="print JSON")
    update.add_argument(
        "--timeout", type=_positive, default=60, help="seconds one download may take in all (default 60)"
    )
    _wait_option(update)
    update.set_defaults(run=cmd_update)

    games = top.command("games", "the games of the knowledge base, each one's current release and sources")
    games.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    games.add_argument("--library", default=str(DEFAULT_LIBRARY), help=f"library directory (default {DEFAULT_LIBRARY})")
    games.add_argument("--json", action="store_true", help="print JSON")
    games.set_defaults(run=cmd_games)

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


def commands_markdown() -> str:
    """The table of commands in README.md (between ``<!-- commands -->`` and ``<!-- /commands -->``),
    made from the argument parser: ``python -m web.cli --commands-markdown`` prints it."""
    cell = str.maketrans({"|": "\\|"})
    rows = [f"| `rulings {name}` | {summary.translate(cell)} |" for name, summary in parser().summaries.items()]
    return "\n".join(["| command | what it does |", "| --- | --- |", *rows]) + "\n"
