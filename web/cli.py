"""The ``rulings`` command line: parse, build, add, show, history, diff, docs, card, deck, search, serve.

Parses arguments, calls `rulings`/`kb`, formats the answer as text or ``--json``. User
mistakes and bad input end with one ``rulings: error: ...`` line and exit status 1
(2 for bad arguments), never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import html
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kb.build import DEFAULT_KB, DEFAULT_LIBRARY, BuildError, build, current, report_for
from kb.cardquery import UnknownCard, card, deck, deck_keys
from kb.library import add_document
from kb.query import BadDate, KnowledgeBase, UnknownTopic, parse_date
from kb.search import search
from kb.worddiff import render_diff
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
    report = build(Path(args.library), Path(args.kb), Path(args.cards) if args.cards else None)
    if args.json:
        _print_json({"directory": str(report.directory), "seconds": report.seconds, "documents": report.documents,
                     "cards": report.cards, "imported": report.imported, "links": report.links,
                     "warnings": report.warnings, "references": report.references})  # fmt: skip
        return 0
    for document in report.documents:
        print(document.line())
        for warning in document.warnings:
            print(f"  warning: {warning}")
    print(f"cards: {report.cards} in the catalog ({report.imported} rows imported), {report.links} links")
    for warning in report.warnings:
        print(f"  warning: {warning}")
    print(f"references: {len(report.references)} to topics not in this knowledge base")
    for reference in report.references:
        print(f"  {reference}")
    print(f"built {report.directory} in {report.seconds:.2f} s")
    return 0


def _open(args: argparse.Namespace) -> KnowledgeBase:
    return KnowledgeBase(current(Path(args.kb)))


def _wrap(text: str, indent: str = "    ") -> str:
    paragraphs = text.split("\n\n")
    return "\n\n".join(textwrap.fill(p, 92, initial_indent=indent, subsequent_indent=indent) for p in paragraphs)


def _cite(part: dict[str, Any]) -> str:
    c = part["citation"]
    return f"{c['title']} ({c['version']}), {c['date']}, lines {c['lines']}"


def _print_part(part: dict[str, Any]) -> None:
    since = f"since {part['valid_from']}" if part["valid_from"] else part["condition"] or "pending"
    print(f"  [{part['label']}] {part['status']} {since}; {part['operation']}")
    if part["text"]:
        print(_wrap(part["text"]))
    if part["note"]:
        print(f"    NOTE: {part['note']}")
    if part["references"]:
        print(f"    See: {', '.join(part['references'])}")
    print(f"    Source: {_cite(part)}")


def cmd_show(args: argparse.Namespace) -> int:
    answer = _open(args).show(args.topic, parse_date(args.as_of), args.game)
    if args.json:
        _print_json(answer)
        return 0
    print(f"{answer['headword']}  ({answer['topic']}), in force on {answer['as_of']}")
    for part in answer["parts"]:
        _print_part(part)
    if not answer["parts"]:
        print("  (nothing in force on that date)")
    for part in answer["pending"]:
        _print_part(part)
    if answer["backrefs"]:
        print("  Referred to by: " + ", ".join(b["headword"] for b in answer["backrefs"]))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    answer = _open(args).history(args.topic, args.game)
    if args.json:
        _print_json(answer)
        return 0
    print(f"{answer['headword']}  ({answer['topic']}): {len(answer['versions'])} version(s)")
    for number, part in enumerate(answer["versions"], start=1):
        until = part["valid_to"] or ("in force" if part["valid_from"] else "-")
        print(
            f"{number}. {part['valid_from'] or part['condition']} -> {until}  [{part['label']}] {part['operation']}, "
            f"{part['status']}"
        )
        print(f"    Source: {_cite(part)}")
        if part["note"]:
            print(f"    NOTE: {part['note']}")
        changed = render_diff([tuple(s) for s in part["diff"]]) if part["supersedes"] else part["text"]
        print(_wrap(changed))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    kb = _open(args)
    cards = deck_keys(kb, _deck_text(args.deck), args.game) if args.deck else None
    answer = kb.diff(parse_date(args.start), parse_date(args.end), args.game, args.kind, cards)
    if args.json:
        _print_json(answer)
        return 0
    counts = ", ".join(f"{len(answer[k])} {k}" for k in ("added", "changed", "rescinded", "pending"))
    print(f"Changes from {answer['from']} to {answer['to']}: {counts}")
    marks = {"added": "+", "changed": "~", "rescinded": "-", "pending": "?"}
    for key, mark in marks.items():
        for item in answer[key]:
            extra = f" ({item['condition'] or 'from ' + str(item['valid_from'])})" if key == "pending" else ""
            print(f"{mark} {item['headword']}{extra}")
            if key == "changed":
                print(_wrap(render_diff([tuple(s) for s in item["diff"]])))
    return 0


def _print_entries(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        print(f"  {entry['headword']}  ({entry['topic']})")
        for part in entry["parts"]:
            _print_part(part)


def cmd_card(args: argparse.Namespace) -> int:
    answer = card(_open(args), args.name, parse_date(args.as_of), args.game)
    if args.json:
        _print_json(answer)
        return 0
    facts = ", ".join(x for x in (answer["type"], answer["affiliation"], answer["game"]) if x)
    print(f"{answer['name']}  ({facts}), as of {answer['as_of']}")
    if answer["aliases"]:
        print(f"  also written: {', '.join(answer['aliases'])}")
    print(f"Rulings headed by it: {len(answer['headed'])}")
    _print_entries(answer["headed"])
    others = answer["entries"][len(answer["headed"]) :]
    print(f"Other entries naming it: {len(others)}")
    _print_entries(others)
    print(f"Versions that ever named it: {len(answer['history'])}")
    return 0


def _deck_text(source: str) -> str:
    return sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")


def cmd_deck(args: argparse.Namespace) -> int:
    answer = deck(_open(args), _deck_text(args.file), parse_date(args.as_of), args.game)
    if args.json:
        _print_json(answer)
        return 0
    print(f"Deck of {answer['total']} cards, rulings in force on {answer['as_of']}")
    for item in answer["cards"]:
        print(
            f"{item['count']}x {item['name']}: {len(item['entries'])} entr{'y' if len(item['entries']) == 1 else 'ies'}"
        )
        _print_entries(item["entries"])
    for item in answer["unknown"]:
        hint = f" (did you mean: {', '.join(item['suggestions'])}?)" if item["suggestions"] else ""
        print(f"unknown card: {item['name']}{hint}")
    return 0


def _marks(snippet: str) -> str:
    return html.unescape(snippet.replace("<mark>", "*").replace("</mark>", "*"))


def cmd_search(args: argparse.Namespace) -> int:
    answer = search(_open(args), args.query, parse_date(args.as_of) if args.as_of else None, args.game, args.kind,
                    args.limit, args.all)  # fmt: skip
    if args.json:
        _print_json(answer)
        return 0
    if answer["suggestion"]:
        print(f"Did you mean: {answer['suggestion']}?")
    if answer["fuzzy"]:
        print("No exact matches; showing close matches.")
    print(
        f"{len(answer['results'])} result(s) for {answer['query']!r}"
        + (f" as of {answer['as_of']}" if answer["as_of"] else ", all versions")
    )
    for number, hit in enumerate(answer["results"], start=1):
        print(f"{number}. {hit['headword']}  [{hit['label']}] {hit['status']}")
        print(_wrap(_marks(hit["snippet"])))
        print(f"    Source: {_cite(hit)}")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    answer = _open(args).documents_in_force(parse_date(args.as_of))
    if args.json:
        _print_json(answer)
        return 0
    print(f"Documents on {answer['as_of']}:")
    for d in answer["documents"]:
        print(f"  {d['date']}  {d['kind']:<23} {d['title']} ({d['version']})  [{d['id']}]")
    if answer["declared_by"]:
        print(f"A complete set of rules, according to {answer['declared_by']}:")
        for name in answer["complete_set"]:
            print(f"  - {name}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    report = add_document(Path(args.file), args.kind, parse_date(args.date), Path(args.library), Path(args.kb),
                          args.game, args.title, args.version)  # fmt: skip
    print(report.documents[-1].line() if report.documents else "")
    print(f"built {report.directory} in {report.seconds:.2f} s")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import waitress

    from web.app import create_app

    current(Path(args.kb))  # fail early, with one line, when nothing is built yet
    print(f"serving {args.kb} on http://{args.host}:{args.port}/ (Ctrl-C stops)")
    waitress.serve(create_app({"KB": args.kb}), host=args.host, port=args.port, threads=args.threads)
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
    build_cmd.add_argument("--cards", help="a Lackey CSV card file to import into the catalog")
    build_cmd.add_argument("--json", action="store_true", help="print JSON")
    build_cmd.set_defaults(run=cmd_build)

    def query(name: str, help_text: str, run: Any) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help_text)
        command.add_argument("--kb", default=str(DEFAULT_KB), help="knowledge-base directory")
        command.add_argument("--game", default=None, help="only this game (e.g. stccg)")
        command.add_argument("--json", action="store_true", help="print JSON")
        command.set_defaults(run=run)
        return command

    show = query("show", "the text in force for a topic, with citations", cmd_show)
    show.add_argument("topic", help="a headword, e.g. Conundrum")
    show.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    history = query("history", "every version of a topic, with word diffs", cmd_history)
    history.add_argument("topic", help="a headword")
    diff = query("diff", "what changed between two dates", cmd_diff)
    diff.add_argument("start", metavar="FROM", help="date (YYYY-MM-DD)")
    diff.add_argument("end", metavar="TO", help="date (YYYY-MM-DD)")
    diff.add_argument("--kind", action="append", help="rulebook, glossary or current-rulings (repeatable)")
    diff.add_argument("--deck", help="limit to the cards of this deck list (a file, or - for standard input)")
    card_cmd = query("card", "a card: its rulings, the entries naming it, its history", cmd_card)
    card_cmd.add_argument("name", help="a card title, e.g. Conundrum")
    card_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    deck_cmd = query("deck", "every card of a deck list with its rulings", cmd_deck)
    deck_cmd.add_argument("file", help="a deck list file, or - for standard input")
    deck_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    search_cmd = query("search", "full-text search of the rulings in force", cmd_search)
    search_cmd.add_argument("query", help='words, "a phrase", card:NAME, kind:K, doc:ID, -word, prefix*')
    search_cmd.add_argument("--as-of", help="date (YYYY-MM-DD); default today")
    search_cmd.add_argument("--kind", help="rulebook, glossary or current-rulings")
    search_cmd.add_argument("--limit", type=int, default=20)
    search_cmd.add_argument("--all", action="store_true", help="search every version, not only those in force")
    docs = query("docs", "the documents in force on a date", cmd_docs)
    docs.add_argument("--as-of", help="date (YYYY-MM-DD); default today")

    serve = commands.add_parser("serve", help="serve the web app (read-only) with waitress")
    serve.add_argument("--kb", default=str(DEFAULT_KB))
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8)
    serve.set_defaults(run=cmd_serve)

    add = commands.add_parser("add", help="add a newly published document to the library and rebuild")
    add.add_argument("file", help="the document, a plain-text file")
    add.add_argument("--kind", required=True, choices=KINDS)
    add.add_argument("--date", required=True, help="the date it takes effect (YYYY-MM-DD)")
    add.add_argument("--title")
    add.add_argument("--version")
    add.add_argument("--game", default="stccg")
    add.add_argument("--library", default=str(DEFAULT_LIBRARY))
    add.add_argument("--kb", default=str(DEFAULT_KB))
    add.set_defaults(run=cmd_add)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rulings`` command line; return the exit status."""
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BadDate as err:
        print(f"rulings: error: {err}", file=sys.stderr)
        return 2
    except (UnknownTopic, UnknownCard) as err:
        print(f"rulings: {err}", file=sys.stderr)
        return 1
    except (ParseError, ManifestError, BuildError) as err:
        print(f"rulings: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as err:
        print(f"rulings: error: {err}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
