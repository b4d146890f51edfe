"""The ``rulings`` command line: `main` runs a command with the arguments `web.cli.arguments`
parses (the commands are in `web.cli.commands` and, for the queries, `web.cli.answers`) and
reports every mistake the same way.

Parses arguments, calls `rulings`/`kb`, formats the answer as text or ``--json``. User
mistakes and bad input end with one ``rulings: error: ...`` line and exit status 1
(2 for bad arguments), never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any

from kb.errors import BuildError, NotAPair, UnknownFilter, UnknownName
from rulings.errors import BadDate, ManifestError, ParseError
from web.cli.answers import print_json
from web.cli.arguments import READING, commands_markdown, parser
from web.errors import BadArguments, PortInUse


def main(
    argv: Sequence[str] | None = None, answering: Callable[[argparse.Namespace], argparse.Namespace] | None = None
) -> int:
    """Run the ``rulings`` command line; return the exit status. An error is one line on
    standard error (``rulings: error: ...``), or with ``--json`` a JSON ``{"error": ...}``
    on standard output; the exit status is the same either way. ``answering`` is a server's
    running a command for a client (`web.cli.answering`): it takes the arguments as parsed and
    gives them back holding the knowledge base the server has open (``opened``), or raises to
    refuse the command (raised out of here, for the client to answer itself)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments
    target: str | None = None
    """The folder the command writes, named by an error that names no file (a full disk)."""
    try:
        reader = parser if answering is None else _kept_parser  # a server: one parser (13 ms to make)
        args = reader().parse_args(arguments)
        if answering is not None:
            args = answering(args)
        target = getattr(args, "directory", None) or getattr(args, "kb", None)
        status: int = args.run(args)
    except (BadArguments, BadDate, UnknownFilter, NotAPair) as err:
        return _failed(2, f"error: {err}", as_json)
    except UnknownName as err:
        extra = {"suggestions": err.suggestions, **({"elsewhere": err.elsewhere} if err.elsewhere else {})}
        return _failed(1, f"error: {err}", as_json, extra)
    except (ParseError, ManifestError, BuildError, PortInUse) as err:
        return _failed(1, f"error: {err}", as_json)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as err:  # a build or add puts back what it began, or says what it left
        return _failed(130, str(err) or INTERRUPTED, as_json)
    except OSError as err:
        if err.filename is None and target is not None:  # e.g. ENOSPC from a write: say where
            return _failed(1, f"error: {target}: {err.strerror or err}", as_json)
        return _failed(1, f"error: {err}", as_json)
    return status


INTERRUPTED = "interrupted; nothing half-written was left"
"""What a command stopped by Ctrl-C says (a build or add says what it put back or left)."""


def interrupted(argv: Sequence[str]) -> int:
    """Say that the command ``argv`` was stopped by Ctrl-C (while it asked a server), as `main`
    says it; its exit status."""
    return _failed(130, INTERRUPTED, "--json" in argv)


@functools.cache
def _kept_parser() -> argparse.ArgumentParser:
    """The parser a server answering commands reads each with (it only reads it)."""
    return parser()


def _failed(status: int, message: str, as_json: bool, extra: dict[str, Any] | None = None) -> int:
    if as_json:
        print_json({"error": message.removeprefix("error: "), **(extra or {})})
    else:
        print(f"rulings: {message}", file=sys.stderr)
    return status


__all__ = ["READING", "commands_markdown", "interrupted", "main", "parser"]
