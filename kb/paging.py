"""The budget of a long answer (a diff, the knowledge base as of a date, a deck, the feed): one
page of its items at a time, bounded in items and in work.

A long answer first lists its items cheaply (which topics changed, which cards a deck names),
then makes only the items of the asked page (their text, parts, word diffs), as the search
budget (`kb.budget`) bounds a search:

- a page holds at most ``size`` items (`SIZE` unless asked, at most `MAX_SIZE`);
- making a page's items stops once they have cost the page's work (`WORK` units unless asked:
  an item weighs what its maker says, a deck's card one plus its rulings) — always after at
  least one item — and the page ends there. The work is counted, not timed, so a page is the
  same on a loaded server as on an idle one; the answering thread's CPU time
  (`time.thread_time`) is only a safety limit, `SECONDS`, far above what `WORK` costs;
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
WORK = 400
"""Work units making a page's items may cost before the page ends (an item weighs at least one):
400 (it was 1,000, under which a page of 1,000 diff items or 250 deck cards took 1.0-2.35 s of CPU
on the 90k library, half of it making the items and half rendering them; issue 48, item 9)."""
SECONDS = 5.0
"""CPU time of the answering thread after which a page ends whatever its work: a safety limit only
(a page of `WORK` units costs well under a second); when it strikes, the answer depends on the load."""

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
    """Which page of a long answer to make: its first item, at most how many items (None: all,
    with no limit of work or time) and at most how much work (`WORK`)."""

    offset: int = 0
    size: int | None = SIZE
    work: int = WORK


FIRST = Paging()
"""The first page, of `SIZE` items (the default of every paged answer)."""
EVERYTHING = Paging(0, None)
"""Every item in one page (the static export)."""


def page_of(
    items: Sequence[Item],
    paging: Paging,
    make: Callable[[Item], Made],
    weigh: Callable[[Made], int] = lambda _: 1,
) -> tuple[list[Made], PageFacts]:
    """``make`` of each item of the page of ``items`` that ``paging`` asks (at least one item;
    until the items made ``weigh`` the page's work in all, or `SECONDS` of this thread's CPU time
    are spent), and the page's facts."""
    start = min(max(paging.offset, 0), len(items))
    end = len(items) if paging.size is None else min(len(items), start + max(paging.size, 1))
    deadline = None if paging.size is None else time.thread_time() + SECONDS
    made: list[Made] = []
    spent = 0
    for item in items[start:end]:
        if made and deadline is not None and (spent >= paging.work or time.thread_time() > deadline):
            break
        made.append(make(item))
        spent += max(1, weigh(made[-1]))
    stop = start + len(made)
    return made, {"offset": start, "size": len(made), "total": len(items), "next": stop if stop < len(items) else None}
