"""The query commands of the ``rulings`` command line: show, history, diff, docs, card,
deck, search. Each asks a `KnowledgeBase` method for its answer (a dict of a shape named in
`kb.answers`) and prints it as text for a judge, or as ``--json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import html
import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, cast

from kb.answers import Ending, Entry, Part, RuleNode, Source
from kb.asking import EXAMPLES, limit_problem, page_problem
from kb.errors import UnknownFilter
from kb.paging import PageFacts, Paging
from kb.paths import current
from kb.query import KnowledgeBase
from kb.vocabulary import kind_filter
from rulings.dates import parse_date
from rulings.errors import BadDate, ParseError
from rulings.source import read_stream
from web.citing import lines_cited
from web.diffs import render_diff
from web.leads import lead_of


def plain(value: Any) -> Any:
    """``value`` with dataclasses and dates turned into JSON-ready types."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    print(json.dumps(plain(data), indent=2, ensure_ascii=False))


def _open(args: argparse.Namespace) -> KnowledgeBase:
    """The knowledge base ``--kb`` names: opened here, or the one a server answering the command
    has open (``args.opened``, `web.cli.answering`)."""
    opened: KnowledgeBase | None = getattr(args, "opened", None)
    return opened if opened is not None else KnowledgeBase(current(Path(args.kb)))


def _game(kb: KnowledgeBase, args: argparse.Namespace) -> str | None:
    """The game a search or diff answers within: ``--game`` (``any``: every game), else the
    library's default (`KnowledgeBase.default_game`)."""
    if args.game == "any":
        return None
    return kb.game_filter(args.game or kb.default_game())


def _wrap(text: str, indent: str = "    ") -> str:
    paragraphs = text.split("\n\n")
    return "\n\n".join(textwrap.fill(p, 92, initial_indent=indent, subsequent_indent=indent) for p in paragraphs)


def _cite(part: Part) -> str:
    """A part's citation: its document, or every document that wrote its text, with their
    paragraphs; after the release in force on the date asked that restated it, if one did."""
    later = part["restated"]
    if later:
        same = "the same words" if later["typography"] else "unchanged"
        restated = f"{later['title']} ({later['version']}), {later['date']}, {lines_cited(later['lines'])}"
        return f"{restated}; {same} since {_first_cite(part)}"
    return _first_cite(part)


def _first_cite(part: Part) -> str:
    """Where a part's text was first written: its document, or every document that wrote it."""
    c = part["citation"]
    if c["sources"]:
        return "; ".join(
            f"{s['title']} ({s['version']}), {s['date']}, {lines_cited(s['lines'])} {s['paragraphs']}"
            for s in c["sources"]
        )
    return f"{c['title']} ({c['version']}), {c['date']}, {lines_cited(c['lines'])}"


def _written_by(source: Source) -> str:
    """A sentence's source as ``rulings blame`` prints it beside the sentence."""
    return f"{source['title']} {source['version']} ({source['date']}) {lines_cited(source['lines'])}"


def cmd_blame(args: argparse.Namespace) -> int:
    answer = _open(args).blame(args.topic, parse_date(args.as_of), args.game)
    if args.json:
        print_json(answer)
        return 0
    print(f"{answer['headword']}  ({answer['topic']}), in force on {answer['as_of']}: each sentence and its source")
    for part in answer["parts"]:
        print(f"\n[{part['label']}, version {part['number']} of {part['of']}] since {part['valid_from']}")
        beside = [(s["paragraph"], _written_by(s["source"]), s["text"]) for s in part["sentences"]]
        width = max((len(where) for _, where, _ in beside), default=0)
        for paragraph, where, text in beside:
            print(f"  ¶{paragraph}  {where:<{width}}  {text}")
    if not answer["parts"]:
        print("  nothing in force")
    return 0


def ending_line(end: Ending | None) -> str | None:
    """When, by what and why a version stopped, with the document and lines that did it."""
    if not end:
        return None
    lines = f", {lines_cited(end['lines'])}" if end["lines"] else ""
    return f"Ended {end['date']}: {end['why']} ({end['title']} ({end['version']}){lines})"


def print_part(part: Part) -> None:
    since = f"since {part['valid_from']}" if part["valid_from"] else part["condition"] or "pending"
    if part["status"] in ("superseded", "rescinded"):
        since = f"in force {part['valid_from']} to {part['valid_to']}"
    print(
        f"  [{part['label']}, version {part['number']} of {part['of']}] {part['status']}{_authority(part)} {since}; "
        f"{part['operation']}"
    )
    _print_standing(part)
    if part["text"]:
        print(_wrap(part["text"]))
    if part["note"]:
        print(f"    NOTE: {part['note']}")
    if part["summary"]:
        print(_wrap(f"Publisher's summary: {part['summary']}"))
    if part["references"]:
        print(f"    See: {', '.join(part['references'])}")
    print(f"    Source: {_cite(part)}")
    ended = ending_line(part["ended_by"])
    if ended and part["status"] != "active":
        print(f"    {ended}")


def _print_standing(part: Part) -> None:
    """What a judge must know before relying on ``part``: partial, governing, giving way, a heading's sections."""
    if part["partial"]:
        head, rest = part["partial"].split(":", 1)
        print(_wrap(f"{head.upper()}:{rest}"))
    if part["governs"]:
        print(_wrap(f"GOVERNS {part['governs']}."))
    way = part["gives_way"]
    if way:
        print(_wrap(f"GIVES WAY to {way['headword']} ({way['label']}, {way['date']}): {way['why']}."))
    if part["sections"]:
        print(_wrap("Its sections: " + ", ".join(s["headword"] for s in part["sections"]) + "."))


def cmd_show(args: argparse.Namespace) -> int:
    answer = _open(args).show(args.topic, parse_date(args.as_of), args.game)
    if args.json:
        print_json(answer)
        return 0
    print(f"{answer['headword']}  ({answer['topic']}), in force on {answer['as_of']}")
    for part in answer["parts"]:
        print_part(part)
    if not answer["parts"] and answer["library_starts"]:
        game, starts = answer["game"], answer["library_starts"]
        print(f"  (the library holds no document of {game} before {starts}: it cannot say what was in force then)")
    elif not answer["parts"] and answer["first_in_force"]:
        print(f"  (nothing in force on that date: its first text comes into force on {answer['first_in_force']})")
    elif not answer["parts"]:
        print("  (nothing in force on that date)")
    for part in answer["ended"]:
        print_part(part)
    for part in answer["pending"]:
        print_part(part)
    if answer["rules"]:
        print("  Rules under it, as printed:")
        print_rules(answer["rules"])
    if answer["backrefs"]:
        print("  Referred to by: " + ", ".join(b["headword"] for b in answer["backrefs"]))
    return 0


def print_rules(nodes: list[RuleNode], indent: str = "    ") -> None:
    """A numbered rule's subrules as the document prints them: each number and its text, its own
    subrules indented under it."""
    for node in nodes:
        text = " ".join(node["text"].split("\n\n")[:1])
        print(textwrap.fill(f"{node['number']} {text}", 92, initial_indent=indent, subsequent_indent=indent + "  "))
        for paragraph in node["text"].split("\n\n")[1:]:
            print(textwrap.fill(paragraph, 92, initial_indent=indent + "  ", subsequent_indent=indent + "  "))
        print_rules(node["children"], indent + "  ")


def _authority(part: Part) -> str:
    """`` (temporary)`` or `` (informal)`` beside a status; nothing for official text."""
    return f" ({part['authority']})" if part["authority"] != "official" else ""


def cmd_history(args: argparse.Namespace) -> int:
    answer = _open(args).history(args.topic, args.game)
    if args.json:
        print_json(answer)
        return 0
    print(f"{answer['headword']}  ({answer['topic']}): {len(answer['versions'])} version(s)")
    for number, part in enumerate(answer["versions"], start=1):
        until = part["valid_to"] or ("in force" if part["valid_from"] else "-")
        print(
            f"{number}. {part['valid_from'] or part['condition']} -> {until}  "
            f"[{part['label']}, version {part['number']} of {part['of']}] {part['operation']}, "
            f"{part['status']}{_authority(part)}"
            + (f", as {part['headword']}" if part["topic"] != answer["topic"] else "")
        )
        print(f"    Source: {_cite(part)}")
        ended = ending_line(part["ended_by"])
        if ended:
            print(f"    {ended}")
        if part["note"]:
            print(f"    NOTE: {part['note']}")
        if part["summary"]:
            print(_wrap(f"Publisher's summary: {part['summary']}"))
        changed = render_diff(part["diff"]) if part["supersedes"] else part["text"]
        print(_wrap(changed))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    kb = _open(args)
    game = _game(kb, args)
    cards = kb.deck_keys(_deck_text(args.deck), game) if args.deck else None
    if args.start is None:  # what the latest document changed
        low, high, latest = kb.latest_range(game)
    elif args.end is None:
        raise BadDate(f"give TO as well as FROM {args.start!r} (or neither: the latest document's changes)")
    else:
        low, high, latest = parse_date(args.start), parse_date(args.end), None
    answer = kb.diff(low, high, game, args.kind, cards, _paging(args))
    if args.json:
        print_json(answer)
        return 0
    if latest:
        print(f"What the latest document changed: {latest['title']} ({latest['version']}) of {latest['date']}")
    counts = ", ".join(f"{answer['counts'][k]} {k}" for k in ("changed", "added", "rescinded", "pending"))
    print(f"Changes from {answer['from']} to {answer['to']}: {counts}")
    for changed in answer["changed"]:  # changed first, as the items are paged (`kb.read.changes.SHOWN`)
        print(f"~ {changed['headword']}")
        print(_wrap(render_diff(changed["diff"])))
        for cause in changed["ended_by"]:
            if cause:
                print(f"    {ending_line(cause)}")
        _print_sources([p for p in changed["parts"] if p["valid_from"] and p["valid_from"] > answer["from"]])
    for added in answer["added"]:
        print(f"+ {added['headword']}")
        _print_sources(added["parts"])
    for gone in answer["rescinded"]:
        print(f"- {gone['headword']}")
        for end in gone["ended_by"]:
            print(f"    {ending_line(end)}")
    for waiting in answer["pending"]:
        print(f"? {waiting['headword']} ({waiting['condition'] or 'from ' + str(waiting['valid_from'])})")
        _print_sources([waiting])
    if answer["typography"]:
        folded = ", ".join(i["headword"] for i in answer["typography"])
        print(f"Typography only, not counted: {len(answer['typography'])} restated with the same words (quotes,")
        print(_wrap(f"dashes, spaces or line breaks alone differ): {folded}", "  "))
    _print_page(answer["page"], "changes")
    return 0


def _print_sources(parts: list[Part]) -> None:
    """Where each text of a diff item comes from, and the publisher's summary."""
    for part in parts:
        print(
            f"    [{part['label']}, version {part['number']} of {part['of']}] since {part['valid_from']}: {_cite(part)}"
        )
        if part["summary"]:
            print(_wrap(f"Publisher's summary: {part['summary']}"))


def _paging(args: argparse.Namespace) -> Paging:
    return Paging(args.offset, args.size)


def _print_page(page: PageFacts, noun: str) -> None:
    """Where this page stands, when the answer has more than one (`kb.paging`)."""
    if page["offset"] or page["next"] is not None:
        first, last = page["offset"] + 1, page["offset"] + page["size"]
        more = f"; the next page: --offset {page['next']}" if page["next"] is not None else ""
        print(f"({noun} {first}-{last} of {page['total']}{more})")


def _print_entries(entries: list[Entry]) -> None:
    for entry in entries:
        print(f"  {entry['headword']}  ({entry['topic']})")
        for part in entry["parts"]:
            print_part(part)


def cmd_card(args: argparse.Namespace) -> int:
    answer = _open(args).card(args.name, parse_date(args.as_of), args.game)
    if args.json:
        print_json(answer)
        return 0
    facts = ", ".join(x for x in (answer["type"], answer["affiliation"], answer["game"]) if x)
    print(f"{answer['name']}  ({facts}), as of {answer['as_of']}")
    if answer["aliases"]:
        print(f"  also written: {', '.join(answer['aliases'])}")
    for printing in answer["printings"] if answer["printed"] else []:
        _print_printing(printing)
    if answer["printings"] and not answer["printed"]:
        print(f"  printings: {'; '.join(p['name'] for p in answer['printings'])}")
    if not answer["printed"]:
        print("  no set, rarity, game text or lore in the catalog (build with a Lackey card file to add them)")
    print(f"Rulings in force, newest first: {len(answer['rulings'])}")
    for ruling in answer["rulings"]:
        print(f"  {ruling['since']}  {ruling['headword']} ({ruling['label']})  /version/{ruling['key']}")
    print(f"Rulings headed by it: {len(answer['headed'])}")
    _print_entries(answer["headed"])
    others = answer["entries"][len(answer["headed"]) :]
    print(f"Other entries naming it: {len(others)}")
    _print_entries(others)
    print(f"Versions that ever named it: {len(answer['history'])}")
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    answer = _open(args).together(args.names, parse_date(args.as_of), args.game)
    if args.json:
        print_json(answer)
        return 0
    first, second = (c["name"] for c in answer["cards"])
    print(
        f"{first} and {second}: {len(answer['entries'])} entr{'y' if len(answer['entries']) == 1 else 'ies'} "
        f"in force on {answer['as_of']}, best first"
    )
    for number, entry in enumerate(answer["entries"], start=1):
        print(f"{number}. {entry['headword']}  ({entry['topic']}): {entry['why']}")
        for part in entry["parts"]:
            print_part(part)
    return 0


def _print_printing(printing: dict[str, Any]) -> None:
    """One printing of a card file: set and rarity, type, affiliation, icons, game text, lore."""
    number = f" #{printing['number']}" if printing.get("number") else ""
    rarity = f", rarity {printing['rarity']}" if printing.get("rarity") else ""
    print(f"  printing: {printing['name']}  set {printing.get('release') or '(not given)'}{number}{rarity}")
    for label, field in (
        ("type", "type"),
        ("affiliation", "affiliation"),
        ("icons", "icons"),
        ("game text", "text"),
        ("lore", "lore"),
    ):
        if printing.get(field):
            print(f"    {label}: {printing[field]}")


DECK_BYTES = 1_000_000
"""Largest deck list file read (`rulings deck FILE`, ``--deck FILE``): the 500 card lines read
of it (`kb.read.cards.DECK_LINES`) are under 40 kB."""


def _deck_text(source: str) -> str:
    """The deck list in the file ``source`` (``-``: standard input), read at most `DECK_BYTES`
    (the limit is kept while reading, so ``/dev/zero`` or an endless pipe is refused at once);
    a refusal is a `ParseError` naming the file."""
    name = "standard input" if source == "-" else source
    try:
        if source == "-":
            data = read_stream(sys.stdin.buffer, DECK_BYTES)
        else:
            with open(source, "rb") as handle:
                data = read_stream(handle, DECK_BYTES)
    except ValueError as err:
        raise ParseError(name, 1, f"the deck list is {err}; a deck list is a few kB") from None
    except OSError as err:
        raise ParseError(name, 1, f"cannot read the deck list: {err.strerror or err}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ParseError(name, line, "the deck list is not UTF-8 text") from None


def cmd_deck(args: argparse.Namespace) -> int:
    answer = _open(args).deck(_deck_text(args.file), parse_date(args.as_of), args.game, _paging(args))
    if args.json:
        print_json(answer)
        return 0
    print(f"Deck of {answer['total']} card{'' if answer['total'] == 1 else 's'}, rulings in force on {answer['as_of']}")
    for item in answer["cards"]:
        print(
            f"{item['count']}x {item['name']}: {len(item['entries'])} entr{'y' if len(item['entries']) == 1 else 'ies'}"
        )
        _print_entries(item["entries"])
    for unknown in answer["unknown"]:
        hint = f" (did you mean: {', '.join(unknown['suggestions'])}?)" if unknown["suggestions"] else ""
        print(f"unknown card: {unknown['name']}{hint}")
    _print_page(answer["page"], "known cards")
    return 0


def _quoted(text: str) -> str:
    """``text`` as a shell would take it as one argument."""
    import shlex

    return shlex.quote(text)


LEAD_WORDS = 40
"""The most words of its text a hit of ``rulings search`` prints (`web.leads.lead_of`), its
text whole when it is short (``full``)."""


def _lead(hit: Any) -> str:
    """A hit's sentence that matched best, cut at clause boundaries to `LEAD_WORDS` words (as
    the search page cuts it to 15), the words searched between asterisks; a hit with no text
    (references only) its snippet."""
    if not hit["text"]:
        return html.unescape(re.sub(r"</?mark[^>]*>", "*", hit["snippet"]))
    first = lead_of(hit, LEAD_WORDS)
    return first.found.sub(r"*\1*", first.text) if first.found else first.text


def cmd_search(args: argparse.Namespace) -> int:
    problem = limit_problem(args.limit)
    if problem:
        raise UnknownFilter(f"--limit {args.limit}: {problem}")
    problem = page_problem(args.page, args.limit)
    if problem:
        raise UnknownFilter(f"--page {args.page}: {problem}")
    if not args.query.strip():
        raise UnknownFilter(
            f"nothing to search for; try {' | '.join(EXAMPLES)} (e.g. rulings search {_quoted(EXAMPLES[0])};"
            " 'rulings search -h' for the syntax)"
        )
    kb = _open(args)
    kind = kind_filter(args.kind) if args.kind else None
    game = _game(kb, args)
    answer = kb.search(
        args.query,
        parse_date(args.as_of) if args.as_of else None,
        game,
        kind,
        args.limit,
        args.all,
        exact=args.exact,
        start=(args.page - 1) * args.limit,
    )
    if args.json:
        print_json(answer)
        return 0
    if answer["suggestion"]:
        print(f"Did you mean: {answer['suggestion']}?")
    if answer["meant"]:
        print(
            f"Did you mean {' or '.join(repr(m) for m in answer['meant'])}? Showing results for both"
            f" (--exact searches for {answer['query']!r} as typed)"
        )
    if answer["corrected"]:
        print(f"Showing results for {answer['corrected']!r} (--exact searches for {answer['query']!r} as typed)")
    if answer["unmatched_note"]:
        print(answer["unmatched_note"])
    if answer.get("also_searched"):
        also = "; ".join(f"{word} as {' or '.join(others)}" for word, others in answer["also_searched"].items())
        print(f"Also searched, in the game's own words: {also}.")
    if answer.get("by_meaning"):
        print("Ranked by meaning as well as by words.")
    first = answer["start"] + 1
    shown = f"results {first}-{first + len(answer['results']) - 1}" if answer["start"] else "result(s)"
    print(
        f"{len(answer['results'])} {shown} for {answer['query']!r}"
        + (f" as of {answer['as_of']}" if answer["as_of"] else ", all versions")
        + (f"; more with --page {args.page + 1}" if answer["more"] else "")
    )
    for number, hit in enumerate(answer["results"], start=first):
        home = game or kb.default_game()  # the game asked for (`--game`), else the library's
        other = f" (other game: {hit['game']})" if hit["game"] != home else ""
        print(f"{number}. {hit['headword']}  [{hit['label']}] {hit['status']}{other}")
        _print_standing(hit)
        matching = cast("dict[str, Any]", hit).get("matching", [])  # a search over history has them
        if len(matching) > 1:
            print(f"    {len(matching)} versions of this entry match; the newest is shown ('rulings history')")
        print(_wrap(hit["text"] if hit["full"] else _lead(hit)))
        print(f"    Source: {_cite(hit)}")
    return 0
