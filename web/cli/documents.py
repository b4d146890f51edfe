"""The commands about the library's documents and single versions: ``rulings docs`` (the
documents in force on a date, or one document's source line by line with the lines a citation
names marked) and ``rulings version`` (a version's permalink: its text, and the text in force
instead once it no longer is). The web's ``/docs``, ``/docs/ID?lines=`` and ``/version/KEY``
show the same answers."""

from __future__ import annotations

import argparse

from kb.answers import DocumentPage, VersionPage
from kb.asking import cited_lines, lines_beyond
from kb.errors import UnknownDocument, UnknownVersion
from rulings.dates import parse_date
from web.citing import lines_cited
from web.cli.answers import _open, print_json, print_part
from web.errors import BadArguments

AROUND = 2
"""Lines shown before and after the lines a citation names."""


def cmd_docs(args: argparse.Namespace) -> int:
    if args.document:
        return _document(args)
    if args.lines:
        raise BadArguments("--lines marks lines of one document: name it (rulings docs DOCUMENT --lines 79-83)")
    answer = _open(args).documents_in_force(parse_date(args.as_of))
    if args.json:
        print_json(answer)
        return 0
    print(f"Documents in force on {answer['as_of']}:")
    for d in answer["documents"]:
        print(f"  {d['date']}  {d['kind']:<23} {d['title']} ({d['version']})  [{d['id']}]")
    if answer["declarations"]:
        latest = answer["declarations"][0]
        print(f"A complete set of rules, according to {latest['id']}:")
        for item in latest["set"]:
            print(
                f"  - {item['name']}" + (f"  [{item['document']}]" if item["document"] else "  (not in this library)")
            )
    for d in answer["replaced"]:
        print(f"Replaced by then: {d['id']} (by {d['replaced_by']})")
    if answer["later"]:
        print(f"Published later: {', '.join(d['id'] for d in answer['later'])}")
    return 0


def _document(args: argparse.Namespace) -> int:
    """One document's source, its lines numbered; with ``--lines``, those lines marked ``>`` and
    `AROUND` lines either side of them only."""
    (low, high), problem = cited_lines(args.lines or "")
    if problem:
        raise BadArguments(problem)
    found: DocumentPage | None = _open(args).document_page(args.document, low, high)
    if found is None:
        raise UnknownDocument(args.document, [])
    beyond = lines_beyond(low, high, found["line_count"])
    if beyond:
        raise BadArguments(beyond)
    if args.json:
        print_json(found)
        return 0
    print(f"{found['title']} ({found['version']}), {found['date'] or 'undated'}  [{found['id']}], {found['kind']}")
    lines = found["lines"]
    if any(line["cited"] for line in lines):  # the cited lines and a little around them
        span = str(low) if low == high else f"{low}-{high}"
        print(f"  {lines_cited(span)} marked >, with {AROUND} lines around them (the whole source without --lines)")
        lines = [line for line in lines if low - AROUND <= line["number"] <= high + AROUND]
    width = len(str(found["line_count"]))
    for line in lines:
        print(f"{'>' if line['cited'] else ' '} {line['number']:>{width}}  {line['text']}")
    return 0


def cmd_version(args: argparse.Namespace) -> int:
    found: VersionPage | None = _open(args).version_page(args.key, parse_date(args.as_of))
    if found is None:
        raise UnknownVersion(args.key, [])
    if args.json:
        print_json(found)
        return 0
    print(f"{found['headword']}  ({found['topic']}), the version {found['key']}, on {found['as_of']}")
    print_part(found)
    now = found["now"]
    if now is not None:
        if now["key"]:
            print(f"  In force instead: the {now['label']} version of {now['valid_from']}, {now['key']}")
        else:
            print(f"  No {found['label']} text is in force instead.")
    return 0
