"""Paragraphs out of text laid out one line per PDF line.

A Glossary copied out of its PDF keeps the PDF's line breaks: ``Dathon – This personnel is the
matching`` / ``commander of the Tama. His special skill`` / ... Read one paragraph per line,
every wrapped line would be a paragraph of its own, and a "See" reference broken across two
lines would be lost. A run of consecutive lines (no blank line between) is *wrapped* when a
good share of its lines stop without ending a sentence, nearly all of those nearly full
(`wrapped_runs`). In a wrapped run, a line continues the paragraph of the line before unless
that line ends a sentence and the next line's first word would have fitted after it (the
run's longest line is the column width), or the next line starts with a bullet, or either is
in capitals (`paragraphs`). Lines of other runs stay a paragraph each.
"""

from __future__ import annotations

import re

WRAPPED_SHARE = 0.3
"""Share of a run's lines (its last one aside) that must stop mid-sentence for the run to be wrapped."""
NEARLY_ALL = 0.8
"""Share of those lines that must be nearly full (`FULL`)."""
FULL = 0.6
"""A line this share of its run's longest line long or longer is nearly full (a wrapped line fills its column)."""
_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")
_BULLET = re.compile(r"^[\u2022\u25cf\u25aa*] ")
_HYPHENATED = re.compile(r"[A-Za-z]-$")
_DROP_CAP = re.compile(r"^([B-HJ-NP-Z]) ([a-z]{2,})\b")


def ends_sentence(text: str) -> bool:
    """Whether a line stops at the end of a sentence (or a clause: ``:``, ``;``)."""
    return bool(_ENDS_SENTENCE.search(text.rstrip()))


def wrapped_runs(numbered: list[tuple[int, str]]) -> dict[int, int]:
    """Line number to its run's column width, for the lines of wrapped runs (other lines absent)."""
    widths: dict[int, int] = {}
    run: list[tuple[int, str]] = []
    for number, text in [*numbered, (-1, "")]:
        if run and number == run[-1][0]:
            continue  # a second piece of one line
        if run and number == run[-1][0] + 1:
            run.append((number, text))
            continue
        if len(run) >= 3 and _wrapped([t.strip() for _, t in run]):
            width = max(len(t.strip()) for _, t in run)
            widths.update((n, width) for n, _ in run)
        run = [(number, text)]
    return widths


def _wrapped(run: list[str]) -> bool:
    """Whether a run's lines are wrapped text: a good share stop mid-sentence (`WRAPPED_SHARE`), nearly all
    of those nearly full (`FULL`: a title block's short lines are not wrapped text)."""
    width = max(len(t) for t in run)
    stops = [t for t in run[:-1] if not ends_sentence(t)]
    full = sum(1 for t in stops if len(t) >= FULL * width)
    return len(stops) >= 2 and len(stops) >= WRAPPED_SHARE * (len(run) - 1) and full >= NEARLY_ALL * len(stops)


def continues(previous: str, length: int, text: str, width: int) -> bool:
    """Whether ``text`` continues the paragraph of the line ``previous`` (``length`` characters as
    printed), in a run ``width`` wide."""
    line = text.strip()
    if not line or _BULLET.match(line) or _caps(line) or _caps(previous):
        return False
    if not ends_sentence(previous):
        return True
    first_word = line.split()[0]
    return length + 1 + len(first_word) > width


def _caps(text: str) -> bool:
    """An ALL-CAPS line (a heading, ``SUCCESS!``): never joined to its neighbours."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 3 and not any(c.islower() for c in letters)


def join(previous: str, text: str) -> str:
    """Two wrapped lines as one (a word hyphenated at the line's end keeps its hyphen, no space)."""
    head, tail = previous.rstrip(), text.strip()
    return head + tail if _HYPHENATED.search(head) else f"{head} {tail}"


def paragraphs(lines: list[tuple[int, str]], widths: dict[int, int], printed: dict[int, int]) -> list[str]:
    """The paragraphs of an entry's lines (line number, text), wrapped lines joined; ``printed`` gives
    each line's length as printed (a first line's headword included)."""
    out: list[str] = []
    last, previous = -1, ""
    for number, text in lines:
        width = widths.get(number, 0)
        joined = out and width and number == last + 1 and widths.get(last)
        if joined and continues(previous, printed.get(last, len(previous)), text, width):
            out[-1] = join(out[-1], text)
        else:
            out.append(text)
        last, previous = number, text
    return out


def undrop_capital(text: str) -> str:
    """``T his document`` (a drop capital set apart by the PDF's text) as ``This document``."""
    return _DROP_CAP.sub(r"\1\2", text, count=1)
