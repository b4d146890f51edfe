"""Pages joined with their page numbers: where a page number skips pages, continuity is broken.

A copy that joins a PDF's pages keeps a page-number line before each (``- 22 -``, ``Page 22``,
``Page 22 of 180``). Consecutive numbers join: the next page's first lines continue the entry the
previous page ended in. A number that skips pages (``- 22 -`` then ``- 24 -``) means the text
between is not in the file, so the next page's opening text cannot be appended to the previous
page's last entry: parsers read each such page as a fresh start (`PagedText.gaps`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.source import SourceText

_PAGE_NUMBER = re.compile(r"^(?:[-\u2013] (?P<dashed>\d+) [-\u2013]|(?i:Page) (?P<page>\d+)(?: of \d+)?)$")


@dataclass(frozen=True)
class Gap:
    """A page number that does not follow the one before it."""

    line: int
    """The 1-based line of the page number."""
    before: int
    """The page number before it."""
    page: int
    """This page's number."""

    def missing(self) -> str:
        """The pages not in the file, as ``23`` or ``13-17`` (empty when the numbers go backwards)."""
        first, last = self.before + 1, self.page - 1
        if last < first:
            return ""
        return f"{first}" if first == last else f"{first}-{last}"


@dataclass(frozen=True)
class PagedText(SourceText):
    """A decoded document with the page-number gaps found in it."""

    gaps: tuple[Gap, ...] = field(default=())
    """Each page number that skips pages, in line order."""


def page_number(text: str) -> int | None:
    """The page number a line is (``- 22 -``, ``Page 22 of 180``), else None."""
    match = _PAGE_NUMBER.match(text.strip())
    if match is None:
        return None
    return int(match["dashed"] or match["page"])


def gaps(lines: list[str]) -> tuple[Gap, ...]:
    """The page numbers of ``lines`` that do not follow the page number before them."""
    found: list[Gap] = []
    before: int | None = None
    for index, text in enumerate(lines):
        page = page_number(text)
        if page is None:
            continue
        if before is not None and page != before + 1:
            found.append(Gap(index + 1, before, page))
        before = page
    return tuple(found)
