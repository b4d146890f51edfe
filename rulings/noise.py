"""Noise that real files carry around and inside the rules, kept apart before parsing.

Page markers (``Page 12 of 180``, ``12/180``, ``- 12 -``), an A-Z letter index (``A B C ...
Z`` or a lone ``A`` heading a letter's entries), web-archive toolbar lines, message-board
furniture (``Posted by``, ``Reply | Quote``), and a table of contents (its heading and its
dot-leader lines) are chrome. Lines of two columns extracted side by side (text, a wide gap,
other text) cannot be placed: they are unparsed, never guessed into entries. The web
archive's toolbar at the top of a capture is chrome too (`rulings.archive`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.archive import toolbar
from rulings.source import SourceText
from rulings.topics import split_topic

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
            r"(?i:^(?:TABLE OF )?CONTENTS$)|^.{1,100}?\s*\.{4,}\s*\d+$",  # a table of contents
        )
    )
)
"""Every kind of noise line, one pattern (each alternative anchored on its own)."""
_COLUMNS = re.compile(r"\S(?: {4,}|\t+)\S")
_BARE_HEAD = re.compile(r"^\*?\s*[^-\u2013\u2014]{1,70}\s[-\u2013\u2014]$")


@dataclass
class Cleaned:
    """A document's text with its noise blanked out, and where the noise was."""

    source: SourceText
    chrome: list[int] = field(default_factory=list)
    unparsed: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def is_noise(text: str) -> bool:
    """Whether a line is page, index, archive, board or contents furniture."""
    line = text.strip()
    return _NOISE.search(line) is not None


def clean(source: SourceText) -> Cleaned:
    """Blank the noise and the two-column lines of ``source`` (reported, never parsed)."""
    lines = list(source.lines)
    cleaned = Cleaned(SourceText(source.path, lines, source.encoding, source.warnings))
    bar = set(toolbar(source.lines))
    for index, text in enumerate(source.lines):
        if not text.strip():
            continue
        if index in bar or is_noise(text):
            cleaned.chrome.append(index + 1)
            lines[index] = ""
        elif _COLUMNS.search(text.strip()):
            cleaned.unparsed.append(index + 1)
            lines[index] = ""
    _interleaved(lines, cleaned)
    if cleaned.unparsed:
        cleaned.unparsed.sort()
        first, last = cleaned.unparsed[0], cleaned.unparsed[-1]
        cleaned.warnings.append(
            f"{source.path}:{first}: {len(cleaned.unparsed)} lines of two columns side by side (lines {first}-{last}) "
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
