"""The layout of a numbered rules document printed to a page and taken back as text
(``pdftotext -layout``, or a PDF's text): running page footers, wrapped paragraphs, and a
Glossary whose terms have no blank line between them.

- A page footer is a run of short lines (their spaces collapsed) that recurs page after page with only its page number
  changing (``disneylorcana.com`` then ``©Disney   12``): each of its lines, its number folded,
  is found at least `RECURS` times, and stands beside another such line (or, alone, carries
  the page number and is found twice as often). It is chrome, and the
  lines of a rule on both sides of it are one paragraph.
- A wrapped paragraph's lines are joined with a space (the runs of spaces the layout put inside a
  line, in a diagram's labels, one space); ``Example:`` and a bullet start a new one.
- A Glossary term is a short line (at most `TERM` characters) that does not end a sentence, after
  a line that does (or the heading), before its definition.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

RECURS = 3
"""A footer line is found at least this many times (its page number folded)."""
FOOTER = 40
"""The longest line read as part of a page footer."""
TERM = 50
"""The longest line read as a Glossary term."""
_PAGE = re.compile(r"\s*\b(?:\d+|[ivxlc]+)$")
_ENDS = re.compile(r"[.!?:;,]['\"\u2019\u201d)]*$")
_SYMBOL = re.compile(r"\s[!\"#$%&*+<=>@^_|~]$")
_NEW_PARAGRAPH = re.compile(r"^(?:Example\b|Examples\b|[\u2022\u25cf\u25aa*-]\s)")
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s")
_SPACES = re.compile(r"\s{2,}")


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", _PAGE.sub(" #", text.strip()))


def page_footers(lines: Sequence[str]) -> set[int]:
    """The 0-based indices of the lines of running page footers."""
    keys = {i: _key(line) for i, line in enumerate(lines) if line.strip()}
    short = {
        i: key for i, key in keys.items() if len(key) <= FOOTER and not _ENDS.search(key) and not _NUMBERED.match(key)
    }
    counts = Counter(short.values())
    recurring = {i for i, key in short.items() if counts[key] >= RECURS}
    found: set[int] = set()
    for index in recurring:
        neighbours = (_neighbour(lines, index, -1), _neighbour(lines, index, 1))
        beside = any(n in recurring and short[n] != short[index] for n in neighbours if n is not None)
        if beside or (short[index].endswith(" #") and counts[short[index]] >= 2 * RECURS):
            found.add(index)
    return found


def _neighbour(lines: Sequence[str], index: int, step: int) -> int | None:
    at = index + step
    while 0 <= at < len(lines) and not lines[at].strip():
        at += step
    return at if 0 <= at < len(lines) else None


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence (``.``, ``?``, ``:``..., before closing quotes or brackets;
    not a symbol standing alone, as a game's icon font prints ``Lore value !``)."""
    text = text.strip()
    return bool(_ENDS.search(text)) and not _SYMBOL.search(text)


def paragraphs(lines: Sequence[str]) -> str:
    """Wrapped lines as paragraphs: joined with a space, a new paragraph at ``Example:`` or a bullet."""
    found: list[str] = []
    for line in (_SPACES.sub(" ", line.strip()) for line in lines):
        if not line:
            continue
        if found and not _NEW_PARAGRAPH.match(line):
            found[-1] = f"{found[-1]} {line}"
        else:
            found.append(line)
    return "\n\n".join(found)


def glossary_blocks(lines: Sequence[str], start: int, end: int, skip: set[int]) -> list[list[int]]:
    """A Glossary without blank lines between its terms, as blocks of 0-based line indices: a
    term's line then its definition's (a block of one line is a term with no definition)."""
    text = [i for i in range(start, end) if lines[i].strip() and i not in skip]
    blocks: list[list[int]] = []
    for place, index in enumerate(text):
        line = lines[index].strip()
        after = text[place - 1] if place else None
        opens = after is None or ends_sentence(lines[after])
        if not blocks or (opens and len(line) <= TERM and not ends_sentence(line) and place + 1 < len(text)):
            blocks.append([index])
        else:
            blocks[-1].append(index)
    return blocks
