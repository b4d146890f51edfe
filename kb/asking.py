"""What a search may ask, in one place for the command line, the web app and the docs: the kinds
a search or diff may be limited to and the other words accepted for them (`kb.vocabulary`), the
results a page and the pages (`RESULTS` results at most), the searches offered to a person
who typed none, the lines of a document a citation may mark (`cited_lines`), and a text's
paragraphs and sentences as the build splits them (`kb.sentences`: a hit shows its best). It loads no
search engine: the command line reads it before any engine is imported (`kb.engine` checks
Whoosh as it loads, and its one-line refusal must come from `main`)."""

from __future__ import annotations

import re

from kb.sentences import paragraphs, sentences
from kb.vocabulary import SERIES_KINDS, kinds_text

KINDS = SERIES_KINDS
"""The kinds a search or a diff may be limited to (``--kind``, ``?kind=``, ``kind:``); `kinds_text`
says them with the other words taken for them."""
__all__ = [
    "EXAMPLES",
    "KINDS",
    "LIMIT",
    "MAX_LIMIT",
    "RESULTS",
    "cited_lines",
    "kinds_text",
    "limit_problem",
    "page_problem",
    "pages",
    "paragraphs",
    "sentences",
]
RESULTS = 200
"""Results a search reaches at most, over all its pages (`kb.engine.budget` holds searches to it)."""
LIMIT = 20
"""Results a page unless another number is asked."""
MAX_LIMIT = 100
"""The most results a page may hold."""
EXAMPLES = ("conundrum target", "damaged ship", 'card:"Cha\'Joh"')
"""Searches offered when none was typed (the search page, ``rulings search ""``)."""


def pages(limit: int) -> int:
    """The last page of results of ``limit`` a page."""
    return max(1, RESULTS // limit)


def limit_problem(limit: int) -> str | None:
    """Why ``limit`` results a page cannot be asked, or None."""
    return None if 1 <= limit <= MAX_LIMIT else f"results a page are 1 to {MAX_LIMIT}, not {limit}"


def page_problem(page: int, limit: int) -> str | None:
    """Why page ``page`` of ``limit`` results cannot be asked, or None."""
    last = pages(limit)
    if 1 <= page <= last:
        return None
    return f"the pages of {limit} results are 1 to {last} ({RESULTS} results at most), not {page}"


_LINES = re.compile(r"([0-9]{1,9})(?:-([0-9]{1,9}))?")
NO_LINES = (0, -1)
"""The lines marked when none are asked: none."""


def cited_lines(value: str) -> tuple[tuple[int, int], str | None]:
    """The first and last line of ``N`` or ``N-M`` (`NO_LINES` when empty or bad; ``?lines=``,
    ``rulings docs ID --lines``), and what is wrong with a bad one (None when nothing is)."""
    value = value.strip()
    marked = _LINES.fullmatch(value)
    if not marked:
        wrong = f"lines: expected a line number or a range such as 79-83, got {value[:40]!r}" if value else None
        return NO_LINES, wrong
    low, high = int(marked[1]), int(marked[2] or marked[1])
    if low < 1:
        return NO_LINES, f"lines: lines are numbered from 1, got {value!r}"
    if high < low:
        return NO_LINES, f"lines: a range ends at or after its first line (such as 79-83), got {value!r}"
    return (low, high), None


def lines_beyond(low: int, high: int, count: int) -> str | None:
    """Why lines ``low``-``high`` (`cited_lines`) are not lines of a document of ``count`` lines, or None."""
    if (low, high) == NO_LINES or high <= count:
        return None
    return f"lines: the document has {count} lines, not {high}"
