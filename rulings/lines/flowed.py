"""A page of two PDF columns flowed onto one line, read at its headwords; the columns' words kept as printed.

A copy that lost a PDF's line breaks and read its two columns across gives one long line on which
the columns' lines alternate (`rulings.lines.noise.interleaved_at` finds where they start to). Nothing
on the line says where a column's run ends, so the words are never sorted back into columns; the
line is read from what its layout still shows:

- a heading in capitals after a sentence's end (``RULINGS – General``) is a heading;
- an icon legend's items (``[AU] Alternate Universe``) are legend entries when the code abbreviates
  the words after it (``[OCD] Optical Compact Disk``, ``[Ex] U.S.S. Excelsior``, ``[Bar] Barash``);
  the name is those words, and what follows is the other column's text again;
- a headword (an optional ``*``, new or changed; a topic of at most six words; a dash) starts an
  entry. It begins after a sentence's end, a ``*``, a heading or the dash before; where the other
  column's words run into it, after the last word a topic cannot hold (``Keywords are affiliation –``
  is ``affiliation``). Headwords in a row (``*22nd century icon – *keywords – This icon ...``) are the
  two columns' headwords side by side: they share the text that follows, which holds both;
- the text before the first headword is the front matter when it names the document, else the end
  of an entry begun on an earlier page (a note, warned).

Every entry from where the columns interleave on is marked (`Piece.interleaved`): its words may
interleave two columns; `read_into` warns one line per such entry, naming file and entry, and its
field ``columns`` (`COLUMNS`) becomes its versions' note. Every character of the line is in one
piece (`Piece.spans`), so nothing is lost; shared text is shown with each headword of the row but
belongs to the last one's span. `heads_in_a_row` is one of the signs `rulings.lines.noise.interleaved_at`
finds such a line by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.dates import title_date
from rulings.model import Entry, ParseResult
from rulings.normalize import clean_line

FRONT, HEADING, ENTRY, LEGEND = "front", "heading", "entry", "legend"
"""The kinds of `Piece`."""
MAX_WORDS = 6
"""Most words of a headword (of a legend item's name)."""
_NOT_IN_TOPIC = frozenset(
    re.findall(
        r"\w+",
        "am is are was were be been being will would can cannot could should shall may might must has have had "
        "do does did it they we you he she their its them this these those that which who there not",
    )
)
"""Words a topic does not hold (verbs, pronouns): a headword the other column ran into starts after them."""
_LEADING = frozenset(
    {"a", "an", "the", "of", "to", "in", "on", "and", "or", "for", "by", "with", "as", "at", "from", "but"}
)
"""Words a headword does not start with."""
_LEGEND = re.compile(r"\[([A-Z][A-Za-z]{0,4})\] (?=[A-Z])")
_HEADING = re.compile(
    r"(?:(?<=[.!?] )|^)(?:[A-Z]{3,}(?: [A-Z]{3,})* [-\u2013\u2014] [A-Z][a-z]+"
    r"|[A-Z]{3,}(?: [A-Z]{3,})+|[A-Z]{3,}(?= \*))(?= |$)"
)
"""A heading in capitals after a sentence's end: with a section's name (``RULINGS – General``), of two words or
more, or before a marked headword (``RULINGS *...``)."""
_DASH = re.compile(r"(?<=\S) [-\u2013\u2014](?= |$)")
_BOUNDARY = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$|\)$")
_SENTENCE_AFTER = re.compile(r"\s*(?:[A-Z0-9\"\u201c(\[*]|$)")
"""What follows a headword's dash in the clean layout: a sentence, a marked headword, or the end."""
_TITLE = re.compile(r"\b(?:Glossary|Rulebook|Rulings(?: Document)?)(?: Version [\d.]+)?$", re.IGNORECASE)
"""A document's title read as a headword (``Pocket Glossary Version 2.1 – ...``)."""
_INITIAL = re.compile(r"(?:^|[.(\[])[A-Z]\.$")


@dataclass
class Piece:
    """One part of the line: its front matter, a heading, an entry or a legend item."""

    kind: str
    """`FRONT`, `HEADING`, `ENTRY` or `LEGEND`."""
    headword: str
    """The headword (the heading, the legend item's code ``[AU]``); empty for the front matter."""
    text: str
    """The text, whitespace collapsed (a legend item's name; a heading has none)."""
    spans: list[tuple[int, int]] = field(default_factory=list)
    """The (start, end) character ranges of the line this piece is made of."""
    marked: bool = False
    """A headword marked ``*``: new or changed."""
    interleaved: bool = False
    """From where the columns interleave on: its words may be two columns' read across."""
    shares: list[str] = field(default_factory=list)
    """The other headwords of its row, whose text it shows as its own (`headwords in a row`)."""


def _legend(line: str, at: int) -> list[tuple[int, int, str, str]]:
    """(start, end, code, name) of each icon legend item the code abbreviates, from ``at`` on."""
    items = []
    for match in _LEGEND.finditer(line, at):
        words = [(w.start(), w.end()) for w in re.finditer(r"\S+", line[match.end() :])][:MAX_WORDS]
        end = _abbreviates(match.group(1), [line[match.end() + s : match.end() + e] for s, e in words])
        if end:
            stop = match.end() + words[end - 1][1]
            items.append((match.start(), stop, match.group(1), line[match.end() : stop]))
    return items


def _abbreviates(code: str, words: list[str]) -> int:
    """How many of ``words`` the code names: its first letter a word's (or a hyphened part's) initial,
    its other letters in order after it, every word up to the last letter's capitalised; 0: none."""
    letters = code.lower()
    for first, word in enumerate(words):
        if not word[:1].isupper():
            return 0
        parts = [p for p in re.split(r"-", word) if p]
        if not any(p[0].lower() == letters[0] for p in parts):
            continue
        k, index = 1, first
        rest = word[word.lower().index(letters[0]) + 1 :]
        while k < len(letters):
            found = rest.lower().find(letters[k])
            if found >= 0:
                rest, k = rest[found + 1 :], k + 1
                continue
            index += 1
            if index >= len(words) or not words[index][:1].isupper():
                break
            rest = words[index]
        if k == len(letters):
            return index + 1
    return 0


def _head_start(line: str, begin: int, dash: int) -> tuple[int, bool] | None:
    """Where the headword before the dash at ``dash`` starts (not before ``begin``), and whether it is
    marked ``*``; None: the dash ends no headword.

    Going back from the dash, the words run to a sentence's end (not an initial's period, ``U.S.S.``),
    a comma before a word in lower case, or a ``*`` (included). All of them are the headword when they
    are a term in lower case (``22nd century icon``), a title (``Dead in Bed``), or any words a sentence
    follows (``How to use the Glossary – You ...``), six at most. Else the other column's line may run
    into the headword: the longest last words that follow a verb or pronoun and are a term or a title
    (``Keywords are affiliation –``), or follow an article or a preposition and are a title (``ships with
    Kobali Shuttle –``); a term after an article is the same phrase, prose (``the dilemma – not ...``)."""
    found = list(re.finditer(r"\S+", line[begin:dash]))
    words = [m.group(0) for m in found]
    first = len(words)
    while first > 0:
        word, after = words[first - 1], (words[first] if first < len(words) else "")
        if (_BOUNDARY.search(word) and not _INITIAL.search(word)) or (
            word.endswith((",", ";", ":")) and not after[:1].isupper()
        ):
            break
        first -= 1
        if word.startswith("*"):
            break
    run = [w.lstrip("*") for w in words[first:]]
    shaped = bool(run) and (_term(run) or _title(run) or bool(_SENTENCE_AFTER.match(line, dash + 2)))
    if shaped and len(run) <= MAX_WORDS and _balanced(run):
        return begin + found[first].start(), words[first].startswith("*")
    for k in range(max(first + 1, len(words) - MAX_WORDS), len(words)):
        head, before = words[k:], words[k - 1].lower()
        if not _balanced(head) or head[0].lower() in _LEADING:
            continue
        if (before in _NOT_IN_TOPIC and (_term(head) or _title(head))) or (
            before in _LEADING and head[0][:1].isupper() and _title(head)
        ):
            return begin + found[k].start(), False
    return None


def _balanced(words: list[str]) -> bool:
    """Words that may be a headword: some letter or digit, every parenthesis closed."""
    text = " ".join(words)
    return bool(re.search(r"\w", text)) and text.count("(") == text.count(")")


_IN_A_ROW = re.compile(
    r"(?:^|(?<=[.!?)] ))(?P<one>[^\s*\u2013\u2014][^.!?*\u2013\u2014]{0,40}?) [\u2013\u2014] "
    r"(?P<two>[^\s*\u2013\u2014][^.!?*\u2013\u2014]{0,40}?) [\u2013\u2014](?= |$)"
)


def heads_in_a_row(text: str) -> int | None:
    """Where two headwords stand in a row with no text between, after a sentence's end (``... (see stopped.)
    Altonian Brain Teaser – Khan –``): two columns' headwords side by side, read across; each a term or a
    title of at most four words, with no colon (``actions – step 1: initiation – ...`` is a topic and its
    sub-topic). None: nowhere."""
    for match in _IN_A_ROW.finditer(text):
        heads = [match["one"].split(), match["two"].split()]
        if all(0 < len(h) <= 4 and ":" not in match[0] and (_term(h) or _title(h)) for h in heads):
            return match.start()
    return None


def _term(words: list[str]) -> bool:
    """A game term: words in lower case (a number may lead: ``22nd century icon``)."""
    return all(w[:1].islower() or w[:1].isdigit() or not w[:1].isalpha() for w in words)


def _title(words: list[str]) -> bool:
    """A card's title: each word capitalised but the small ones inside (``Dead in Bed``, ``I.K.S. Vorn``)."""
    return words[0][:1].isupper() and all(w[:1].isupper() or w.lower() in _LEADING for w in words[1:])


def read_line(line: str, at: int) -> list[Piece]:
    """The pieces of ``line``, a page of two columns flowed onto one line that interleave from ``at`` on."""
    legend = _legend(line, at)
    taken = [(s, e) for s, e, _, _ in legend]
    marks: list[tuple[int, int, str, str, bool]] = []  # (start, text start, kind, headword, marked)
    for match in _HEADING.finditer(line):
        if not any(s <= match.start() < e for s, e in taken):
            marks.append((match.start(), match.end(), HEADING, clean_line(match.group(0)), False))
    begin = 0
    for dash in _DASH.finditer(line):
        if any(s <= dash.start() < e for s, e, *_ in [*taken, *[(m[0], m[1]) for m in marks]]):
            continue
        before = max(
            [begin, *[m[1] for m in marks if m[1] <= dash.start()], *[e for s, e in taken if e <= dash.start()]]
        )
        found = _head_start(line, before, dash.start())
        if found is None:
            continue
        first, marked = found
        head = clean_line(line[first : dash.start()].lstrip("*").strip())
        marks.append((first, dash.end(), ENTRY, head, marked))
        begin = dash.end()
    marks.sort()
    if marks and marks[0][2] == ENTRY and not line[: marks[0][0]].strip() and _TITLE.search(marks[0][3]):
        marks = marks[1:]  # the document's title read as ``headword - text``: its front matter
    pieces = _pieces(line, marks, taken)
    for s, e, code, name in legend:
        pieces.append(Piece(LEGEND, f"[{code}]", clean_line(name), [(s, e)], interleaved=True))
    pieces.sort(key=lambda p: p.spans[0][0] if p.spans else 0)
    for piece in pieces:
        piece.interleaved = piece.kind != HEADING and any(e > at for _, e in piece.spans)
    _share(pieces)
    return pieces


def _pieces(line: str, marks: list[tuple[int, int, str, str, bool]], taken: list[tuple[int, int]]) -> list[Piece]:
    """The front matter, headings and entries between ``marks``, legend items (``taken``) cut out of their text."""
    bounds = [(0, 0, FRONT, "", False), *marks]
    pieces = []
    for k, (start, text_at, kind, head, marked) in enumerate(bounds):
        end = bounds[k + 1][0] if k + 1 < len(bounds) else len(line)
        spans = _without(start, end, taken)
        text = " ".join(line[s:e] for s, e in _without(text_at, end, taken))
        if kind == FRONT and not text.strip():
            continue
        pieces.append(Piece(kind, head, "" if kind == HEADING else clean_line(text), spans, marked))
    return pieces


def _without(start: int, end: int, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The range start-end less the ranges ``taken``."""
    spans, at = [], start
    for s, e in sorted(taken):
        if e <= at or s >= end:
            continue
        if s > at:
            spans.append((at, s))
        at = e
    if at < end:
        spans.append((at, end))
    return spans


def _share(pieces: list[Piece]) -> None:
    """Headwords in a row with no text between: each shows the text after the last of the row."""
    entries = [p for p in pieces if p.kind == ENTRY]
    k = 0
    while k < len(entries):
        end = k
        while end < len(entries) and not entries[end].text and end + 1 < len(entries) and _adjacent(entries, end):
            end += 1
        if end > k:
            row = entries[k : end + 1]
            for piece in row:
                piece.text = row[-1].text
                piece.shares = [p.headword for p in row if p is not piece]
        k = end + 1


def _adjacent(entries: list[Piece], k: int) -> bool:
    """Whether entry ``k``'s headword is followed directly by entry ``k + 1``'s."""
    return entries[k].spans[-1][1] == entries[k + 1].spans[0][0]


COLUMNS = (
    "read from two PDF columns copied across on one line: its words may interleave both columns' texts, "
    "kept as printed, not separated"
)
"""The field ``columns`` of an entry whose words may interleave two columns: its versions' note says so."""
ENTRY_KINDS = {"glossary": "glossary entry", "current-rulings": "ruling", "current-rulings-update": "ruling"}
"""The document kinds whose one-line pages of two columns are read, and the kind of their entries."""
_ENDED = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")


def read_into(result: ParseResult, lines: list[str], flowed: list[tuple[int, int]]) -> None:
    """Read each line of ``flowed`` ((line, where its columns interleave)) into ``result``'s entries, in line
    order, each entry whose words may interleave two columns warned; a kind not of `ENTRY_KINDS` reports
    the line unparsed."""
    path = result.document.path
    for number, at in flowed:
        text = lines[number - 1]
        kind = ENTRY_KINDS.get(result.document.kind)
        if kind is None:
            result.unparsed = sorted({*result.unparsed, number})
            result.warnings.append(
                f"{path}:{number}: two columns interleaved on one line (from {text[at : at + 40]!r}): "
                "the entries cannot be told apart; the line is reported as unparsed"
            )
            continue
        pieces = read_line(text, at)
        if pieces and pieces[0].kind == FRONT and result.document.declared_date is None:
            result.document.declared_date = title_date(pieces[0].text)
        entries = [_entry(piece, kind, result.document.title, number) for piece in pieces]
        where = next((k for k, e in enumerate(result.entries) if min(e.lines, default=0) > number), len(result.entries))
        result.entries[where:where] = entries
        if len(entries) > 1:
            result.split = sorted({*result.split, number})
        result.warnings += _warnings(path, number, pieces)
        if number == max(n for n, t in enumerate(lines, 1) if t.strip()):
            _cut(result, number, text, pieces, entries)


def _entry(piece: Piece, kind: str, title: str, number: int) -> Entry:
    """The entry a piece is: text before the first headword is the front matter when it names the document
    (``Glossary``, ``Current Rulings``, ``Version``, ``™``), else the end of an entry begun on an earlier
    page, kept apart as a note (`continued`)."""
    if piece.kind == FRONT and not continued(piece.text):
        return Entry(title if kind == "glossary entry" else "Introduction", "introduction", piece.text, [number])
    if piece.kind == FRONT:
        return Entry("(continued)", "note", piece.text, [number])
    if piece.kind == LEGEND:
        return Entry(piece.headword, "legend", piece.text, [number], fields={"icon": piece.headword.strip("[]")})
    if piece.kind == HEADING:
        return Entry(piece.headword, "heading", "", [number])
    entry = Entry(piece.headword, kind, piece.text, [number], marked=piece.marked)
    if piece.interleaved:
        entry.fields["columns"] = COLUMNS
    return entry


_FRONT = re.compile(r"\b(?:Glossary|Rulings|Rulebook|FAQ|Version)\b|\u2122|\(TM\)", re.IGNORECASE)


def continued(text: str) -> bool:
    """Whether text before the first headword continues an entry of an earlier page: it starts in lower case,
    or it names no document in its first words (no front matter)."""
    return not text[:1].isupper() or not _FRONT.search(text[:300])


def _warnings(path: str, number: int, pieces: list[Piece]) -> list[str]:
    """One line per entry whose words may interleave two columns, one for the legend read apart, and one
    for text that continues an entry of an earlier page."""
    out = []
    front = next((p for p in pieces if p.kind == FRONT), None)
    if front is not None and continued(front.text):
        out.append(
            f"{path}:{number}: the text before the first headword continues an entry of an earlier page "
            f"({front.text[:40]!r}...): kept apart as a note, not read as an entry"
        )
    for piece in pieces:
        if not piece.interleaved or piece.kind == LEGEND:
            continue
        name = "the front matter" if piece.kind == FRONT else repr(piece.headword)
        beside = ""
        if piece.shares:
            others = ", ".join(repr(h) for h in piece.shares)
            beside = f"; it stands beside {others} (headwords in a row) and shows the text after them, which holds both"
        out.append(
            f"{path}:{number}: {name} holds words of two PDF columns read across on one line: "
            f"kept as printed, not separated{beside}"
        )
    legend = [p.headword for p in pieces if p.kind == LEGEND]
    if legend:
        out.append(
            f"{path}:{number}: {len(legend)} icon legend items read apart from the text they interleave "
            f"({legend[0]} ... {legend[-1]}), each named by the words its code abbreviates (more words of a name "
            "stay in the text)"
        )
    return out


def _cut(result: ParseResult, number: int, text: str, pieces: list[Piece], entries: list[Entry]) -> None:
    """The entry that holds the line's end, and the headwords of its row, cut off where the file ends: partial."""
    prose = [k for k, p in enumerate(pieces) if p.kind in (FRONT, ENTRY) and p.spans]
    if not prose:
        return
    last = max(prose, key=lambda k: pieces[k].spans[-1][1])
    if _ENDED.search(pieces[last].text) or pieces[last].spans[-1][1] < len(text.rstrip()):
        return
    row = [k for k in prose if pieces[k].headword in pieces[last].shares] + [last]
    tail = text.split()[-1] if text.split() else ""
    for k in sorted(row):
        entries[k].partial = True
        result.warnings.append(
            f"{result.document.path}:{number}: {entries[k].headword!r} is cut off where the file ends "
            f"(...{tail!r}); kept as a partial entry"
        )
