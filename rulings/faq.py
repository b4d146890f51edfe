"""Q&A documents (kind ``faq``) and dated lists of rulings (kind ``dated-rulings``).

A FAQ is ``Q:`` / ``A:`` pairs, a ``+`` before the ``Q:`` marking a new one; each pair is a
``question`` entry headed by its question, with the answer as its text and the authority
``informal``. Lines before the first question are the introduction; a line that is no part of
a pair is reported as unparsed.

A dated list gives rulings newest first: ``Headword YYYY-MM-DD``, then the ruling's text
and ``Example:`` paragraphs. Each is a ``ruling`` entry carrying its own date.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re

from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText
from rulings.topics import join_paragraphs, take_references

_QUESTION = re.compile(r"^(?P<new>\+)?\s*Q[:.]\s*(?P<text>\S.*)$")
_ANSWER = re.compile(r"^A[:.]\s*(?P<text>\S.*)$")
_DATED = re.compile(r"^(?P<head>\S.{0,69}?)\s+(?P<date>\d{4}-\d{2}-\d{2})$")


def _start(document: Document, source: SourceText) -> tuple[ParseResult, list[tuple[int, str]]]:
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    return ParseResult(document, [], len(source.lines), [n for n, _ in numbered]), numbered


def _introduction(result: ParseResult, numbered: list[tuple[int, str]], before: list[int]) -> None:
    if before:
        texts = dict(numbered)
        result.entries.insert(
            0, Entry(result.document.title, "introduction", join_paragraphs([texts[n] for n in before]), before)
        )


def parse_faq(document: Document, source: SourceText) -> ParseResult:
    """Parse a Q&A document into question entries."""
    result, numbered = _start(document, source)
    before: list[int] = []
    current: Entry | None = None
    answer: list[str] = []
    questions: list[tuple[Entry, list[str]]] = []
    for number, text in numbered:
        question, reply = _QUESTION.match(text), _ANSWER.match(text)
        if question:
            current, answer = Entry(question["text"], "question", "", [number], marked=bool(question["new"])), []
            current.authority = "informal"
            questions.append((current, answer))
        elif current is None:
            before.append(number)
        elif reply and not answer:
            answer.append(reply["text"])
            current.lines.append(number)
        elif answer:
            answer.append(text)
            current.lines.append(number)
        else:
            current.headword = f"{current.headword} {text}"
            current.lines.append(number)
    for entry, paragraphs in questions:
        if not paragraphs:
            result.unparsed += entry.lines
            result.warnings.append(f"{document.path}:{entry.lines[0]}: question without an answer; not placed")
            continue
        entry.text, entry.references = take_references(join_paragraphs(paragraphs))
        result.entries.append(entry)
    _introduction(result, numbered, before)
    return result


def parse_dated(document: Document, source: SourceText) -> ParseResult:
    """Parse a dated list of rulings (newest first) into rulings each with its own date."""
    result, numbered = _start(document, source)
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
    _introduction(result, numbered, before)
    return result


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None
