"""Topic entries (``headword - text``) as Glossaries and Current Rulings write them.

Shared by `rulings.kinds.glossary.parser` and `rulings.kinds.current_rulings.parser`: where a headword ends, whether a
line starts a new topic or continues the one before, and "See X" references.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulings.normalize import clean_line, sort_key

MAX_HEADWORD = 70
"""Longest headword accepted when a line has no ``*`` mark to say it starts a topic."""

_DASH = re.compile(r" (?:[-\u2013\u2014] |[\u2013\u2014](?=[A-Z\"\u201c]))")
"""A headword's dash: spaced, or an en or em dash with no space after (``Isabella \u2013This mission``)."""
_STARTS_SENTENCE = re.compile(r"[A-Z0-9\"'\[(\u201c\u2018]")
_SEE = re.compile(r"(?:^|(?<=[.!?]\s))See (?:also )?([^.()\n]+?)(?:\s*\(([^()\n]*)\))?(?:\.(?=\s|$)|$)", re.MULTILINE)
_TARGET_DASH = re.compile(r"\s+[\u2013\u2014]\s*")
_SEE_INLINE = re.compile(r"\((?:see|See) ([^()]+?)\)")


def split_topic(line: str, titles: Iterable[str] = ()) -> tuple[str, str] | None:
    """Split ``headword - text`` into its parts, or None if the line has no such shape.

    A headword may itself contain `` - `` (``seed phases - mission phase``,
    ``Palor Toff - Alien Trader``): the split is at the first dash whose following text
    starts like a sentence, unless a known title is a longer prefix.
    """
    body = line.strip()
    for title in sorted(titles, key=len, reverse=True):
        if " - " in title and body.startswith(title + " - "):
            return title, body[len(title) + 3 :].strip()
    for match in _DASH.finditer(body):
        head, rest = body[: match.start()].strip(), body[match.end() :].strip()
        if not head or len(head) > MAX_HEADWORD:
            return None
        if rest and _STARTS_SENTENCE.match(rest):
            return head, rest
    return None


_GLUE = re.compile(r"(?<=[.!?)\"'\u201d])[ \t]*\*[ \t]*(?=\S)")
_COLON_HEAD = re.compile(rf"^[^:]{{1,{MAX_HEADWORD}}}:\s+\S")


def is_colon_topic(line: str) -> bool:
    """Whether a line reads ``Headword: text`` (a change summary written without a ``*``)."""
    return bool(_COLON_HEAD.match(line.strip()))


def unglue(line: str, titles: Iterable[str] = (), colon: bool = False) -> list[str]:
    """The entries glued onto one line by a repost that lost its line breaks.

    ``* docking - ... entry.* Kle'eg - This personnel ...`` is two entries: a ``*`` right after
    the end of a sentence, followed by what reads as ``Headword - text`` (or, with ``colon``,
    ``Headword: text``), starts a new one. Pieces after the first start with ``* ``.
    """
    cuts: list[tuple[int, int]] = []
    for match in _GLUE.finditer(line):
        if not line[: match.start()].strip(" *"):
            continue
        rest = line[match.end() :]
        if _COLON_HEAD.match(rest) if colon else split_topic(rest, titles):
            cuts.append((match.start(), match.end()))
    if not cuts:
        return [line]
    pieces = [line[: cuts[0][0]].rstrip()]
    for (_, end), (start, _) in zip(cuts, [*cuts[1:], (len(line), len(line))], strict=True):
        pieces.append("* " + line[end:start].strip())
    return pieces


def unglue_lines(
    numbered: list[tuple[int, str]], titles: Iterable[str] = (), colon: bool = False
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """`unglue` over (line, text) pairs: the pieces, each with its line, and (line, new headword) per split."""
    pieces: list[tuple[int, str]] = []
    splits: list[tuple[int, str]] = []
    for number, text in numbered:
        parts = unglue(text, titles, colon)
        pieces += [(number, part) for part in parts]
        for part in parts[1:]:
            body = part[2:]
            head = body.split(":")[0] if colon else (split_topic(body, titles) or (body, ""))[0]
            splits.append((number, head.strip()))
    return pieces, splits


_SEE_ONLY = re.compile(
    rf"^(?P<head>[^.:()\u2013\u2014]{{1,{MAX_HEADWORD}}}?)[.:,]?\s+(?P<see>\(?See (?:also )?[^.()]+\.\)?)$"
)


RUN_ON = 300
"""Lines longer than this are read as paragraphs run together (a copy that lost its line breaks)."""
_RUN_ON_CUT = re.compile(
    r"(?<=[.!?])\s+(?=[A-Za-z\"\u201c\[][^.!?:;\u2013\u2014]{0,"
    + str(MAX_HEADWORD)
    + r"}?\s(?:[\u2013\u2014]\s?|-\s)[A-Z\"\u201c])"
)


_LOST_DASH = re.compile(r"(?<=[.!?] )((?:[A-Z][\w'\u2019]*)(?: [\w'\u2019]+){0,5}) {2,}(?=[A-Z])")
"""A heading of at most six words whose dash a copy lost, leaving two spaces (``How to use the Glossary  You``)."""
_INITIAL = re.compile(r"(?:^|[\s.(\[])[A-Z]\.$")
"""A period after an initial (``U.S.S.``) is no sentence end."""


def split_run_on(
    numbered: list[tuple[int, str]], titles: Iterable[str] = ()
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Entries run together on one long line (`RUN_ON`): ``... on rulings. How to use the Glossary – You
    do not ...`` is two pieces, cut after a sentence's end where ``Headword – Text`` follows (a headword
    of at most six words; a dash the copy lost, two spaces left, still counts; a period after an
    initial, ``U.S.S.``, ends no sentence). The pieces, each with its line, and (line, new headword) per cut."""
    pieces: list[tuple[int, str]] = []
    splits: list[tuple[int, str]] = []
    for number, text in numbered:
        if len(text) <= RUN_ON:
            pieces.append((number, text))
            continue
        text = _LOST_DASH.sub(lambda m: f"{m[1]} \u2013 ", text)
        start = 0
        for match in _RUN_ON_CUT.finditer(text):
            parts = split_topic(text[match.end() :], titles)
            if parts is None or len(parts[0].split()) > 6 or _INITIAL.search(text[: match.start()]):
                continue
            pieces.append((number, text[start : match.start()]))
            splits.append((number, parts[0]))
            start = match.end()
        pieces.append((number, text[start:]))
    return pieces, splits


def see_only(line: str) -> tuple[str, str] | None:
    """``Headword. See X.`` (or ``Headword: See X.``, ``Headword (See X.)``): an entry that only refers."""
    match = _SEE_ONLY.match(line.strip())
    if not match or " - " in match["head"] or len(match["head"].split()) > 6:
        return None
    return match["head"].strip(), match["see"].strip("()")


def is_topic_start(line: str, previous: tuple[str, str] | None, titles: Iterable[str] = ()) -> bool:
    """Whether an unmarked line starts a new topic rather than continuing ``previous``
    (the headword and the last paragraph of the topic before).

    Topics are sorted alphabetically (ignoring punctuation), and a topic ending with a
    colon introduces the paragraphs that follow it; both guard against a continuation
    paragraph like ``Mirror versions - A personnel ...`` being taken for a new topic.
    """
    parts = split_topic(line, titles)
    if parts is None:
        return False
    if previous is None:
        return True
    headword, last = previous
    if last.rstrip().endswith(":"):
        return False
    return sort_key(parts[0]) >= sort_key(headword)


def take_references(text: str) -> tuple[str, list[str]]:
    """Remove "See X." sentences from ``text``; return the rest and the targets.

    ``See persona, mirror universe.`` names two targets; ``See skills – using`` the target
    ``skills - using``; ``See Borg (Borg-affiliation ships).`` the target ``Borg - Borg-affiliation
    ships`` (a part of Borg). A paragraph's last "See X" needs no full stop. Parenthesised references
    (``(see actions - required)``) stay in the text but are recorded as well.
    """
    targets: list[str] = []
    for match in _SEE_INLINE.finditer(text):
        targets.append(match.group(1).strip().rstrip("."))

    def cut(match: re.Match[str]) -> str:
        parts = [_TARGET_DASH.sub(" - ", part.strip()) for part in match.group(1).split(",") if part.strip()]
        if match.group(2) and parts:
            parts[-1] += f" - {match.group(2).strip()}"  # See Borg (Borg-affiliation ships): into Borg
        targets.extend(parts)
        return ""

    kept = _SEE.sub(cut, text)
    kept = re.sub(r"[ \t]+\n", "\n", re.sub(r"[ \t]{2,}", " ", kept)).strip()
    return kept, targets


def join_paragraphs(paragraphs: list[str]) -> str:
    """Paragraph lines as entry text: cleaned, separated by blank lines."""
    return "\n\n".join(clean_line(p) for p in paragraphs if p.strip())
