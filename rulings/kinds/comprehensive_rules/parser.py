"""Parse one release of a game's Comprehensive Rules (kind ``comprehensive-rules``): Magic: The
Gathering's, Disney Lorcana's, any numbered rules in one of the numberings of `rulings.numbering.rule_numbers`
(a Lorcana release's page footers, wrapped lines and Glossary: `rulings.kinds.comprehensive_rules.layout`).

A Magic release is one text file: a title, the effective date (``These rules are effective as of
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
import itertools
import re

from rulings.kinds.comprehensive_rules.layout import ends_sentence, glossary_blocks, page_footers, paragraphs
from rulings.model import Document, Entry, ParseResult
from rulings.numbering.rule_numbers import MAGIC, Numbering, numbering_for, sequence
from rulings.source import SourceText

KIND = "comprehensive-rules"
"""The document kind this module parses."""
GAME = "mtg"
"""The game whose rules this kind first read (others: `rulings.numbering.rule_numbers.GAMES`)."""
RULE_KINDS = ("chapter", "section", "rule", "subrule")
"""Entry kinds of the numbered rules, largest first."""
GLOSSARY_KINDS = ("glossary entry", "glossary reference")
"""Entry kinds of the Glossary's terms."""

MAX_TITLE = 60
"""Longest text of a rule read as only a title of its subrules (``702.9. Flying``)."""
_EFFECTIVE = re.compile(
    r"\b[Ee]ffective (?:(?:as of|on|from) )?(?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})"
)
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")  # fmt: skip
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, 1)}
_CITED = re.compile(
    r"\b(?:rules?|sections?)\s+(?P<list>(?:\d{3}(?:\.\d+[a-z]?)?|[1-9])\b"
    r"(?:(?:,\s*|\s+(?:and|or|through)\s+|\s*[-\u2013]\s*)(?:(?:rules?|sections?)\s+)?(?:\d{3}(?:\.\d+[a-z]?)?|[1-9])\b)*)"
)
_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?|[1-9]")
_DOTTED_NUMBER = r"[1-9]\d?(?:\.\d{1,3})*(?<!\.)"
_CITED_DOTTED = re.compile(
    rf"\b(?:[Ss]ee|rules?|sections?)\s+(?:(?:rule|section)s?\s+)?(?P<list>{_DOTTED_NUMBER}\b"
    rf"(?:(?:,\s*|\s+(?:and|or|through)\s+|\s*[-\u2013]\s*)(?:(?:rules?|sections?)\s+)?{_DOTTED_NUMBER}\b)*)"
)
_NUMBER_DOTTED = re.compile(_DOTTED_NUMBER)
_SEE_TERM = re.compile(r"^See (?P<term>(?!rules?\b|sections?\b)[^.]+)\.$")
_VERSION = re.compile(r"^Version \d+(?:\.\d+)*\.?$")
_TAILS = ("credits", "update summary", "previous update summary")
"""Headings of what follows the Glossary: Credits (chrome), an update summary (an entry of the document)."""


def effective_date(line: str) -> dt.date | None:
    """The date of an ``effective as of <Month> <D>, <YYYY>`` line, if it states a real one."""
    match = _EFFECTIVE.search(line)
    if not match or match["month"] not in _MONTHS:
        return None
    try:
        return dt.date(int(match["year"]), _MONTHS[match["month"]], int(match["day"]))
    except ValueError:
        return None


def numbered(line: str, numbering: Numbering = MAGIC) -> tuple[str, str, str] | None:
    """(kind, number, text) when ``line`` (indent stripped) starts a chapter, section, rule or
    subrule, its number printed with its period (or a subrule's without)."""
    head = numbering.numbered(line)
    if head is None or not head.dotted:
        return None
    return head.kind, head.number, head.text


def cited_rules(text: str, numbering: Numbering = MAGIC) -> list[str]:
    """The rule and section numbers ``text`` cites, in order, once each (``See rule 702.19b`` is ``702.19b``)."""
    found: list[str] = []
    if numbering.wrapped:
        for match in _CITED_DOTTED.finditer(text):
            found.extend(_NUMBER_DOTTED.findall(match["list"]))
    else:
        for match in _CITED.finditer(text):
            found.extend(_NUMBER.findall(match["list"]))
    return list(dict.fromkeys(found))


def parse_comprehensive_rules(document: Document, source: SourceText) -> ParseResult:
    """Every rule and Glossary term of one release, each line accounted for."""
    lines = source.lines
    result = ParseResult(document, [], len(lines), [i + 1 for i, t in enumerate(lines) if t.strip()])
    numbering = numbering_for(document.game, lines)
    footers = page_footers(lines)
    result.chrome += [n + 1 for n in footers]
    contents = _find(lines, "contents", 0)
    body_start = _body_start(lines, contents, numbering, footers)
    glossary = _last(lines, "glossary")
    if glossary is not None and glossary < body_start:  # only the Contents name it
        glossary = None
    tail = _tail(lines, glossary)
    if tail is not None and tail < body_start:
        tail = None
    if numbering.wrapped:
        _front_wrapped(result, lines, contents, body_start, footers, numbering)
    else:
        _front(result, lines, _find(lines, "introduction", 0), contents, body_start)
    body_end = glossary if glossary is not None else (tail if tail is not None else len(lines))
    _rules(result, lines, body_start, body_end, numbering, footers)
    if glossary is not None:
        result.chrome.append(glossary + 1)
        end = tail if tail is not None and tail > glossary else len(lines)
        if numbering.wrapped:
            _terms(result, lines, glossary_blocks(lines, glossary + 1, end, footers), numbering)
        else:
            _glossary(result, lines, glossary + 1, end)
    if tail is not None and tail >= body_end:
        _tails(result, lines, tail, footers)
    _date(result, lines)
    result.chrome = sorted(set(result.chrome))
    result.unparsed = sorted(set(result.unparsed))
    return result


def _find(lines: list[str], heading: str, start: int) -> int | None:
    """The 0-based index of the first line from ``start`` that is ``heading`` alone (any case), or
    heads the first of two columns (``CONTENTS          6.``)."""
    column = re.compile(rf"\s*{heading}(?:\s{{3,}}\S.*)?", re.IGNORECASE)
    return next((i for i in range(start, len(lines)) if column.fullmatch(lines[i].rstrip())), None)


def _last(lines: list[str], heading: str) -> int | None:
    """The 0-based index of the last line that is ``heading`` alone (any case; the Contents lists it first)."""
    return next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip().casefold() == heading), None)


def _tail(lines: list[str], glossary: int | None) -> int | None:
    """Where what follows the Glossary (Credits, an update summary) begins: its first heading after it."""
    start = glossary + 1 if glossary is not None else 0
    found = [i for i in range(start, len(lines)) if lines[i].strip().casefold() in _TAILS]
    if glossary is None:  # the Contents lists the headings first: the last run of them
        found = found[-1:] if found else []
    return found[0] if found else None


def _body_start(lines: list[str], contents: int | None, numbering: Numbering, footers: set[int]) -> int:
    """Where the rules begin: at the chapter (else the section) heading the first rule (``1.1.1.``,
    ``100.1.``) after the Contents, which list chapters and sections, never rules."""
    start = contents + 1 if contents is not None else 0
    first = next(
        (i for i in range(start, len(lines)) if (h := numbering.numbered(lines[i].strip())) and h.kind == "rule"),
        None,
    )
    if first is None:
        return start
    found = first
    for index in range(first - 1, start - 1, -1):
        text = lines[index].strip()
        head = numbering.numbered(text) if text else None
        if head is not None and head.kind == "chapter":
            return index
        if head is not None and head.kind == "section":
            found = index
        elif text and index not in footers:
            break
    return found


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


def _front_wrapped(
    result: ParseResult, lines: list[str], contents: int | None, body: int, footers: set[int], numbering: Numbering
) -> None:
    """A wrapped release's top: its title, version and date lines chrome, its notes to the reader
    (``A Note for New Players``, ``Introduction``, ``Updates``, their headings kept) one entry, the
    Contents chrome (a line of them printed above their heading too)."""
    stop = contents if contents is not None else body
    text = [n for n in range(stop) if lines[n].strip() and n not in footers]
    top = {n for n in text[:1]} | {n for n in text if effective_date(lines[n]) or _VERSION.match(lines[n].strip())}
    top |= {n for n in text if numbering.numbered(lines[n].strip())}  # a Contents line printed above its heading
    result.chrome += [n + 1 for n in top]
    kept = [n for n in text if n not in top]
    groups: list[list[str]] = []
    for place, n in enumerate(kept):
        line = lines[n].strip()
        after = kept[place - 1] if place else None
        fresh = after is None or after + 1 < n or (ends_sentence(lines[after]) and _titled(line))
        if fresh or _titled(lines[after].strip() if after is not None else ""):
            groups.append([])
        groups[-1].append(line)
    if kept:
        joined = "\n\n".join(paragraphs(group) for group in groups)
        result.entries.append(Entry("Introduction", "introduction", joined, [n + 1 for n in kept]))
    result.chrome += [n + 1 for n in range(stop, body) if lines[n].strip() and n not in footers]


def _titled(line: str) -> bool:
    """Whether a line of a release's top is a heading (``INTRODUCTION``, ``A Note for New Players``)."""
    return 0 < len(line) <= 40 and not ends_sentence(line)


def _rules(
    result: ParseResult, lines: list[str], start: int, end: int, numbering: Numbering, footers: set[int]
) -> None:
    """Each numbered line starts an entry; unnumbered lines are paragraphs of the entry before
    (so is a chapter or section number not after the one before: a numbered list in a rule, and a
    number printed without its period where the sequence does not expect it)."""
    current: Entry | None = None
    path = result.document.path
    last: dict[str, int] = {}
    ordinals: dict[str, int] = {}
    seen: dict[str, int] = {}
    raw: dict[int, list[str]] = {}
    for index in range(start, end):
        text = lines[index].strip()
        if not text or index in footers:
            continue
        head = numbering.numbered(text)
        if head and not head.dotted and not numbering.expected(head.number, ordinals, set(seen)):
            head = None  # a number cited at the start of a wrapped line, not a rule
        if head and head.kind in _TOP[numbering.name]:  # "1. ..." in a rule's list is not a chapter
            before = last.get(head.kind, 0)
            if int(head.number) <= before or (numbering.wrapped and not _heading(head.text, head.number, before)):
                head = None
            else:
                last[head.kind] = int(head.number)
        if head and head.number in seen and current is not None:
            result.warnings.append(
                f"{path}:{index + 1}: rule {head.number} is numbered twice (also line {seen[head.number]}); "
                f"read as text of {current.headword}"
            )
            head = None
        if head:
            current = Entry(head.number, head.kind, head.text, [index + 1], number=head.number)
            result.entries.append(current)
            raw[id(current)] = [head.text] if head.text else []
            parent, ordinal = numbering.place(head.number)
            ordinals[parent] = ordinal
            seen[head.number] = index + 1
        elif current is None:
            result.unparsed.append(index + 1)
            result.warnings.append(f"{path}:{index + 1}: text before the first rule; not read as a rule")
        else:
            raw[id(current)].append(text)
            current.lines.append(index + 1)
    rules = [e for e in result.entries if e.kind in RULE_KINDS]
    for entry in rules:
        parts = raw.get(id(entry), [])
        entry.text = paragraphs(parts) if numbering.wrapped else "\n\n".join(parts)
    _titles(result.entries)
    for entry in rules:
        entry.references = [n for n in cited_rules(entry.text, numbering) if n != entry.headword]
    result.warnings += sequence(numbering, [(e.headword, e.span.start) for e in rules], path)


def _heading(text: str, number: str, before: int) -> bool:
    """Whether a dotted chapter number reads as a chapter: the next one, or titled in capitals
    (``9. MULTIPLAYER``); a list inside a rule (``5. Choose one``) skips ahead in lower case."""
    return int(number) == before + 1 or not any(c.islower() for c in text)


_TOP = {"magic": ("chapter", "section"), "dotted": ("chapter",)}
"""The levels whose numbers are whole numbers that only grow (a list inside a rule restarts them)."""


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


def _terms(result: ParseResult, lines: list[str], blocks: list[list[int]], numbering: Numbering) -> None:
    """Glossary terms of a wrapped layout (`rulings.kinds.comprehensive_rules.layout.glossary_blocks`)."""
    for block in blocks:
        if len(block) == 1:
            result.unparsed.append(block[0] + 1)
            result.warnings.append(f"{result.document.path}:{block[0] + 1}: Glossary term with no definition")
            continue
        text = paragraphs([lines[n] for n in block[1:]])
        only = _SEE_TERM.match(text)
        kind = "glossary reference" if only else "glossary entry"
        references = [only["term"]] if only else cited_rules(text, numbering)
        entry = Entry(lines[block[0]].strip(), kind, text, [n + 1 for n in block], references=references)
        result.entries.append(entry)


def _tails(result: ParseResult, lines: list[str], start: int, footers: set[int]) -> None:
    """What follows the Glossary: Credits are chrome; an update summary (``Update Summary``,
    ``Previous Update Summary``) is an entry of the document, its lines as printed."""
    heads = [i for i in range(start, len(lines)) if lines[i].strip().casefold() in _TAILS] + [len(lines)]
    for head, end in itertools.pairwise(heads):
        name = lines[head].strip()
        kept = [n for n in range(head + 1, end) if lines[n].strip() and n not in footers]
        result.chrome.append(head + 1)
        if name.casefold() == "credits" or not kept:
            result.chrome += [n + 1 for n in kept]
            continue
        text = "\n\n".join(lines[n].strip() for n in kept)
        result.entries.append(Entry(name.title(), "update summary", text, [n + 1 for n in kept]))


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
