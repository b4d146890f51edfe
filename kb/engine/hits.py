"""The documents a search of the versions in force found, as the search side holds them: each a
`Scored`, its document number and score plain, the rest asked of the engine (a stored field:
`stored`; the terms it matched: `matched`; its snippet: `snippet_of`), which alone reads the
Whoosh hit it wraps. `found` runs a plan as run (`kb.engine.handles.Built`) in bulk
(`kb.engine.bulk.hits`), or by Whoosh's matchers for a shape left to them (`kb.engine.budget.collected`);
`counted` tells how many documents a plan matches, up to a number."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from kb.engine import budget, bulk
from kb.engine.handles import Built, Index, searcher_of
from kb.engine.highlighting import snippet
from kb.engine.searching import Hit


@dataclass(frozen=True)
class Scored:
    """One document found: its number in the index searched, its score, and Whoosh's hit (this
    module's to read: its stored fields are read once, on first asking, then kept with it)."""

    docnum: int
    score: float
    _hit: Hit = field(repr=False, compare=False)


def found(index: Index, built: Built, limit: int, allowed: set[int] | None, work: budget.Work) -> list[Scored]:
    """The ``limit`` best documents of ``index`` that ``built`` matches among the ``allowed``
    (all when None), best first, within the budget; each knows the terms it matched (`matched`)
    and its snippet marks those any of them matched in the text field (`snippet_of`)."""
    results = bulk.hits(index, built, limit, allowed, work)
    if results is None:  # a shape Whoosh's matchers evaluate
        results = budget.collected(index, built, limit, allowed, work)
    return [Scored(hit.docnum, hit.score, hit) for hit in results]


def stored(document: Scored, name: str) -> Any:
    """The stored field ``name`` of ``document`` (all its stored fields read on the first asking)."""
    return document._hit[name]


def matched(document: Scored) -> set[tuple[str, str]]:
    """The (field, term) pairs ``document`` matched of the plan run."""
    return {(f, t.decode() if isinstance(t, bytes) else t) for f, t in document._hit.matched_terms()}


def snippet_of(document: Scored) -> str:
    """The highlighted snippet of ``document``'s text (`kb.engine.highlighting.snippet`)."""
    return snippet(document._hit)


def counted(index: Index, built: Built, most: int) -> int:
    """How many documents of ``index`` (up to ``most``) ``built`` matches: counted from the
    postings read whole (`kb.engine.bulk.evaluate`, the deleted documents masked out as they
    are read), or by Whoosh's matchers for a shape left to them."""
    found = bulk.evaluate(index, built, terms=False) if bulk.ENABLED else None
    if found is not None:
        return min(len(found[0].ids), most)
    return sum(1 for _ in itertools.islice(searcher_of(index).docs_for_query(built), most))
