"""Current Rulings, full versions and updates, including reposts from message boards.

Layout: optional forum chrome and a poster's note; the title block and introduction
(date, previous Current Rulings date, the complete set of documents); the significant
changes list (``* topic: summary``); then ``RULINGS``: ``* topic - text`` entries, ``*``
marking new or changed ones. Each change summary is tied to the ruling it summarises.
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.amendments import effective_release, parse_amendment
from rulings.chrome import is_chrome, post_title
from rulings.dates import US_DATE, parse_us_date
from rulings.glossary import glued, topic_entries
from rulings.model import Document, Entry, ParseError, ParseResult
from rulings.normalize import clean_line, headword_key
from rulings.source import SourceText
from rulings.topics import is_colon_topic, join_paragraphs, unglue_lines

_TITLE = re.compile(r"^STAR TREK CUSTOMIZABLE CARD GAME$", re.IGNORECASE)
_SUMMARIES = re.compile(r"^SIGNIFICANT RULINGS CHANGES", re.IGNORECASE)
_RULINGS = re.compile(r"^RULINGS$")
_PREVIOUS = re.compile(rf"(?:last|previous) Current Rulings[^()]*\(({US_DATE.pattern})\)", re.I)
_COMPLETE = re.compile(r"complete set of .* rules", re.IGNORECASE)


def _find(lines: list[str], pattern: re.Pattern[str], start: int = 0) -> int | None:
    return next((i for i in range(start, len(lines)) if pattern.match(lines[i].strip())), None)


def parse_current(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings document (full or update)."""
    lines = source.lines
    rulings_at = _find(lines, _RULINGS)
    if rulings_at is None:
        raise ParseError(document.path, 1, "no RULINGS heading: is this a Current Rulings document?")
    title_at = _find(lines, _TITLE)
    if title_at is None or title_at > rulings_at:
        title_at = 0
    result = ParseResult(document, [], len(lines), [i + 1 for i, t in enumerate(lines) if t.strip()])
    _front_matter(result, lines[:title_at])
    summaries_at = _find(lines, _SUMMARIES, title_at)
    intro_end = summaries_at if summaries_at is not None and summaries_at < rulings_at else rulings_at
    _introduction(result, lines, title_at, intro_end)
    summaries: list[Entry] = []
    if intro_end != rulings_at:
        summaries = _summaries(result, lines, intro_end, rulings_at)
    body = [(i + 1, lines[i]) for i in range(rulings_at + 1, len(lines)) if lines[i].strip()]
    end = next((k for k, (_, t) in enumerate(body) if is_chrome(t)), len(body))
    result.chrome += [n for n, _ in body[end:] if is_chrome(lines[n - 1])]
    result.unparsed += [n for n, _ in body[end:] if not is_chrome(lines[n - 1])]
    pieces, splits = unglue_lines(body[:end], titles)
    glued(result, splits)
    rulings, before = topic_entries(pieces, "ruling", titles)
    result.entries.append(Entry("RULINGS", "heading", "", [rulings_at + 1]))
    result.unparsed += before
    result.warnings += [f"{document.path}:{n}: text before the first ruling" for n in before]
    result.warnings += [
        f"{document.path}:{n}: unrecognised text after the rulings"
        for n in result.unparsed
        if n > rulings_at + 1 and n not in before
    ]
    _tie(result, summaries, rulings)
    _amendments(result, rulings)
    result.entries += rulings
    return result


def _amendments(result: ParseResult, rulings: list[Entry]) -> None:
    """Read each ruling's instruction; warn about instructions the grammar cannot read."""
    for ruling in rulings:
        ruling.amendment, unreadable = parse_amendment(ruling.text)
        ruling.effective_release = effective_release(ruling.text)
        if unreadable:
            first = ruling.text.split("\n\n")[0][:80]
            result.warnings.append(
                f"{result.document.path}:{ruling.lines[0]}: {ruling.headword}: instruction not understood, "
                f"kept as ruling text: {first!r}"
            )


def _front_matter(result: ParseResult, lines: list[str]) -> None:
    """Forum chrome and the poster's note before the document itself."""
    note: list[int] = []
    author = ""
    for index, text in enumerate(lines):
        if not text.strip():
            continue
        if is_chrome(text):
            result.chrome.append(index + 1)
            post = post_title(text)
            author = f" ({post[1]}, {post[2]})" if post else author
        else:
            note.append(index + 1)
    if note:
        text = join_paragraphs([lines[n - 1] for n in note])
        result.entries.append(Entry(f"Poster's note{author}", "note", text, note))


def _introduction(result: ParseResult, lines: list[str], start: int, end: int) -> None:
    numbers = [i + 1 for i in range(start, end) if lines[i].strip()]
    if not numbers:
        return
    document = result.document
    paragraphs = [lines[n - 1] for n in numbers]
    document.declared_date = next((d for p in paragraphs[:4] if (d := _date_line(p))), None)
    joined = " ".join(clean_line(p) for p in paragraphs)
    previous = _PREVIOUS.search(joined)
    document.previous_date = parse_us_date(previous.group(1)) if previous else None
    document.complete_set = _complete_set(lines, start, end)
    result.entries.append(Entry("Introduction", "introduction", join_paragraphs(paragraphs), numbers))
    if document.date and document.declared_date and document.date != document.declared_date:
        result.warnings.append(
            f"{document.path}:{numbers[0]}: the text is dated {document.declared_date}, "
            f"the manifest says {document.date}"
        )


def _date_line(text: str) -> dt.date | None:
    stripped = text.strip()
    return parse_us_date(stripped) if US_DATE.fullmatch(stripped) else None


def _complete_set(lines: list[str], start: int, end: int) -> list[str]:
    at = next((i for i in range(start, end) if _COMPLETE.search(lines[i])), None)
    if at is None:
        return []
    found: list[str] = []
    for text in lines[at + 1 : end]:
        if not text.strip():
            if found:
                break
            continue
        found.append(clean_line(text))
    return found


def _summaries(result: ParseResult, lines: list[str], start: int, end: int) -> list[Entry]:
    heading = clean_line(lines[start])
    numbered = [(i + 1, lines[i]) for i in range(start + 1, end) if lines[i].strip()]
    body, splits = unglue_lines(numbered, colon=True)
    glued(result, splits)
    entries: list[Entry] = []
    intro: list[int] = [start + 1]
    for number, text in body:
        if text.lstrip().startswith("*"):
            entries.append(Entry("", "change summary", text.lstrip()[1:].strip(), [number], marked=True))
        elif is_colon_topic(text):
            entries.append(Entry("", "change summary", text.strip(), [number]))
        elif entries:
            entries[-1].lines.append(number)
            entries[-1].text = f"{entries[-1].text} {clean_line(text)}"
        else:
            intro.append(number)
    text = join_paragraphs([" ".join(clean_line(lines[n - 1]) for n in intro[1:])])
    result.entries.append(Entry(heading, "section", text, intro))
    result.entries += entries
    return entries


def _tie(result: ParseResult, summaries: list[Entry], rulings: list[Entry]) -> None:
    """Give each change summary its headword and tie it to its ruling."""
    by_key = {headword_key(r.headword): r for r in rulings}
    for summary in summaries:
        line = clean_line(summary.text)
        colons = [i for i, c in enumerate(line) if c == ":"]
        tied = [i for i in colons if headword_key(line[:i]) in by_key]
        cut = max(tied) if tied else (colons[0] if colons else len(line))
        summary.headword, summary.text = line[:cut].strip(), line[cut + 1 :].strip()
        ruling = by_key.get(headword_key(summary.headword))
        if ruling is None:
            result.warnings.append(
                f"{result.document.path}:{summary.lines[0]}: summary of {summary.headword!r} "
                "matches no ruling in this document"
            )
            continue
        summary.summary_of = ruling.headword
        ruling.summary = summary.text
