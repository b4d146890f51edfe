"""The layout of the Whoosh indexes that both sides rely on: how a version's dates are stored
(days, `NEVER` for an open end) and how the history index (`kb.index.history`) places the k-th
version of a topic from position ``k * STRIDE`` on, versions separated by `MARK` in a field's
text. Writers (`kb.index.writer`) and readers (`kb.search.in_force`) take these from here."""

from __future__ import annotations

import datetime as dt

NEVER = dt.date.max.toordinal()
"""valid_to of a version still in force (and valid_from of one pending)."""


STRIDE = 1 << 20
"""Positions given to each version of a topic (its words and the folded parts of compounds)."""
MARK = "\u241e"
"""Separates two versions in a field's text (never a word)."""
Span = tuple[int, int, int]
"""(version id, first day in force, first day no longer in force), as `days` gives them."""


def days(valid_from: dt.date | None, valid_to: dt.date | None) -> tuple[int, int]:
    """The first day in force and the first day no longer in force, as the index stores them."""
    return valid_from.toordinal() if valid_from else NEVER, valid_to.toordinal() if valid_to else NEVER
