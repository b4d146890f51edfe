"""Glossaries: alphabetical ``headword - text`` entries with continuation paragraphs.

Lines before the first entry (title, version, introduction) form an introduction entry.
Bullets and paragraphs after an entry belong to it until the next entry starts (see
`rulings.topics.is_topic_start`). "See X" sentences become references; ``Headword. See
X.`` is an entry that only refers. ``Erratum: Headword - text`` or ``Headword - Erratum:
text`` gives a card's corrected text (the quoted part, if any, in the field ``erratum``).
A **Temporary
Rulings** block at the top (from its heading to ``END OF TEMPORARY RULINGS`` or the next
ALL-CAPS heading) holds ``temporary ruling`` entries, in force with the authority ``temporary`` until a later Glossary.
"""

from __future__ import annotations

import re

from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText
from rulings.topics import is_topic_start, join_paragraphs, see_only, split_topic, take_references, unglue_lines

_ERRATUM = re.compile(r"^Errat(?:um|a):\s*", re.IGNORECASE)
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]{3,})[\"\u201d]")


def topic_entries(numbered: list[tuple[int, str]], kind: str, titles: frozenset[str]) -> tuple[list[Entry], list[int]]:
    """Entries of ``kind`` from (line, text) pairs; lines before any entry are returned apart."""
    entries: list[Entry] = []
    paragraphs: list[list[str]] = []
    before: list[int] = []
    errata: set[int] = set()
    for number, text in numbered:
        marked = text.lstrip().startswith("*")
        body = text.lstrip().lstrip("*").strip() if marked else text
        erratum = _ERRATUM.match(body)
        body = body[erratum.end() :] if erratum else body
        previous = (entries[-1].headword, paragraphs[-1][-1]) if entries else None
        dashed = split_topic(body, titles)
        parts = dashed or see_only(body)
        candidate = body if dashed or not parts else f"{parts[0]} - {parts[1]}"
        if parts and (marked or erratum or is_topic_start(candidate, previous, titles)):
            entries.append(Entry(parts[0], kind, "", [number], marked=marked))
            paragraphs.append([parts[1]])
            if erratum:
                errata.add(number)
        elif entries:
            entries[-1].lines.append(number)
            paragraphs[-1].append(text)
        else:
            before.append(number)
    for entry, texts in zip(entries, paragraphs, strict=True):
        entry.text, entry.references = take_references(join_paragraphs(texts))
        corrected = _ERRATUM.match(entry.text)
        if corrected or any(n in errata for n in entry.lines[:1]):
            rest = entry.text[corrected.end() :] if corrected else entry.text
            quoted = _QUOTED.search(rest)
            entry.fields["erratum"] = quoted.group(1) if quoted else rest
    return entries, before


_TEMPORARY = re.compile(r"^TEMPORARY RULINGS:?$", re.IGNORECASE)
_TEMPORARY_END = re.compile(r"^END OF (?:THE )?TEMPORARY RULINGS\.?$", re.IGNORECASE)
_CAPS_HEADING = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")


def _temporary_block(
    pieces: list[tuple[int, str]], titles: frozenset[str]
) -> tuple[list[tuple[int, str]], list[Entry]]:
    """The pieces outside a Temporary Rulings block, and the block's heading and entries."""
    start = next((k for k, (_, t) in enumerate(pieces) if _TEMPORARY.match(t.strip())), None)
    if start is None:
        return pieces, []
    end = start + 1
    while end < len(pieces) and not _TEMPORARY_END.match(pieces[end][1].strip()):
        if _CAPS_HEADING.match(pieces[end][1].strip()) and not pieces[end][1].lstrip().startswith("*"):
            break
        end += 1
    closing = end < len(pieces) and bool(_TEMPORARY_END.match(pieces[end][1].strip()))
    rulings, before = topic_entries(pieces[start + 1 : end], "temporary ruling", titles)
    for ruling in rulings:
        ruling.authority = "temporary"
    lines = [pieces[start][0], *before] + ([pieces[end][0]] if closing else [])
    texts = dict(pieces[start + 1 : end])
    heading = Entry(pieces[start][1].strip().rstrip(":"), "section", join_paragraphs([texts[n] for n in before]), lines)
    rest = pieces[:start] + pieces[end + (1 if closing else 0) :]
    return rest, [heading, *rulings]


def parse_glossary(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Glossary into glossary entries."""
    numbered = [(i + 1, t) for i, t in enumerate(source.lines) if t.strip()]
    pieces, splits = unglue_lines(numbered, titles)
    pieces, temporary = _temporary_block(pieces, titles)
    entries, before = topic_entries(pieces, "glossary entry", titles)
    entries[:0] = temporary
    if before:
        text = join_paragraphs([source.lines[n - 1] for n in before])
        entries.insert(0, Entry(document.title, "introduction", text, before))
    result = ParseResult(
        document=document,
        entries=entries,
        line_count=len(source.lines),
        nonblank=[n for n, _ in numbered],
    )
    glued(result, splits)
    return result


def glued(result: ParseResult, splits: list[tuple[int, str]]) -> None:
    """Record the lines split into glued entries, each with a warning."""
    recorded = set(result.split)
    for number, headword in splits:
        if number not in recorded:
            recorded.add(number)
            result.split.append(number)
        result.warnings.append(f"{result.document.path}:{number}: entries glued on one line; {headword!r} split off")
