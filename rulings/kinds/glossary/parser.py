"""Glossaries: alphabetical ``headword - text`` entries with continuation paragraphs.

Lines before the first entry (title, version, introduction) form an introduction entry; when
they start mid-sentence (a page that begins inside an entry of an earlier page) they are
reported as unparsed instead. Bullets and paragraphs after an entry belong to it until the
next entry starts: which entry-looking lines start one is decided by `rulings.lines.boundaries`,
and each one that does not is recorded and warned (`ParseResult.not_entry`). Wrapped PDF
lines are joined into paragraphs (`rulings.lines.reflow`); HTML copies' layouts (a headword on its
own line, a table row) are read by `rulings.lines.html_layouts`; entries run together on one long
line are cut apart (`rulings.entries.topics.split_run_on`). "See X" sentences become references;
``Headword. See X.`` is an entry that only refers. ``Erratum: Headword - text`` or
``Headword - Erratum: text`` gives a card's corrected text (the quoted part, if any, in the
field ``erratum``). A **Temporary Rulings** block at the top (from its heading to ``END OF
TEMPORARY RULINGS`` or the next ALL-CAPS heading; with neither, to its first unmarked entry
after marked ones, the alphabet starting again, or the front matter, warned) holds ``temporary
ruling`` entries, in force with the authority ``temporary`` until a later Glossary.

Pages joined with page numbers are read page by page where a number skips pages
(`rulings.lines.pages`): such a page's opening lines end an entry not in the file (unparsed, the gap
named), and its leading entries that are no game term, card title or card's entry are that
entry's ``sub-heading``s (warned). A first line that is the document's title (``Rulebook Glossary
- D``) is its introduction; a copy's note in a headword (``missions (updated by Current
Rulings)``) is the entry's ``note``. Entries cut off where the file or a page ends are partial.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulings.entries.partial import mark_cut
from rulings.entries.topics import join_paragraphs, see_only, split_run_on, split_topic, take_references, unglue_lines
from rulings.lines.boundaries import Candidate, is_front_matter, letters
from rulings.lines.boundaries import starts as boundaries
from rulings.lines.html_layouts import html_starts
from rulings.lines.pages import Gap, PagedText
from rulings.lines.reflow import FULL, ends_sentence, paragraphs, undrop_capital, wrapped_runs
from rulings.model import Document, Entry, ParseResult
from rulings.normalize import fold_quotes, title_key
from rulings.source import SourceText

_ERRATUM = re.compile(r"^Errat(?:um|a):\s*", re.IGNORECASE)
_COPY_NOTE = re.compile(
    r"^(?P<head>.+?)\s*\((?P<note>(?:updated|revised|changed|amended|corrected|added|new)\b[^()]*)\)$", re.IGNORECASE
)
"""A copy's own note kept in a headword: ``missions (updated by Current Rulings)`` is the headword ``missions``."""
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]{3,})[\"\u201d]")


@dataclass(frozen=True)
class _Start:
    """What a line would start: a headword and the first paragraph of its text."""

    headword: str
    text: str
    marked: bool = False
    erratum: bool = False


def _start(body: str, titles: frozenset[str]) -> tuple[str, str] | None:
    dashed = split_topic(body, titles)
    return dashed or see_only(body)


def _starts(numbered: list[tuple[int, str]], titles: frozenset[str]) -> list[_Start | None]:
    """What each piece would start, if it starts an entry (`rulings.lines.boundaries` decides which do)."""
    out: list[_Start | None] = []
    for _number, text in numbered:
        marked = text.lstrip().startswith("*")
        body = text.lstrip().lstrip("*").strip() if marked else text
        erratum = _ERRATUM.match(body)
        body = body[erratum.end() :] if erratum else body
        parts = _start(body, titles)
        out.append(_Start(parts[0], parts[1], marked, bool(erratum)) if parts else None)
    for k, parts in html_starts(numbered, out).items():
        out[k] = _Start(*parts)
        if not parts[1] and k + 1 < len(out):
            out[k + 1] = None  # the text of a headword on its own line
    return out


def _mid_sentence(numbered: list[tuple[int, str]], k: int, widths: dict[int, int]) -> bool:
    """Whether piece ``k`` is a wrapped line whose line before (not a title in capitals) stops, nearly full,
    mid-sentence."""
    number, width = numbered[k][0], widths.get(numbered[k][0], 0)
    if not width or k == 0 or numbered[k - 1][0] != number - 1:
        return False
    before = numbered[k - 1][1].strip()
    heading = before == before.upper()  # a title in capitals is no sentence
    return not heading and not ends_sentence(before) and len(before) >= FULL * width


def topic_entries(
    numbered: list[tuple[int, str]], kind: str, titles: frozenset[str], result: ParseResult | None = None
) -> tuple[list[Entry], list[int]]:
    """Entries of ``kind`` from (line, text) pairs; lines before any entry are returned apart.

    With ``result``, each entry-looking line that does not start an entry is recorded there and
    warned (`ParseResult.not_entry`)."""
    entries, before = read_topics(numbered, kind, titles, result)
    return entries, [n for n, _ in before]


def read_topics(
    numbered: list[tuple[int, str]], kind: str, titles: frozenset[str], result: ParseResult | None = None
) -> tuple[list[Entry], list[tuple[int, str]]]:
    """`topic_entries`, the pieces before any entry returned with their text."""
    starts = _starts(numbered, titles)
    widths = wrapped_runs(numbered)
    candidates: list[Candidate] = []
    for k, start in enumerate(starts):
        if start is None:
            continue
        front = is_front_matter(start.headword) and all(is_front_matter(c.headword) for c in candidates)
        after_colon = k > 0 and numbered[k - 1][1].rstrip().endswith(":")
        forced = start.marked or start.erratum or front
        candidates.append(Candidate(k, start.headword, forced, after_colon, _mid_sentence(numbered, k, widths)))
    held = boundaries(candidates, titles)
    entries: list[Entry] = []
    texts: list[list[tuple[int, str]]] = []
    before: list[tuple[int, str]] = []
    errata: set[int] = set()
    for k, (number, text) in enumerate(numbered):
        start = starts[k]
        if start is not None and k not in held:
            entries.append(Entry(start.headword, kind, "", [number], marked=start.marked))
            texts.append([(number, start.text)])
            if start.erratum:
                errata.add(number)
            continue
        if start is not None and result is not None:
            result.not_entry(number, start.headword, entries[-1].headword if entries else "", held[k])
        if entries:
            entries[-1].lines.append(number)
            texts[-1].append((number, text))
        else:
            before.append((number, text))
    printed = {number: len(text.strip()) for number, text in numbered}
    for entry in entries:
        noted = _COPY_NOTE.match(entry.headword)
        if noted:
            entry.headword, entry.fields["note"] = noted["head"].strip(), noted["note"]
            if result is not None:
                result.warnings.append(
                    f"{result.document.path}:{entry.lines[0]}: the copy's note ({noted['note']}) is kept apart "
                    f"from the headword {entry.headword!r}"
                )
    for entry, lines in zip(entries, texts, strict=True):
        entry.text, entry.references = take_references(join_paragraphs(paragraphs(lines, widths, printed)))
        corrected = _ERRATUM.match(entry.text)
        if corrected or any(n in errata for n in entry.lines[:1]):
            rest = entry.text[corrected.end() :] if corrected else entry.text
            quoted = _QUOTED.search(rest)
            entry.fields["erratum"] = quoted.group(1) if quoted else rest
    return entries, before


_TEMPORARY = re.compile(r"^TEMPORARY RULINGS:?$", re.IGNORECASE)
_TEMPORARY_END = re.compile(r"^END OF (?:THE )?TEMPORARY RULINGS\.?$", re.IGNORECASE)
_CAPS_HEADING = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")


def _temporary_end(pieces: list[tuple[int, str]], start: int, titles: frozenset[str]) -> tuple[int, bool, str]:
    """Where a Temporary Rulings block ends: its end marker (True), an ALL-CAPS heading, or, with
    neither, the first entry that is unmarked after marked ones, starts the alphabet again or is the
    document's front matter (``How to use the Glossary``) (why)."""
    for end in range(start + 1, len(pieces)):
        text = pieces[end][1].strip()
        if _TEMPORARY_END.match(text):
            return end, True, ""
        if _CAPS_HEADING.match(text) and not text.startswith("*"):
            return end, False, ""
    last: tuple[str, ...] = ()
    all_marked: bool | None = None
    for end in range(start + 1, len(pieces)):
        text = pieces[end][1].strip()
        marked = text.startswith("*")
        parts = _start(text.lstrip("*").strip(), titles)
        if parts is None:
            continue
        own = letters(parts[0])
        if is_front_matter(parts[0]):
            return end, False, "the Glossary's own front matter"
        if all_marked and not marked:
            return end, False, "the first unmarked entry after marked ones"
        if last and own and max(own) < min(last):
            return end, False, "where the alphabet starts again"
        last = own or last
        all_marked = marked if all_marked is None else all_marked and marked
    return len(pieces), False, "the end of the document"


def _temporary_block(
    pieces: list[tuple[int, str]], titles: frozenset[str], result: ParseResult
) -> tuple[list[tuple[int, str]], list[Entry]]:
    """The pieces outside a Temporary Rulings block, and the block's heading and entries."""
    start = next((k for k, (_, t) in enumerate(pieces) if _TEMPORARY.match(t.strip())), None)
    if start is None:
        return pieces, []
    end, closing, why = _temporary_end(pieces, start, titles)
    if why:
        where = f"line {pieces[end][0]}" if end < len(pieces) else "its last line"
        result.warnings.append(
            f"{result.document.path}:{pieces[start][0]}: the Temporary Rulings block has no end marker; "
            f"taken to end before {where} ({why})"
        )
    rulings, before = topic_entries(pieces[start + 1 : end], "temporary ruling", titles, result)
    for ruling in rulings:
        ruling.authority = "temporary"
    lines = [pieces[start][0], *before] + ([pieces[end][0]] if closing else [])
    texts = dict(pieces[start + 1 : end])
    heading = Entry(pieces[start][1].strip().rstrip(":"), "section", join_paragraphs([texts[n] for n in before]), lines)
    rest = pieces[:start] + pieces[end + (1 if closing else 0) :]
    return rest, [heading, *rulings]


_CONTINUED = re.compile(r"^[a-z\u2022\u25cf)(,;]")
_FRONT = re.compile(r"\b(?:glossary|rulebook|rules|document|version|edition)\b|\u2122|\(TM\)", re.IGNORECASE)
"""Words of a document's own front matter (its title, version, what it is)."""
_TITLE = re.compile(
    r"^(?:[\w\u2122' ]+ )?(?:Glossary|Rulebook|Current Rulings)\b(?: Version [\d.]+\b)?$", re.IGNORECASE
)
"""A title line read as ``headword - text``: ``Rulebook Glossary - D``, ``... Glossary Version 1.6 – October 1999``."""
_CARD_ENTRY = re.compile(r"^(?:This|These|The two|You|Your|Each)\b")
"""How a card's entry begins (``This personnel ...``, ``You choose ...``)."""


def _is_continued(before: list[tuple[int, str]]) -> bool:
    """Whether the text before the first entry is the end of an entry begun on an earlier page: it starts
    mid-sentence, or it is prose with no title in capitals and no word of a document's front matter."""
    first = before[0][1].strip()
    if _CONTINUED.match(first):
        return True
    texts = [t.strip() for _, t in before]
    titled = any(t == t.upper() and any(c.isalpha() for c in t) for t in texts)
    return not titled and not any(_FRONT.search(t) for t in texts)


def _sub_heading(entry: Entry, titles: frozenset[str]) -> bool:
    """Whether an entry at the top of a page begun mid-entry is that entry's sub-heading: its headword is no
    game term (lower case), no card title, and its text does not read like a card's entry or a reference."""
    bare = fold_quotes(entry.headword).lstrip("\"' ")
    if bare[:1].islower() or (entry.references and not entry.text):
        return False
    if titles and any(key in _keys(titles) for key in _title_forms(entry.headword)):
        return False
    return not _CARD_ENTRY.match(entry.text)


def _title_forms(headword: str) -> list[str]:
    """The card titles a headword may print (``Art of Diplomacy, The``, ``Deanna Troi (First Contact)``)."""
    bare = re.sub(r"\s*\([^()]*\)$", "", headword).strip()
    forms = [headword, bare]
    if bare.endswith(", The"):
        forms.append("The " + bare[: -len(", The")])
    return [title_key(f) for f in forms]


_KEYS: dict[frozenset[str], frozenset[str]] = {}


def _keys(titles: frozenset[str]) -> frozenset[str]:
    if titles not in _KEYS:
        _KEYS.clear()
        _KEYS[titles] = frozenset(title_key(t) for t in titles)
    return _KEYS[titles]


def _pages(pieces: list[tuple[int, str]], source: SourceText) -> list[tuple[Gap | None, list[tuple[int, str]]]]:
    """``pieces`` cut where a page number skips pages (`rulings.lines.pages`): each part with the gap before it."""
    out: list[tuple[Gap | None, list[tuple[int, str]]]] = [(None, [])]
    marks = list(source.gaps) if isinstance(source, PagedText) else []
    for number, text in pieces:
        while marks and number > marks[0].line:
            out.append((marks.pop(0), []))
        out[-1][1].append((number, text))
    return [(gap, part) for gap, part in out if part or gap is None]


def _read_page(
    gap: Gap | None, pieces: list[tuple[int, str]], titles: frozenset[str], result: ParseResult
) -> tuple[list[Entry], list[tuple[int, str]], bool]:
    """One page run's entries, the text before them, and whether that text continues an entry not here."""
    entries, before = read_topics(pieces, "glossary entry", titles, result)
    path = result.document.path
    continued = bool(before) and (gap is not None or _is_continued(before))
    if continued:
        result.unparsed += sorted({n for n, _ in before})
        first, last = before[0][0], before[-1][0]
        if gap is None:
            why = "before the first entry, start mid-sentence"
        else:
            missing = gap.missing()
            lost = f"page {missing} is" if missing.isdigit() else f"pages {missing} are"
            why = f"open page {gap.page} after page {gap.before}" + (f" ({lost} not in this file)" if missing else "")
        result.warnings.append(
            f"{path}:{first}: lines {first}-{last}, {why}: the end of an entry not in this file; reported as unparsed"
        )
    if continued or (gap is not None and not before):
        for entry in entries:
            if not _sub_heading(entry, titles):
                break
            entry.kind = "sub-heading"
            result.warnings.append(
                f"{path}:{entry.lines[0]}: {entry.headword!r} is held as a sub-heading of the entry this page "
                "begins inside (no game term, card title or card's entry)"
            )
    return entries, before, continued


def parse_glossary(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a Glossary into glossary entries."""
    numbered = [(i + 1, t) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document=document, entries=[], line_count=len(source.lines), nonblank=[n for n, _ in numbered])
    title = [(n, t) for n, t in numbered[:1] if _is_title(t, titles)]
    pieces, splits = unglue_lines(numbered[len(title) :], titles)
    pieces, run_on = split_run_on(pieces, titles)
    pieces, temporary = _temporary_block(pieces, titles, result)
    entries: list[Entry] = list(temporary)
    for k, (gap, part) in enumerate(_pages(pieces, source)):
        found, before, continued = _read_page(gap, part, titles, result)
        if k == 0 and (before or title) and not continued:
            front = title + before
            texts = paragraphs(front, wrapped_runs(pieces), {n: len(t.strip()) for n, t in front})
            texts[0] = undrop_capital(texts[0])
            lines = sorted({n for n, _ in front})
            entries.insert(0, Entry(document.title, "introduction", join_paragraphs(texts), lines))
        entries += found
    result.entries = entries
    glued(result, splits + run_on)
    pages = _pages(pieces, source)
    mark_cut(result, [part[-1][0] for _, part in pages[:-1] if part] + result.nonblank[-1:])
    return result


def _is_title(text: str, titles: frozenset[str]) -> bool:
    """Whether a first line is the document's title though it reads ``headword - text``."""
    parts = split_topic(text, titles)
    return parts is not None and bool(_TITLE.match(parts[0].strip())) and len(parts[1]) <= 40


def glued(result: ParseResult, splits: list[tuple[int, str]]) -> None:
    """Record the lines split into glued entries, each with a warning."""
    recorded = set(result.split)
    for number, headword in splits:
        if number not in recorded:
            recorded.add(number)
            result.split.append(number)
        result.warnings.append(f"{result.document.path}:{number}: entries glued on one line; {headword!r} split off")
