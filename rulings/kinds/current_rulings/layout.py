"""Where the parts of a Current Rulings document begin, even when its line breaks were lost.

A repost or a PDF's text can glue a heading to the text around it (``RULINGS* All Threes -
...``, ``...full version)SIGNIFICANT RULINGS CHANGES AND CLARIFICATIONS* assimilation``,
``RULINGS – General *22nd century icon –``) or hold the whole document on one line.
`segment` cuts each line before and after such a heading, so every part starts a piece of
its own; the line is then in several entries, each cut reported. A headword standing at
the end of a piece with its text on the next (``*22nd century icon –``) is joined to it.
"""

from __future__ import annotations

import datetime as dt
import re

from rulings.dates import US_DATE_TEXT, parse_us_date, title_date

SUMMARIES = re.compile(r"SIGNIFICANT RUL(?:ING|E)S CHANGES(?: AND CLARIFICATIONS| TO NOTE)?:?")
"""The heading of the change summaries (``SIGNIFICANT RULES CHANGES TO NOTE`` in early documents)."""
RULINGS = re.compile(
    r"(?<![A-Za-z])(?<![A-Z] )RULINGS:?(?:\s*[-\u2013\u2014:]\s*[A-Z][a-z]+)?(?=\s*\*|\s*$)"
    r"|(?<=[.!?] )RULINGS(?= [A-Za-z\"\u201c])"
)
"""The heading of the rulings, alone or with a section name (``RULINGS – General``), or run into the end of
a paragraph (``... effective immediately. RULINGS A Klingon Matter ...``); never inside ``CURRENT RULINGS``,
``TEMPORARY RULINGS`` or ``SIGNIFICANT RULINGS CHANGES``."""
TITLE = re.compile(
    r"^STAR TREK(?:\u2122|\(TM\))?:? CUSTOMIZABLE CARD GAME(?:\u2122|\(TM\))?(?: CURRENT RULINGS(?: UPDATE)?)?$",
    re.IGNORECASE,
)
_DECLARED = re.compile(
    r"^(?:.{0,60}?\bCURRENT RULINGS(?: UPDATE)?:?\s+|Released\s+|Issued\s+|(?:Rulings\s+)?Updated:?\s+)?"
    rf"(?P<date>{US_DATE_TEXT})(?![\d/])",
    re.IGNORECASE,
)
_BARE_HEAD = re.compile(r"^(?P<head>\*?\s*[^-\u2013\u2014*]{1,70}?)\s+[-\u2013\u2014]$")


def is_heading(text: str, pattern: re.Pattern[str]) -> bool:
    """Whether a piece is the whole heading ``pattern`` finds."""
    return pattern.fullmatch(text.strip()) is not None


def segment(numbered: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Cut (line, text) pairs before and after every heading glued to other text.

    Returns the pieces, each with its line, and (line, heading) for every line that was cut."""
    pieces: list[tuple[int, str]] = []
    cuts: list[tuple[int, str]] = []
    for number, text in numbered:
        found = sorted([*SUMMARIES.finditer(text), *RULINGS.finditer(text)], key=lambda m: m.start())
        at = 0
        parts: list[str] = []
        for match in found:
            if match.start() < at:
                continue
            parts += [text[at : match.start()], match.group(0)]
            at = match.end()
        parts.append(text[at:])
        kept = [p for p in parts if p.strip()]
        pieces += [(number, p.strip()) for p in kept]
        if len(kept) > 1:
            cuts += [(number, match.group(0).strip()) for match in found]
    return pieces, cuts


def join_bare_heads(pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A headword with its dash ending a piece (``*22nd century icon –``) joined to the next piece's text.

    The next piece keeps its line but no text of its own (the line is still the entry's)."""
    joined = list(pieces)
    for k in range(len(joined) - 1):
        match = _BARE_HEAD.match(joined[k][1].strip())
        if match and not _BARE_HEAD.match(joined[k + 1][1].strip()) and not joined[k + 1][1].lstrip().startswith("*"):
            joined[k] = (joined[k][0], f"{joined[k][1].strip()} {joined[k + 1][1].strip()}")
            joined[k + 1] = (joined[k + 1][0], "")
    return joined


def declared_date(texts: list[str]) -> dt.date | None:
    """The date the title block states (``11/27/00``, ``CURRENT RULINGS 02/13/98``,
    ``Released 10/19/98``, ``Rulings Updated: 03/26/01``, ``12/05/01This special ...``, or the
    title's ``Current Rulings Document (11 June 2010)``), if any of ``texts`` starts with one."""
    for text in texts:
        match = _DECLARED.match(text.strip())
        if match:
            return parse_us_date(match["date"])
        titled = title_date(text)
        if titled:
            return titled
    return None


def complete_set(pieces: list[tuple[int, str]], pattern: re.Pattern[str]) -> list[tuple[int, str]]:
    """The documents named after "a complete set of ... rules ... consists of the following:",
    each with its line.

    The list starts after the first colon that follows the phrase (on its line, when text
    follows the colon, or on the next lines) and runs over consecutive lines."""
    start = next((k for k, (_, t) in enumerate(pieces) if pattern.search(t)), None)
    if start is None:
        return []
    for k in range(start, min(start + 4, len(pieces))):
        number, text = pieces[k]
        phrase = pattern.search(text)
        offset = phrase.end() if phrase and k == start else 0
        colon = text.find(":", offset)
        if colon < 0:
            continue
        found = [(number, text[colon + 1 :].strip())] if text[colon + 1 :].strip() else []
        previous = number
        for number, item in pieces[k + 1 :]:
            if found and number != previous + 1:
                break
            found.append((number, item.strip()))
            previous = number
        return found
    return []
