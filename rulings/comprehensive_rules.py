"""Parse one release of Magic: The Gathering's Comprehensive Rules (kind ``comprehensive-rules``).

A release is one text file: a title, the effective date (``These rules are effective as of
June 1, 2020.``), an Introduction, a Contents list, the rules, a Glossary and Credits. Every
numbered chapter (``1. Game Concepts``), section (``100. General``), rule (``100.1. ...``)
and subrule (``100.1a ...``, once printed ``119.1d. ...``) is an entry whose headword is its
number; its text is what follows the number, with its ``Example:`` and other unnumbered
paragraphs after it. A chapter's or section's text is its title; so is a rule's that only
titles its subrules (``702.9. Flying``). Every Glossary term (on its own line, its definition on
the next lines, a blank line between terms) is a ``glossary entry``; a definition that only
refers (``See Damage.``) is a ``glossary reference`` to that term. Rule numbers cited in a
text (``See rule 702.19b``, ``see section 8``, ``rules 509 and 702.17``) are its references. A
rule's ``fields`` (searched, not shown) name the section and titling rule it stands under.

The title, effective date lines, Contents and Credits are chrome; the Introduction is an
``introduction`` entry (it belongs to the document, not to a topic). A line the layout does
not place (text before the first rule, a term with no definition) is reported unparsed
with a warning. The effective date is read from the text (``declared_date``) and becomes the
document's date when the manifest gives none; a manifest date that differs is warned.
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

KIND = "comprehensive-rules"
"""The document kind this module parses."""
GAME = "mtg"
"""The game whose rules these are."""
RULE_KINDS = ("chapter", "section", "rule", "subrule")
"""Entry kinds of the numbered rules, largest first."""
GLOSSARY_KINDS = ("glossary entry", "glossary reference")
"""Entry kinds of the Glossary's terms."""

MAX_TITLE = 60
"""Longest text of a rule read as only a title of its subrules (``702.9. Flying``)."""
_NUMBERED = (
    ("chapter", re.compile(r"^(?P<number>[1-9])\.\s+(?P<text>\S.*)$")),
    ("section", re.compile(r"^(?P<number>[1-9]\d\d)\.\s+(?P<text>\S.*)$")),
    ("rule", re.compile(r"^(?P<number>[1-9]\d\d\.\d+)\.\s*(?P<text>.*)$")),
    ("subrule", re.compile(r"^(?P<number>[1-9]\d\d\.\d+[a-z]+)\.?(?:\s+(?P<text>.*)|$)")),
)
_EFFECTIVE = re.compile(r"\beffective (?:as of|on|from) (?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})")
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")  # fmt: skip
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, 1)}
_CITED = re.compile(
    r"\b(?:rules?|sections?)\s+(?P<list>(?:\d{3}(?:\.\d+[a-z]?)?|[1-9])\b"
    r"(?:(?:,\s*|\s+(?:and|or|through)\s+|\s*[-\u2013]\s*)(?:(?:rules?|sections?)\s+)?(?:\d{3}(?:\.\d+[a-z]?)?|[1-9])\b)*)"
)
_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?|[1-9]")
_SEE_TERM = re.compile(r"^See (?P<term>(?!rules?\b|sections?\b)[^.]+)\.$")


def effective_date(line: str) -> dt.date | None:
    """The date of an ``effective as of <Month> <D>, <YYYY>`` line, if it states a real one."""
    match = _EFFECTIVE.search(line)
    if not match or match["month"] not in _MONTHS:
        return None
    try:
        return dt.date(int(match["year"]), _MONTHS[match["month"]], int(match["day"]))
    except ValueError:
        return None


def numbered(line: str) -> tuple[str, str, str] | None:
    """(kind, number, text) when ``line`` (indent stripped) starts a chapter, section, rule or subrule."""
    for kind, pattern in _NUMBERED:
        match = pattern.match(line)
        if match:
            return kind, match["number"], (match["text"] or "").strip()
    return None


def cited_rules(text: str) -> list[str]:
    """The rule and section numbers ``text`` cites, in order, once each (``See rule 702.19b`` is ``702.19b``)."""
    found: list[str] = []
    for match in _CITED.finditer(text):
        found.extend(_NUMBER.findall(match["list"]))
    return list(dict.fromkeys(found))


def parse_comprehensive_rules(document: Document, source: SourceText) -> ParseResult:
    """Every rule and Glossary term of one release, each line accounted for."""
    lines = source.lines
    result = ParseResult(document, [], len(lines), [i + 1 for i, t in enumerate(lines) if t.strip()])
    where = {"intro": _find(lines, "Introduction", 0), "contents": _find(lines, "Contents", 0)}
    glossary = _last(lines, "Glossary")
    credits = _last(lines, "Credits")
    body_start = _body_start(lines, where["contents"])
    _front(result, lines, where["intro"], where["contents"], body_start)
    body_end = glossary if glossary is not None else (credits if credits is not None else len(lines))
    _rules(result, lines, body_start, body_end)
    if glossary is not None:
        result.chrome.append(glossary + 1)
        _glossary(result, lines, glossary + 1, credits if credits is not None and credits > glossary else len(lines))
    if credits is not None and credits >= body_end:
        result.chrome += [n for n in range(credits + 1, len(lines) + 1) if lines[n - 1].strip()]
    _date(result, lines)
    result.chrome = sorted(set(result.chrome))
    result.unparsed = sorted(set(result.unparsed))
    return result


def _find(lines: list[str], heading: str, start: int) -> int | None:
    """The 0-based index of the first line from ``start`` that is ``heading`` alone."""
    return next((i for i in range(start, len(lines)) if lines[i].strip() == heading), None)


def _last(lines: list[str], heading: str) -> int | None:
    """The 0-based index of the last line that is ``heading`` alone, unindented (the Contents lists it first)."""
    return next((i for i in range(len(lines) - 1, -1, -1) if lines[i].rstrip() == heading), None)


def _body_start(lines: list[str], contents: int | None) -> int:
    """Where the rules begin: after the Contents list (which ends with ``Credits``), at the first chapter."""
    start = 0
    if contents is not None:
        end = _find(lines, "Credits", contents)
        start = end + 1 if end is not None else contents + 1
    first = next((i for i in range(start, len(lines)) if numbered(lines[i].strip())), None)
    return first if first is not None else start


def _front(result: ParseResult, lines: list[str], intro: int | None, contents: int | None, body: int) -> None:
    """The title, date lines, headings and Contents as chrome; the Introduction's paragraphs as one entry."""
    stop = contents if contents is not None else body
    lead = intro if intro is not None else stop
    first = next((n for n in range(lead) if lines[n].strip()), None)
    for n in range(lead):
        if not lines[n].strip():
            continue
        if n == first or effective_date(lines[n]):
            result.chrome.append(n + 1)
        else:
            result.unparsed.append(n + 1)
            result.warnings.append(
                f"{result.document.path}:{n + 1}: text before the Introduction and the rules; not read"
            )
    if intro is not None:
        result.chrome.append(intro + 1)
        prose = [n for n in range(intro + 1, stop) if lines[n].strip()]
        result.chrome += [n + 1 for n in prose if effective_date(lines[n])]
        kept = [n for n in prose if not effective_date(lines[n])]
        if kept:
            text = "\n\n".join(lines[n].strip() for n in kept)
            result.entries.append(Entry("Introduction", "introduction", text, [n + 1 for n in kept]))
    result.chrome += [n + 1 for n in range(stop, body) if lines[n].strip()]


def _rules(result: ParseResult, lines: list[str], start: int, end: int) -> None:
    """Each numbered line starts an entry; unnumbered lines are paragraphs of the entry before
    (so is a chapter or section number not after the one before: a numbered list in a rule)."""
    current: Entry | None = None
    path = result.document.path
    last: dict[str, int] = {}
    for index in range(start, end):
        text = lines[index].strip()
        if not text:
            continue
        head = numbered(text)
        if head and head[0] in ("chapter", "section"):  # "1. ..." in a rule's list is not a chapter
            if int(head[1]) <= last.get(head[0], 0):
                head = None
            else:
                last[head[0]] = int(head[1])
        if head:
            kind, number, body = head
            current = Entry(number, kind, body, [index + 1], number=number)
            result.entries.append(current)
        elif current is None:
            result.unparsed.append(index + 1)
            result.warnings.append(f"{path}:{index + 1}: text before the first rule; not read as a rule")
        else:
            current.text = f"{current.text}\n\n{text}" if current.text else text
            current.lines.append(index + 1)
    _titles(result.entries)
    seen: dict[str, int] = {}
    for entry in [e for e in result.entries if e.kind in RULE_KINDS]:
        entry.references = [n for n in cited_rules(entry.text) if n != entry.headword]
        if entry.headword in seen:
            result.warnings.append(
                f"{path}:{entry.span.start}: rule {entry.headword} is numbered twice (also line {seen[entry.headword]})"
            )
        seen.setdefault(entry.headword, entry.span.start)


def _titles(entries: list[Entry]) -> None:
    """Give each rule and subrule the titles it stands under, as searchable fields: its section's
    (``Keyword Abilities``) and, for a subrule, its rule's when that only titles it (``Deathtouch``)."""
    section = rule = ""
    for entry in entries:
        if entry.kind == "section":
            section = entry.text
        elif entry.kind == "rule":
            rule = entry.text if len(entry.text) <= MAX_TITLE and "\n" not in entry.text else ""
            entry.fields = {"section": section} if section else {}
        elif entry.kind == "subrule":
            entry.fields = {k: v for k, v in (("section", section), ("rule", rule)) if v}


def _glossary(result: ParseResult, lines: list[str], start: int, end: int) -> None:
    """Terms: a line after a blank (or the heading), its definition the lines up to the next blank."""
    block: list[int] = []
    for index in [*range(start, end), None]:
        if index is not None and lines[index].strip():
            block.append(index)
            continue
        if len(block) == 1:
            result.unparsed.append(block[0] + 1)
            result.warnings.append(f"{result.document.path}:{block[0] + 1}: Glossary term with no definition")
        elif block:
            term = lines[block[0]].strip()
            definition = [lines[n].strip() for n in block[1:]]
            text = "\n\n".join(definition)
            only = _SEE_TERM.match(text) if len(definition) == 1 else None
            kind = "glossary reference" if only else "glossary entry"
            references = [only["term"]] if only else cited_rules(text)
            result.entries.append(Entry(term, kind, text, [n + 1 for n in block], references=references))
        block = []


def _date(result: ParseResult, lines: list[str]) -> None:
    """The effective date the text states; the document's date when the manifest gave none."""
    document = result.document
    stated = next(((n, d) for n, t in enumerate(lines, 1) if (d := effective_date(t))), None)
    if stated is None:
        result.warnings.append(f"{document.path}:1: no 'These rules are effective as of <date>.' line")
        return
    line, day = stated
    document.declared_date = day
    if document.date is None:
        document.date = day
    elif document.date != day:
        result.warnings.append(
            f"{document.path}:{line}: the manifest dates this release {document.date.isoformat()}, "
            f"the text says it is effective as of {day.isoformat()}; using the manifest's date"
        )
