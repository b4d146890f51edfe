"""Noise that real files carry around and inside the rules, kept apart before parsing.

Page markers (``Page 12 of 180``, ``12/180``, ``- 12 -``), a letter index (``A B C ... Z``,
``Introduction A B C ... XYZ``, ``ABC / DEF``, ``A - B - ... - Z - top``, a lone ``A`` heading a
letter's entries; an HTML copy's letter pairs ``ba - be - bi`` and ``back to top of page ba``;
its page title ``Glossary - B`` with the ``Glossary`` line under it), web-archive toolbar lines, message-board
furniture (``Posted by``, ``Reply | Quote``), and a table of contents (its heading and its
dot-leader lines) are chrome. Lines of two columns extracted side by side (text, a wide gap,
other text) cannot be placed: they are unparsed, never guessed into entries. A long line that reads
two PDF columns across (icon legend items inside sentences, two headwords in a row) is kept apart
(`Cleaned.flowed`) for `rulings.lines.flowed`, which reads it at its headwords, each entry warned.
The web archive's toolbar at the top of a capture is chrome too (`rulings.lines.archive`); a lone
two-letter English word (``or``) is text, not an HTML anchor. Page-number gaps are kept with
the text (`rulings.lines.pages.PagedText`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from rulings.entries.topics import RUN_ON, split_topic
from rulings.lines.archive import toolbar
from rulings.lines.flowed import heads_in_a_row
from rulings.lines.pages import PagedText, gaps
from rulings.source import SourceText

_MONTHS = "JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC"
_NOISE = re.compile(
    "|".join(
        f"(?:{kind})"
        for kind in (
            r"(?i:^[-\u2013 ]*Page \d+(?: of \d+)?[-\u2013 ]*$)",  # page markers
            r"^\d+ ?/ ?\d+$|^[-\u2013] \d+ [-\u2013]$",
            r"^[A-Z]$|^(?:[A-Z](?:\s*[|\u00b7,-]\s*|\s+)){9,}[A-Z]$",  # a letter heading, an A-Z index
            r"(?i:web\.archive\.org|Wayback Machine|^\d[\d,]* captures?\b)",  # web-archive toolbars
            rf"^(?:Go\s+)?(?:(?:{_MONTHS})\s+){{2}}(?:{_MONTHS})$",
            r"^Posted (?:by|on) .{1,100}$|^(?:Post subject|Joined|Posts|Location):\s*.{0,80}$",  # message boards
            r"^(?:Reply|Quote|Edit|Report|Back to top|Logged|Profile|PM)(?:\s*\|\s*[A-Za-z ]{1,20})*$",
            r"(?i:^(?:TABLE OF )?CONTENTS$)|^.{1,100}?(?:\s*\.){4,}\s*\d+$",  # a table of contents
            r"^VERSION \d+(?:\.\d+)*$|(?i:^.{0,80}\bpage \d+ of \d+$)",  # a print header, a running header
        )
    )
)
"""Every kind of noise line, one pattern (each alternative anchored on its own)."""
_HTML_NOISE = re.compile(
    r"[a-z]{2}$|(?i:back to top(?: of (?:the )?page)?\b.{0,40}$)"  # an HTML page's letter-pair anchors
    r"|Glossary\s*[-\u2013]\s*[A-Z](?:\s*[-\u2013]\s*[A-Z])?$"  # an HTML Glossary page's title
)
"""HTML copies' furniture, matched at the start of a line."""
_PAGE_TITLE = re.compile(r"(?:Rulebook )?Glossary\s*[-\u2013]\s*[A-Z](?:\s*[-\u2013]\s*[A-Z])?$")
"""An HTML Glossary page's title (``Glossary - B``): on pages joined into one file, a new page."""
_INDEX_START = re.compile(r"(?:[A-Z]{1,6}|[a-z]{2}|(?i:introduction|intro|top|index|home|contents))\b")
_COLUMNS = re.compile(r"\S(?: {4,}|\t+)\S")
_BARE_HEAD = re.compile(r"^\*?\s*[^-\u2013\u2014]{1,70}\s[-\u2013\u2014]$")


@dataclass
class Cleaned:
    """A document's text with its noise blanked out, and where the noise was."""

    source: SourceText
    chrome: list[int] = field(default_factory=list)
    unparsed: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    page_ends: list[int] = field(default_factory=list)
    """The last text line before each HTML page title (``Glossary - Q``) of pages joined: where a page ends."""
    flowed: list[tuple[int, int]] = field(default_factory=list)
    """Lines that read two PDF columns across (line, where they start to), kept for `rulings.lines.flowed`."""


_INDEX_SEPARATOR = re.compile(r"\s*[|\u00b7,/\-\u2013]\s*|\s+")
_INDEX_WORDS = frozenset({"introduction", "intro", "top", "index", "home", "contents"})
_LETTERS = re.compile(r"^[A-Z]{1,6}$")


def _is_range(token: str) -> bool:
    """``A``, ``ABC``, ``XYZ``, ``VWXYZ``: a letter, or letters running on in the alphabet (not ``CCG``, ``TREK``)."""
    return bool(_LETTERS.match(token)) and all(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(token))


_PAIR = re.compile(r"^[a-z]{2}$")


def is_letter_index(text: str) -> bool:
    """A letter index in its real forms: ``Introduction A B C ... XYZ``, ``ABC / DEF``, ``A - B - ... - Z - top``,
    ``ba - be - bi - bl`` (the letter pairs of one letter's page)."""
    line = text.strip()
    if len(line) > 200 or not _INDEX_START.match(line):
        return False
    tokens = [t for t in _INDEX_SEPARATOR.split(line) if t]
    if len(tokens) < 2:
        return False
    letters = sum(1 for t in tokens if _is_range(t))
    words = sum(1 for t in tokens if t.lower() in _INDEX_WORDS)
    pairs = sum(1 for t in tokens if _PAIR.match(t))
    separated = bool(re.search(r"[|/\u00b7]|\s[-\u2013]\s", line))
    if letters + words == len(tokens) and letters >= 2:
        return len(tokens) >= 3 or separated
    return pairs == len(tokens) and len(tokens) >= 3 and separated


def is_noise(text: str) -> bool:
    """Whether a line is page, index, archive, board or contents furniture."""
    line = text.strip()
    return _NOISE.search(line) is not None or _HTML_NOISE.match(line) is not None or is_letter_index(line)


_WORDS = frozenset(
    [
        "am",
        "an",
        "as",
        "at",
        "be",
        "by",
        "do",
        "go",
        "he",
        "if",
        "in",
        "is",
        "it",
        "me",
        "my",
        "no",
        "of",
        "oh",
        "on",
        "or",
        "so",
        "to",
        "up",
        "us",
        "we",
    ]
)
"""Two-letter English words: alone on a line they are text (``or`` between two options), not an anchor."""


_LEGEND_ITEM = re.compile(r"(?<=[a-z,;] )\[[A-Z][A-Za-z]{0,4}\] [A-Z]")
"""An icon legend item (``[AU] Alternate Universe``) inside a sentence: the legend's column read across the text's."""
_TWO_HEADS = re.compile(r"\*[^.*\u2013\u2014]{1,40} [\u2013\u2014] \*[^.*\u2013\u2014]{1,40} [\u2013\u2014] ")
"""Two marked headwords in a row with no text between (``*22nd century icon – *keywords – ``): two columns
(unmarked ones too, `rulings.lines.flowed.heads_in_a_row`)."""
LEGEND_ITEMS = 3
"""Legend items inside sentences that show a line is two columns interleaved."""


def interleaved_at(text: str) -> int | None:
    """Where a long line (a copy that lost its line breaks) starts to read two PDF columns across, else None."""
    if len(text) <= RUN_ON:
        return None
    items = list(_LEGEND_ITEM.finditer(text))
    if len(items) >= LEGEND_ITEMS:
        return items[0].start()
    heads = _TWO_HEADS.search(text)
    return heads.start() if heads else heads_in_a_row(text)


def _anchors(pair: str, after: list[str]) -> bool:
    """Whether a lone letter pair is an HTML page's anchor: one that is no word (``qa``), or a word the next
    text starts with, punctuation ignored as the Glossary sorts (``be`` before ``Be-ware``)."""
    following = next((t for t in after if t.strip()), "")
    return pair not in _WORDS or re.sub(r"[\W_]", "", following).lower().startswith(pair)


def clean(source: SourceText) -> Cleaned:
    """Blank the noise and the two-column lines of ``source`` (reported, never parsed)."""
    lines = list(source.lines)
    cleaned = Cleaned(PagedText(source.path, lines, source.encoding, source.warnings, gaps(source.lines)))
    bar = set(toolbar(source.lines))
    side: list[int] = []
    page_title = False
    for index, text in enumerate(source.lines):
        if not text.strip():
            continue
        if _PAIR.match(text.strip()) and not _anchors(text.strip(), source.lines[index + 1 :]):
            page_title = False
            continue
        if index in bar or is_noise(text) or (page_title and text.strip() == "Glossary"):
            if _PAGE_TITLE.match(text.strip()) and (earlier := [n for n in range(index) if lines[n].strip()]):
                cleaned.page_ends.append(earlier[-1] + 1)  # the text before a joined HTML page's title ends a page
            page_title = page_title or text.strip().startswith("Glossary")
            cleaned.chrome.append(index + 1)
            lines[index] = ""
            continue
        page_title = False
        if _COLUMNS.search(text.strip()):
            side.append(index + 1)
            lines[index] = ""
        elif (at := interleaved_at(text)) is not None:
            cleaned.flowed.append((index + 1, at))
            lines[index] = ""
    before = len(cleaned.unparsed)
    cleaned.unparsed += side
    _interleaved(lines, cleaned)
    side = sorted(cleaned.unparsed[before:])
    cleaned.unparsed.sort()
    if side:
        first, last = side[0], side[-1]
        cleaned.warnings.append(
            f"{source.path}:{first}: {len(side)} lines of two columns side by side (lines {first}-{last}) "
            "cannot be placed; reported as unparsed"
        )
    return cleaned


def _interleaved(lines: list[str], cleaned: Cleaned) -> None:
    """Two headwords in a row with no text (``docking -`` then ``Kle'eg -``): two columns read
    across. Their lines up to the next ordinary entry cannot be placed."""
    numbered = [i for i, t in enumerate(lines) if t.strip()]
    k = 0
    while k + 1 < len(numbered):
        first, second = (lines[numbered[k]].strip(), lines[numbered[k + 1]].strip())
        if not (_BARE_HEAD.match(first) and _BARE_HEAD.match(second)):
            k += 1
            continue
        end = k + 2
        while end < len(numbered) and split_topic(lines[numbered[end]].lstrip("* ")) is None:
            end += 1
        for index in numbered[k:end]:
            cleaned.unparsed.append(index + 1)
            lines[index] = ""
        k = end
