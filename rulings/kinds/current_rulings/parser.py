"""Current Rulings, full versions and updates, including reposts from message boards.

Layout: optional forum chrome and a poster's note; the title block and introduction
(date, previous Current Rulings date, the complete set of documents); the significant
changes list (``* topic: summary`` or ``* topic - summary``); then ``RULINGS``: ``* topic -
text`` entries, ``*`` marking new or changed ones. Each change summary is tied to the
ruling it summarises. A damaged document is read as far as it can be: headings glued to
their text are cut apart (`rulings.kinds.current_rulings.layout`), a document cut off before its rulings
keeps its introduction and summaries, and one with no ``RULINGS`` heading has its rulings
start at the first ``* topic - text`` (or ``topic - text``); each such doubt is warned. Only a file with none of
a Current Rulings document's parts is refused. Rulings with no dash, run together (the 2E PDF's text), are read
by `.dashless`, a first line from a page printed out of order included. Chrome is only what stands before
the first ruling or after the last. A page listing its own letter ranges is a part of its edition.
"""

from __future__ import annotations

import re

from rulings.amendments import effective_release, parse_amendment
from rulings.dates import US_DATE, parse_us_date
from rulings.entries.partial import mark_cut
from rulings.entries.topics import is_colon_topic, join_paragraphs, split_topic, take_references, unglue_lines
from rulings.kinds.current_rulings.dashless import split_dashless
from rulings.kinds.current_rulings.layout import (
    RULINGS,
    SUMMARIES,
    TITLE,
    complete_set,
    declared_date,
    is_heading,
    join_bare_heads,
    segment,
)
from rulings.kinds.glossary.parser import glued, topic_entries
from rulings.lines.chrome import groups_header, is_chrome, is_copyright, letter_ranges, post_title
from rulings.lines.reflow import paragraphs, wrapped_runs
from rulings.model import Document, Entry, ParseError, ParseResult
from rulings.normalize import clean_line, headword_key
from rulings.source import SourceText

_PREVIOUS = re.compile(rf"(?:last|previous) Current Rulings[^()]*\(({US_DATE.pattern})\)", re.I)
_COMPLETE = re.compile(r"complete set of .* rules", re.IGNORECASE)
_DASH = re.compile(r" [-\u2013\u2014] ")
_RANGE = re.compile(r"\bRULINGS ([A-Z])\s?[-\u2013]\s?([A-Z])\b")
_INTRODUCES = re.compile(r"^Current Rulings are (?:periodic|an official|the official)", re.IGNORECASE)
"""How a Current Rulings document's introduction opens: a copy cut off before its rulings still is one."""

Pieces = list[tuple[int, str]]


def _find(pieces: Pieces, test: re.Pattern[str], start: int = 0) -> int | None:
    return next((k for k in range(start, len(pieces)) if is_heading(pieces[k][1], test)), None)


def _topic(text: str, titles: frozenset[str]) -> tuple[str, str] | None:
    return split_topic(text.lstrip("*").strip(), titles)


def _first_ruling(pieces: Pieces, start: int, titles: frozenset[str], summaries: bool, marked: bool) -> int | None:
    """Where rulings start in a document with no RULINGS heading: the first ``* topic - text`` (with
    ``marked``, the only shape taken), else the first ``topic - text``. After change summaries, only
    when they are written ``topic: text``: the first ``topic - text`` then starts the rulings (summaries
    written with dashes cannot be told from rulings, so none is guessed)."""
    if summaries:
        first = next((k for k in range(start, len(pieces)) if is_colon_topic(pieces[k][1].lstrip("* "))), None)
        if first is None or _topic(pieces[first][1], titles):
            return None
        later = range(first + 1, len(pieces))
        return next((k for k in later if _topic(pieces[k][1], titles) and not is_colon_topic(pieces[k][1])), None)
    starred = (k for k in range(start, len(pieces)) if pieces[k][1].startswith("*"))
    found = next((k for k in starred if _topic(pieces[k][1], titles)), None)
    if found is not None or marked:
        return found
    return next((k for k in range(start, len(pieces)) if _topic(pieces[k][1], titles)), None)


def parse_current(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Current Rulings document (full or update)."""
    numbered = [(i + 1, t) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    if not numbered:
        return result  # every line was noise or unparsed (two columns read across), each reported by `clean`
    pieces, cuts = segment(numbered)
    for number, heading in cuts:
        _split(result, number)
        result.warnings.append(f"{document.path}:{number}: the heading {heading!r} is glued to other text; cut apart")
    early = _out_of_order(result, pieces, titles)
    pieces = pieces[len(early) :]
    rulings_at = _find(pieces, RULINGS)
    summaries_at = _find(pieces, SUMMARIES)
    if summaries_at is not None and rulings_at is not None and summaries_at > rulings_at:
        summaries_at = None
    title_at = next((k for k, (_, t) in enumerate(pieces) if TITLE.match(clean_line(t))), None)
    parts = [k for k in (summaries_at, rulings_at) if k is not None]
    if title_at is not None and parts and title_at > min(parts):
        title_at = None
    start = _front_matter(result, pieces, title_at)
    body_at = rulings_at + 1 if rulings_at is not None else None
    if rulings_at is None:
        after = summaries_at + 1 if summaries_at is not None else start
        body_at = _first_ruling(pieces, after, titles, summaries_at is not None, title_at is None)
        introduced = any(_INTRODUCES.search(t) for _, t in pieces[:3])
        if title_at is None and summaries_at is None and body_at is None and not introduced:
            raise ParseError(document.path, 1, "no RULINGS heading: is this a Current Rulings document?")
        where = pieces[body_at][0] if body_at is not None else (pieces[-1][0] if pieces else 1)
        found = "the rulings are taken to start here" if body_at is not None else "the document ends before its rulings"
        result.warnings.append(f"{document.path}:{where}: no RULINGS heading; {found}")
    ends = [k for k in (summaries_at, rulings_at, body_at) if k is not None]
    intro_end = min(ends) if ends else len(pieces)
    _introduction(result, pieces[start:intro_end])
    summaries: list[Entry] = []
    if summaries_at is not None:
        end = rulings_at if rulings_at is not None else (body_at if body_at is not None else len(pieces))
        summaries = _summaries(result, pieces[summaries_at], pieces[summaries_at + 1 : end], titles)
    if rulings_at is not None:
        result.entries.append(Entry(clean_line(pieces[rulings_at][1]), "heading", "", [pieces[rulings_at][0]]))
    rulings = _rulings(result, pieces[body_at:] if body_at is not None else [], titles)
    rulings += dashless_rulings(result, early, titles, at_start=False)
    _tie(result, summaries, rulings)
    _amendments(result, rulings)
    result.entries += rulings
    for entry in result.entries:
        entry.lines = sorted(set(entry.lines))
    _own_part(result, numbered, rulings)
    mark_cut(result)
    return result


def _own_part(result: ParseResult, numbered: Pieces, rulings: list[Entry]) -> None:
    """A page that lists its own letter ranges (``RULINGS A-G | RULINGS H-Z``) is a part of its edition: the
    range its first ruling falls in (warned), so that it rescinds nothing of the other parts."""
    document = result.document
    ranges = next((found for _, t in numbered if len(found := _RANGE.findall(t)) >= 2), [])
    if document.part or not ranges or not rulings:
        return
    first = next((c.upper() for c in rulings[0].headword if c.isalnum()), "A")
    first = "A" if first.isdigit() else first
    part = next((f"{a}-{b}" for a, b in ranges if a <= first <= b), "")
    if part:
        document.part = part
        result.warnings.append(
            f"{document.path}:{rulings[0].lines[0]}: the page lists its own letter ranges "
            f"({', '.join(f'{a}-{b}' for a, b in ranges)}); read as the part {part}, which rescinds no other part"
        )


def reflowed(pieces: Pieces) -> list[str]:
    """The paragraphs of ``pieces``, lines wrapped as in a PDF joined (`rulings.lines.reflow`)."""
    return paragraphs(pieces, wrapped_runs(pieces), {n: len(t.strip()) for n, t in pieces})


def _text(pieces: Pieces, number: int) -> str:
    return next((t.strip() for n, t in pieces if n == number), "")


def _reflowed_around(pieces: Pieces, apart: set[int]) -> list[str]:
    """`reflowed`, the lines of ``apart`` (a list of documents) kept a paragraph each."""
    out: list[str] = []
    run: Pieces = []
    for number, text in [*pieces, (-1, "")]:
        if number in apart or number == -1:
            out += reflowed(run)
            run = []
            if number != -1:
                out.append(text)
        else:
            run.append((number, text))
    return out


def _split(result: ParseResult, number: int) -> None:
    if number not in result.split:
        result.split.append(number)


def _rulings(result: ParseResult, body: Pieces, titles: frozenset[str]) -> list[Entry]:
    """The rulings of the body; chrome after the last ruling is apart, text after that unparsed.

    Chrome is only what stands where chrome stands: before the first ruling, or after the last one.
    Inside the rulings a line that looks like navigation (``Federation | Bajoran | Non-Aligned``, ``UP``)
    or an option ``(c) by ...`` is ruling text; only a copyright notice or a post's title line there
    is chrome, and each is warned."""
    path = result.document.path
    starts = [k for k, (_, t) in enumerate(body) if _topic(t, titles)]
    first, last = (starts[0], starts[-1]) if starts else (len(body), -1)
    end = next((k for k, (_, t) in enumerate(body) if k > last and is_chrome(t)), len(body))
    for number, text in body[end:]:
        (result.chrome if is_chrome(text) else result.unparsed).append(number)
    inside: Pieces = []
    for k, (number, text) in enumerate(body[:end]):
        if k < first and is_chrome(text):
            result.chrome.append(number)
        elif k > first and (is_copyright(text) or post_title(text)):
            result.chrome.append(number)
            result.warnings.append(f"{path}:{number}: {clean_line(text)!r} inside the rulings is taken for chrome")
        else:
            inside.append((number, text))
    headings = [(n, t) for n, t in inside if is_heading(t, RULINGS)]
    result.entries += [Entry(clean_line(t), "heading", "", [n]) for n, t in headings]
    kept = [(n, t) for n, t in inside if not is_heading(t, RULINGS)]
    if kept and not starts and split_dashless(kept[0][1], titles)[1]:
        return dashless_rulings(result, kept, titles)
    pieces, splits = unglue_lines(join_bare_heads(kept), titles)
    glued(result, splits)
    rulings, before = topic_entries(pieces, "ruling", titles, result)
    result.unparsed += before
    result.warnings += [f"{path}:{n}: text before the first ruling" for n in before]
    result.warnings += [f"{path}:{n}: unrecognised text after the rulings" for n in sorted(set(result.unparsed))]
    return rulings


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


def _front_matter(result: ParseResult, pieces: Pieces, title_at: int | None) -> int:
    """Forum chrome and the poster's note before the document itself; returns where the document starts."""
    header, author = groups_header(pieces[: title_at if title_at is not None else len(pieces)])
    author = f" ({author})" if author else ""
    end = title_at
    if end is None:
        end = next((k for k, (n, t) in enumerate(pieces) if n not in header and not is_chrome(t)), len(pieces))
    note: list[int] = []
    for number, text in pieces[:end]:
        if number in header:
            result.chrome.append(number)
        elif is_chrome(text):
            result.chrome.append(number)
            post = post_title(text)
            author = f" ({post[1]}, {post[2]})" if post else author
        else:
            note.append(number)
    if note:
        texts = dict(pieces[:end])
        text = join_paragraphs(reflowed([(n, texts[n]) for n in note]))
        result.entries.append(Entry(f"Poster's note{author}", "note", text, note))
    return end


def _introduction(result: ParseResult, pieces: Pieces) -> None:
    index = letter_ranges(pieces)
    kept = [(n, t) for n, t in pieces if not is_chrome(t) and n not in index]
    result.chrome += [n for n, t in pieces if is_chrome(t) or n in index]
    if not kept:
        return
    document = result.document
    listed = complete_set(kept, _COMPLETE)
    items = {n for n, _ in listed[1:]} | (
        {listed[0][0]} if listed and listed[0][1] == _text(kept, listed[0][0]) else set()
    )
    texts = _reflowed_around(kept, items)
    document.declared_date = declared_date([t for _, t in kept[:4]])
    joined = " ".join(clean_line(p) for p in texts)
    previous = _PREVIOUS.search(joined)
    document.previous_date = parse_us_date(previous.group(1)) if previous else None
    document.complete_set = [clean_line(t) for _, t in listed]
    numbers = [n for n, _ in kept]
    result.entries.append(Entry("Introduction", "introduction", join_paragraphs(texts), numbers))
    if document.date and document.declared_date and document.date != document.declared_date:
        result.warnings.append(
            f"{document.path}:{numbers[0]}: the text is dated {document.declared_date}, "
            f"the manifest says {document.date}"
        )


def _summaries(result: ParseResult, heading: tuple[int, str], pieces: Pieces, titles: frozenset[str]) -> list[Entry]:
    """The change summaries, written ``* topic: text`` or ``* topic - text``, glued or not."""
    dashed, splits = unglue_lines(pieces, titles)
    body, more = unglue_lines(dashed, colon=True)
    glued(result, splits + more)
    entries: list[Entry] = []
    intro: list[tuple[int, str]] = []
    for number, text in body:
        if text.lstrip().startswith("*"):
            entries.append(Entry("", "change summary", text.lstrip()[1:].strip(), [number], marked=True))
        elif is_colon_topic(text) or split_topic(text, titles):
            entries.append(Entry("", "change summary", text.strip(), [number]))
        elif entries:
            entries[-1].lines.append(number)
            entries[-1].text = f"{entries[-1].text} {clean_line(text)}"
        else:
            intro.append((number, text))
    text = join_paragraphs([" ".join(clean_line(t) for _, t in intro)])
    lines = [heading[0], *(n for n, _ in intro)]
    result.entries.append(Entry(clean_line(heading[1]), "section", text, lines))
    result.entries += entries
    return entries


def _tie(result: ParseResult, summaries: list[Entry], rulings: list[Entry]) -> None:
    """Give each change summary its headword and tie it to its ruling.

    The headword ends at a colon or a dash: the last one whose headword names a ruling of
    the document, else the first one."""
    by_key = {headword_key(r.headword): r for r in rulings}
    for summary in summaries:
        line = clean_line(summary.text)
        marks = [(i, i + 1) for i, c in enumerate(line) if c == ":"]
        marks += [(m.start(), m.end()) for m in _DASH.finditer(line)]
        tied = [m for m in marks if headword_key(line[: m[0]]) in by_key]
        cut = max(tied) if tied else (min(marks) if marks else (len(line), len(line)))
        summary.headword, summary.text = line[: cut[0]].strip(), line[cut[1] :].strip()
        ruling = by_key.get(headword_key(summary.headword))
        if ruling is None:
            result.warnings.append(
                f"{result.document.path}:{summary.lines[0]}: summary of {summary.headword!r} "
                "matches no ruling in this document"
            )
            continue
        summary.summary_of = ruling.headword
        ruling.summary = summary.text


def _out_of_order(result: ParseResult, pieces: Pieces, titles: frozenset[str]) -> Pieces:
    """Rulings before the introduction: a first line that starts mid-sentence and holds dashless topics is
    the end of a page printed out of order (its first words end a ruling not in this file, warned)."""
    if not pieces or not pieces[0][1][:1].islower():
        return []
    lead, topics = split_dashless(pieces[0][1], titles, at_start=False)
    if len(topics) < 2:
        return []
    result.warnings.append(
        f"{result.document.path}:{pieces[0][0]}: the text starts mid-sentence with rulings before the "
        f"introduction (a page printed out of order); {lead[:40]!r}... ends a ruling not in this file"
    )
    return pieces[:1]


def dashless_rulings(result: ParseResult, pieces: Pieces, titles: frozenset[str], at_start: bool = True) -> list[Entry]:
    """Rulings written with no dash, several to a line (`.dashless`); a line's text before its first
    topic continues the ruling before it."""
    rulings: list[Entry] = []
    for number, text in pieces:
        lead, topics = split_dashless(text, titles, at_start=at_start)
        if lead and rulings:
            rulings[-1].text = f"{rulings[-1].text} {lead}".strip()
            rulings[-1].lines.append(number)
        for marked, topic, body in topics:
            rulings.append(Entry(topic, "ruling", body, [number], marked=marked))
        if len(topics) + bool(lead and rulings) > 1:
            _split(result, number)
    for ruling in rulings:
        ruling.text, ruling.references = take_references(ruling.text)
    return rulings
