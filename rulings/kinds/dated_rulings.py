"""The kind ``dated-rulings``: a dated list of rulings, newest first, each from its own date.

Each ruling is ``Headword YYYY-MM-DD`` then its text and ``Example:`` paragraphs: a ``ruling``
entry carrying its own date, in force from that date (the list's own date does not matter).
Lines before the first ruling are the introduction. A date that is no date (``2001-13-45``)
is kept as text, warned; so are a ruling with no text and a list not newest first.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re

from rulings.entries.topics import join_paragraphs, take_references
from rulings.kinds import DATED, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

_DATED = re.compile(r"^(?P<head>\S.{0,69}?)\s+(?P<date>\d{4}-\d{2}-\d{2})$")


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a dated list of rulings (newest first) into rulings each with its own date."""
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    before: list[int] = []
    paragraphs: list[list[str]] = []
    for number, text in numbered:
        dated = _DATED.match(text)
        day = _day(dated["date"]) if dated else None
        if dated and day:
            entry = Entry(dated["head"].strip(" -\u2013:"), "ruling", "", [number])
            entry.date = day
            result.entries.append(entry)
            paragraphs.append([])
        else:
            if dated:
                result.warnings.append(f"{document.path}:{number}: {dated['date']} is no date; kept as text")
            if result.entries:
                result.entries[-1].lines.append(number)
                paragraphs[-1].append(text)
            else:
                before.append(number)
    for entry, texts in zip(result.entries, paragraphs, strict=True):
        entry.text, entry.references = take_references(join_paragraphs(texts))
        if not entry.text:
            result.warnings.append(f"{document.path}:{entry.lines[0]}: {entry.headword}: dated ruling with no text")
    dates = [e.date for e in result.entries if e.date]
    if any(later > earlier for earlier, later in itertools.pairwise(dates)):
        result.warnings.append(f"{document.path}:1: the rulings are not newest first")
    if before:
        lines = dict(numbered)
        introduction = join_paragraphs([lines[n] for n in before])
        result.entries.insert(0, Entry(document.title, "introduction", introduction, before))
    return result


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def shaped(entry: Entry) -> bool:
    """A ruling with its own date and text, headed by a topic."""
    return entry.kind == "ruling" and entry.date is not None and bool(entry.text) and term(entry.headword)


KIND = register(
    Kind(
        name="dated-rulings",
        parse=parse,
        versions=Versions(DATED, series="current-rulings", topics=("ruling",)),
        rank=4,
        called="the Current Rulings",
        shaped=shaped,
        itself=r"\bofficial rulings\b",
        starts=r"\s\d{4}-\d{2}-\d{2}$",
        entries="dated rulings",
    )
)
