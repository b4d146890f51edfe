"""The ``rulings`` command line: parse one file, build the knowledge base.

Parses arguments, calls `rulings`/`kb`, formats the answer as text or ``--json``. User
mistakes and bad input end with one ``rulings: error: ...`` line and exit status 1
(2 for bad arguments), never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kb.build import DEFAULT_KB, DEFAULT_LIBRARY, BuildError, build, report_for
from rulings.manifest import ManifestError, load_titles
from rulings.model import KINDS, ParseError, ParseResult
from rulings.parse import parse_file


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _print_json(data: Any) -> None:
    print(json.dumps(_plain(data), indent=2, ensure_ascii=False))


def _coverage_line(result: ParseResult) -> str:
    c = report_for(result).coverage
    return (
        f"coverage: {c.nonblank} non-blank lines: {c.in_entries} in entries, {c.duplicates} "
        f"duplicates merged, {c.chrome} chrome, {c.unparsed} unparsed; {c.percent:.1f}% accounted for"
        + ("" if c.complete else f"; MISSING {list(c.missing)} TWICE {list(c.twice)}")
    )


def cmd_parse(args: argparse.Namespace) -> int:
    titles = load_titles(args.library, args.game)
    result = parse_file(args.file, args.kind, titles)
    if args.json:
        _print_json(
            {
                "document": result.document,
                "entries": result.entries,
                "chrome": result.chrome,
                "unparsed": result.unparsed,
                "warnings": result.warnings,
                "coverage": report_for(result).coverage,
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
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    report = build(Path(args.library), Path(args.kb))
    if args.json:
        _print_json({"directory": str(report.directory), "seconds": report.seconds, "documents": report.documents})
        return 0
    for document in report.documents:
        print(document.line())
        for warning in document.warnings:
            print(f"  warning: {warning}")
    print(f"built {report.directory} in {report.seconds:.2f} s")
    return 0


def parser() -> argparse.ArgumentParser:
    """The argument parser for every ``rulings`` command."""
    top = argparse.ArgumentParser(prog="rulings", description="Card-game rules and rulings knowledge base.")
    commands = top.add_subparsers(dest="command", required=True)

    parse = commands.add_parser("parse", help="parse one document and show its entries and coverage")
    parse.add_argument("file", help="the document, a plain-text file")
    parse.add_argument("--kind", required=True, choices=KINDS, help="the document's kind")
    parse.add_argument("--game", default="stccg", help="game whose card titles split deck lists (default stccg)")
    parse.add_argument("--library", default=str(DEFAULT_LIBRARY), help="library holding titles/<game>.txt")
    parse.add_argument("--json", action="store_true", help="print JSON")
    parse.set_defaults(run=cmd_parse)

    build_cmd = commands.add_parser("build", help="build the knowledge base from a library")
    build_cmd.add_argument(
        "--library", default=str(DEFAULT_LIBRARY), help=f"library directory (default {DEFAULT_LIBRARY})"
    )
    build_cmd.add_argument("--kb", default=str(DEFAULT_KB), help=f"knowledge-base directory (default {DEFAULT_KB})")
    build_cmd.add_argument("--json", action="store_true", help="print JSON")
    build_cmd.set_defaults(run=cmd_build)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rulings`` command line; return the exit status."""
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except (ParseError, ManifestError, BuildError) as err:
        print(f"rulings: error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"rulings: error: {err}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
