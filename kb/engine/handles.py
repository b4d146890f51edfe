"""An open index as the search side holds it: an `Index`, a type whose one member is `close`
(its owner closes it: `kb.read.reader.Reader.own`). The search side only hands it back to the
engine's functions (`kb.engine.bulk`, `kb.engine.budget`, `kb.engine.memo`, `kb.engine.opening`,
`kb.engine.version_keys`, `kb.engine.version_matching`...); they alone take the Whoosh searcher
it is (`searcher_of`), so the search side calls none of Whoosh's methods (mypy holds it to
that) and no module outside the engine names `searcher_of` (`tests/test_layers.py`). A plan as
the engine runs it (its query, prefixes expanded) is held alike, as a `Built`."""

from __future__ import annotations

from typing import Protocol

from whoosh.searching import Searcher


class Index(Protocol):
    """One thread's open index (`kb.engine.opening.opened`), as the search side holds it: it asks
    nothing of it, it hands it to the engine's functions, which ask the searcher it is
    (`searcher_of`); its owner closes it."""

    def close(self) -> None: ...


class Built(Protocol):
    """A plan as the engine runs it, its prefixes expanded (`kb.engine.budget.expanded`), as the
    search side holds it: it asks nothing of it (but whether two are equal), it hands it back to
    the engine's functions."""


def searcher_of(index: Index) -> Searcher:
    """The Whoosh searcher ``index`` is, for the engine's functions (never the search side's)."""
    if not isinstance(index, Searcher):
        raise TypeError(f"not an index the engine opened: {type(index).__name__}")
    return index
