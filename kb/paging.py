"""The budget of a long answer (a diff, the knowledge base as of a date, a deck, the feed): one
page of its items at a time, bounded in items and in work.

A long answer first lists its items cheaply (which topics changed, which cards a deck names),
then makes only the items of the asked page (their text, parts, word diffs), as the search
budget (`kb.budget`) bounds a search:

- a page holds at most ``size`` items (`SIZE` unless asked, at most `MAX_SIZE`);
- making a page's items stops once the answering thread has spent `SECONDS` of its own CPU
  time (`time.thread_time`, so other requests on a loaded server do not shorten a page and
  change the answer) — always after at least one item — and the page ends there;
- every answer says where its page starts, how many items there are in all, and where the
  next page starts (None on the last), so a reader goes on from there.

``size=None`` (`EVERYTHING`) makes every item in one page with no time limit: the static
export writes whole answers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict, TypeVar

SIZE = 100
"""Items in a page unless another size is asked."""
MAX_SIZE = 1000
"""The largest page that may be asked."""
SECONDS = 0.5
"""CPU time of the answering thread that making a page's items may take before the page ends."""

Item = TypeVar("Item")
Made = TypeVar("Made")


class PageFacts(TypedDict):
    """Where a page of a long answer stands among all its items."""

    offset: int
    """The first item of this page (0: the first of all)."""
    size: int
    """Items in this page."""
    total: int
    """Items in all pages."""
    next: int | None
    """The offset of the next page, None on the last."""


@dataclass(frozen=True)
class Paging:
    """Which page of a long answer to make: its first item and at most how many items
    (None: all, with no time limit)."""

    offset: int = 0
    size: int | None = SIZE


FIRST = Paging()
"""The first page, of `SIZE` items (the default of every paged answer)."""
EVERYTHING = Paging(0, None)
"""Every item in one page (the static export)."""


def page_of(items: Sequence[Item], paging: Paging, make: Callable[[Item], Made]) -> tuple[list[Made], PageFacts]:
    """``make`` of each item of the page of ``items`` that ``paging`` asks (within `SECONDS`
    of this thread's CPU time, at least one item), and the page's facts."""
    start = min(max(paging.offset, 0), len(items))
    end = len(items) if paging.size is None else min(len(items), start + max(paging.size, 1))
    deadline = None if paging.size is None else time.thread_time() + SECONDS
    made: list[Made] = []
    for item in items[start:end]:
        if made and deadline is not None and time.thread_time() > deadline:
            break
        made.append(make(item))
    stop = start + len(made)
    return made, {"offset": start, "size": len(made), "total": len(items), "next": stop if stop < len(items) else None}
