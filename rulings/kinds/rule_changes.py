"""The kind ``rule-changes``: a rule tracker, the supersession history of the rules as published.

Each rule is its title, its text, ``Type | Status`` (``Original | Superseded``, ``Major New
Affiliation | Active``), the document it comes from with that document's date (``Premiere
Rulebook (10 Nov 1994)``), then, for a rule that changed, ``Superseded by:``, ``Modified by:`` or
``Rescinded by:`` and the rules that did it, each with its month (``Seeding rule (II): Thirty-five
cards (1998 Feb)``). Two layouts are read: blocks separated by blank lines (a block's text may
run over several lines), and the tracker's page as published, with no blank line anywhere: there
a rule starts two lines before its ``Type | Status`` line (its title, then its one line of text),
and the lines between one rule's source and the next rule's title are its successors.

Each rule is a ``rule`` entry, a topic of its own: in force from its source's date, ended
(``superseded``, ``rescinded``) in the month of its first successor when its status says so.
Each link is kept both ways, as the notes of both rules (``superseded by ...`` / ``supersedes
...``). Lines before the first rule are the introduction; any other lines outside a rule, and a
rule whose dates cannot be read, are reported unparsed.
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.entries.topics import join_paragraphs
from rulings.kinds import DATED, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

_STATUS = re.compile(r"^(?P<type>[A-Z][\w .'-]{1,40}?)\s*\|\s*(?P<status>Active|Superseded|Modified|Rescinded)$")
_SOURCE = re.compile(r"^(?P<source>.+?)\s*\((?P<day>\d{1,2}) (?P<month>[A-Z][a-z]{2}) (?P<year>\d{4})\)$")
_BY = re.compile(r"^(?P<how>Superseded|Modified|Rescinded) by:$")
_SUCCESSOR = re.compile(r"^(?P<name>.+?)\s*\((?P<year>\d{4}) (?P<month>[A-Z][a-z]{2})\)$")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
ENDS = {"Superseded": "superseded", "Rescinded": "rescinded"}
"""The statuses that end a rule, and how its version says it ended."""


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a rule tracker into one dated ``rule`` entry per rule, linked both ways."""
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    links: list[tuple[Entry, str, str, str]] = []  # (rule, how, successor, month)
    for piece, status in _pieces(source):
        if status is None or status < 2 or status + 1 >= len(piece):
            if not result.entries and status is None:
                intro = Entry(
                    document.title, "introduction", join_paragraphs([t for _, t in piece]), [n for n, _ in piece]
                )
                result.entries.append(intro)
            else:
                result.unparsed += [n for n, _ in piece]
                result.warnings.append(
                    f"{document.path}:{piece[0][0]}: not a rule (title, text, Type | Status, source)"
                )
            continue
        entry = _rule(document, piece, status, links, result)
        if entry is not None:
            result.entries.append(entry)
    _link(result, links)
    return result


Line = tuple[int, str]
"""A non-blank line: its 1-based number and its text, stripped."""


def _pieces(source: SourceText) -> list[tuple[list[Line], int | None]]:
    """The text cut into rules (each with the index of its ``Type | Status`` line) and the runs
    of lines between them (None): a block between blank lines holding one status line is one
    rule; in a block holding several (the page with no blank line) each rule starts two lines
    before its status line, or earlier over lines that cannot end the rule before it (a text of
    several lines: neither its source, nor ``... by:``, nor a dated successor); the lines before
    the first rule are a run of their own."""
    pieces: list[tuple[list[Line], int | None]] = []
    for block in _blocks(source):
        statuses = [k for k, (_, t) in enumerate(block) if _STATUS.match(t)]
        if len(statuses) < 2:
            pieces.append((block, statuses[0] if statuses else None))
            continue
        starts = [max(k - 2, before + 1) for before, k in zip([-1, *statuses], statuses, strict=False)]
        for at in range(1, len(starts)):
            while starts[at] - 1 > statuses[at - 1] + 1 and not _tail(block[starts[at] - 1][1]):
                starts[at] -= 1
        if starts[0] > 0:
            pieces.append((block[: starts[0]], None))
        for at, (begin, status) in enumerate(zip(starts, statuses, strict=True)):
            end = starts[at + 1] if at + 1 < len(starts) else len(block)
            pieces.append((block[begin:end], status - begin))
    return pieces


def _tail(text: str) -> bool:
    """Whether a line can end a rule: its source, ``Superseded by:`` and the like, a dated successor."""
    return any(p.match(text) for p in (_SOURCE, _BY, _SUCCESSOR))


def _blocks(source: SourceText) -> list[list[Line]]:
    blocks: list[list[Line]] = [[]]
    for number, line in enumerate(source.lines, 1):
        if line.strip():
            blocks[-1].append((number, line.strip()))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _rule(
    document: Document, block: list[Line], status: int, links: list[tuple[Entry, str, str, str]],
    result: ParseResult,
) -> Entry | None:  # fmt: skip
    kind = _STATUS.match(block[status][1])
    cited = _SOURCE.match(block[status + 1][1])
    day = _date(cited["year"], cited["month"], cited["day"]) if cited else None
    if kind is None or cited is None or day is None:
        result.unparsed += [n for n, _ in block]
        result.warnings.append(f"{document.path}:{block[status + 1][0]}: no source with a date (Name (10 Nov 1994))")
        return None
    entry = Entry(block[0][1], "rule", join_paragraphs([t for _, t in block[1:status]]), [n for n, _ in block])
    entry.date = day
    entry.fields = {"type": kind["type"], "status": kind["status"], "source": cited["source"].strip()}
    how = ""
    for number, text in block[status + 2 :]:
        by, successor = _BY.match(text), _SUCCESSOR.match(text)
        if by:
            how = by["how"].lower()
        elif successor and how and _date(successor["year"], successor["month"]):
            links.append((entry, how, successor["name"], f"{successor['year']} {successor['month']}"))
        else:
            result.warnings.append(f"{document.path}:{number}: {text[:60]!r} is no successor rule (Name (2016 Mar))")
    return entry


def _link(result: ParseResult, links: list[tuple[Entry, str, str, str]]) -> None:
    """Each rule's notes: what changed it and what it changed; its end when its status ends it."""
    notes: dict[int, list[str]] = {}
    by_title = {e.headword.casefold(): e for e in result.entries if e.kind == "rule"}
    for entry, how, name, month in links:
        notes.setdefault(id(entry), []).append(f"{how} by {name} ({month})")
        year, abbreviation = month.split()
        until = _date(year, abbreviation)
        status = entry.fields["status"]
        if status in ENDS and until and (entry.until is None or until < entry.until):
            entry.until, entry.ended = until, ENDS[status]
        successor = by_title.get(name.casefold())
        if successor is not None:
            verb = {"superseded": "supersedes", "modified": "modifies", "rescinded": "rescinds"}[how]
            notes.setdefault(id(successor), []).append(f"{verb} {entry.headword} ({entry.fields['source']})")
    for entry in result.entries:
        if id(entry) in notes:
            entry.fields["note"] = "; ".join(notes[id(entry)])


def _date(year: str, month: str, day: str = "1") -> dt.date | None:
    if month not in _MONTHS:
        return None
    try:
        return dt.date(int(year), _MONTHS.index(month) + 1, int(day))
    except ValueError:
        return None


def shaped(entry: Entry) -> bool:
    """A rule with its source's date, headed by its title."""
    return entry.kind == "rule" and entry.date is not None and term(entry.headword, 12)


KIND = register(
    Kind(
        name="rule-changes",
        parse=parse,
        versions=Versions(DATED, series="rule-changes", topics=("rule",), note_field="note"),
        rank=3,
        called="the rule tracker",
        shaped=shaped,
        itself=r"\brule changes\b|\brule tracker\b",
        starts=r"^[A-Z][\w .'-]{1,40}?\s*\|\s*(?:Active|Superseded|Modified|Rescinded)$",
        entries="tracked rules",
    )
)
