"""The kind ``cited-rulings``: rulings lists whose every ruling ends with its own dated citation.

A topic line ends with ``:`` (``Aching Lantern:``); each ruling under it, on one line or wrapped
over several, ends with a citation in brackets: the ruler's initials and the date
(``[LSJ 19980109]``), or the date alone (``[20070808 ]``). Each ruling is a ``ruling`` entry of
its topic dated by its citation, the ruler kept (``ruled by LSJ``) as the version's note. The
rulings of a topic add up: each version holds the topic's rulings up to its date. Lines before
the first topic are the introduction; text under a topic that no citation closes is reported
unparsed; a citation whose date is no date (``[LSJ 19981345]``) is kept as text, warned.
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.entries.topics import join_paragraphs
from rulings.kinds import DATED, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

_CITED = re.compile(r"^(?P<text>.*?)\s*\[(?:(?P<ruler>[A-Z][A-Za-z]{1,5})\s+)?(?P<date>\d{8})\s*\]\s*$")
_TOPIC = re.compile(r"^(?P<topic>[^\[\]]{1,80}?):$")


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a list of cited rulings into one dated ruling entry per citation."""
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    before: list[int] = []
    topic: tuple[int, str] | None = None  # the topic line, until its first ruling holds it
    heading = ""
    pending: list[tuple[int, str]] = []
    for number, text in numbered:
        cited, named = _CITED.match(text), _TOPIC.match(text)
        day = _day(cited["date"]) if cited else None
        if cited and not day:
            result.warnings.append(f"{document.path}:{number}: {cited['date']} is no date; kept as text")
        if named and not cited:
            _unclosed(result, heading, topic, pending)
            topic, heading, pending = (number, text), named["topic"].strip(), []
        elif not heading:
            before.append(number)
        elif cited and day:
            pending.append((number, cited["text"]))
            lines = ([topic[0]] if topic else []) + [n for n, _ in pending]
            entry = Entry(heading, "ruling", join_paragraphs([" ".join(t for _, t in pending if t)]), lines)
            entry.date = day
            ruler = cited["ruler"] or ""
            entry.fields = {"ruler": ruler, "note": f"ruled by {ruler}" if ruler else ""}
            result.entries.append(entry)
            topic, pending = None, []
        else:
            pending.append((number, text))
    _unclosed(result, heading, topic, pending)
    if before:
        texts = dict(numbered)
        introduction = join_paragraphs([texts[n] for n in before])
        result.entries.insert(0, Entry(document.title, "introduction", introduction, before))
    return result


def _unclosed(result: ParseResult, heading: str, topic: tuple[int, str] | None, pending: list[tuple[int, str]]) -> None:
    """Text under a topic that no citation closes (and a topic line with no ruling): unparsed, warned."""
    lines = ([topic[0]] if topic else []) + [n for n, _ in pending]
    if lines:
        result.unparsed += lines
        result.warnings.append(f"{result.document.path}:{lines[0]}: {heading}: no ruling with a dated citation")


def _day(text: str) -> dt.date | None:
    try:
        return dt.date(int(text[:4]), int(text[4:6]), int(text[6:]))
    except ValueError:
        return None


def shaped(entry: Entry) -> bool:
    """A ruling with its citation's date and text, under a topic that is a term."""
    return entry.kind == "ruling" and entry.date is not None and bool(entry.text) and term(entry.headword, 10)


KIND = register(
    Kind(
        name="cited-rulings",
        parse=parse,
        versions=Versions(DATED, series="cited-rulings", topics=("ruling",), accumulates=True, note_field="note"),
        rank=4,
        called="the rulings",
        shaped=shaped,
        starts=r"\[(?:[A-Z][A-Za-z]{1,5}\s+)?\d{8}\s*\]\s*$",
        entries="cited rulings",
    )
)
