"""The work one search may do: caps on query parts, term expansions and documents examined.

A query is bounded before it runs and while it runs, so no request can hold a server
thread for long whatever is typed:

- repeated parts are searched once and at most `PARTS` parts (words, phrases) are read;
- a prefix needs `MIN_PREFIX` characters (``t*`` is the word ``t``);
- a prefix (``ship*``) expands, per field, to at most `EXPANSIONS` index terms: the most
  frequent among the first `SCAN` the index lists;
- the query as run holds at most `TERMS` leaf terms; parts beyond are left out;
- at most `CORRECTED` unknown words are spelling-corrected;
- collection stops after `DOCUMENTS` matching documents examined (all its passes included),
  and the best hits found so far are returned, marked partial. The budget counts the search's
  own work, never a clock, so the answer a client gets does not depend on what other requests
  ask at the same time: the searching thread's CPU time (`time.thread_time`) shares caches and
  cores with the other threads and grew 0.041 s → 0.048–0.061 s for the same search beside 7
  busy threads. `SECONDS` of that CPU time stays only as a safety limit, many times what
  `DOCUMENTS` costs; only when it strikes does an answer depend on the load.

`Work` records what a query did, so tests bound the work rather than the time. The search side
hands its plans and open indexes to `expanded`, `collected` and `ranking`, which run them
within the budget and give back the engine's query, Whoosh's results, or plain pairs.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kb.asking import RESULTS as RESULTS  # a search's reach over all its pages, read here as budget.RESULTS
from kb.engine.handles import Built, Index, searcher_of
from kb.engine.planning import engine_query
from kb.engine.searching import collectors, query
from kb.engine.steady import SteadyAll, SteadyTop, steady
from kb.engine.weighting import live_frequency
from kb.plan import Node

PARTS = 12
"""Query parts (words, phrases, field terms) read; the rest are left out."""
MIN_PREFIX = 2
"""Characters a prefix needs before ``*`` expands it."""
EXPANSIONS = 16
"""Index terms one prefix or misspelt word expands to, per field."""
SCAN = 2000
"""Index terms read to choose those expansions."""
TERMS = 96
"""Leaf terms in the whole query as run."""
CORRECTED = 4
"""Unknown words spelling-corrected (each compared with the known words of its first letter)."""
DOCUMENTS = 40_000
"""Matching documents examined before collection stops."""
SECONDS = 5.0
"""CPU time of the searching thread after which collection stops whatever its work: a safety limit,
far above what examining `DOCUMENTS` costs (answers are bounded by work, not time)."""


@dataclass
class Work:
    """What one search did: its leaf terms after expansion and the documents it examined.
    One `Work` is shared by every collection of a search, so they share its deadline."""

    deadline: float = field(default_factory=lambda: time.thread_time() + SECONDS)
    """On the `time.thread_time` clock of the thread that searches (a `Work` is not shared across threads)."""
    documents: int = DOCUMENTS
    terms: int = 0
    examined: int = 0
    capped: bool = False
    """A prefix or misspelt word had more expansions than were searched."""
    stopped: bool = False
    """Collection stopped early (documents or time): better hits may exist."""
    left_out: list[str] = field(default_factory=list)
    """Query parts not searched (over `PARTS` or `TERMS`)."""
    postings: dict[Any, Any] = field(default_factory=dict)
    """The postings read whole (`kb.engine.bulk`), shared by the passes of the search."""


def expand(built: query.Query, reader: Any, work: Work) -> query.Query:
    """``built`` with every prefix and fuzzy term replaced by the index terms it stands for
    (at most `EXPANSIONS` per field); counts the leaf terms into ``work``."""
    if isinstance(built, (query.Prefix, query.FuzzyTerm)):
        if isinstance(built, query.Prefix):
            found = reader.expand_prefix(built.fieldname, built.text)
        else:
            found = reader.terms_within(built.fieldname, built.text, built.maxdist, prefix=built.prefixlength)
        if reader.has_deletions():  # a word only replaced documents hold is no longer in the index
            found = (w for w in found if live_frequency(reader, built.fieldname, w))
        candidates = list(itertools.islice(found, SCAN + 1))
        work.capped |= len(candidates) > EXPANSIONS
        chosen = _most_frequent(reader, built.fieldname, candidates[:SCAN])
        decode = reader.schema[built.fieldname].from_bytes
        terms = [query.Term(built.fieldname, w if isinstance(w, str) else decode(w)) for w in chosen]
        work.terms += len(terms)
        return query.Or(terms) if len(terms) > 1 else (terms[0] if terms else query.NullQuery)
    if built.is_leaf():
        work.terms += leaf_terms(built)
        return built
    return built.apply(lambda child: expand(child, reader, work))


def expanded(node: Node, index: Index, work: Work) -> Built:
    """The engine's query of the plan ``node`` (`kb.engine.planning.engine_query`), its prefixes
    expanded over ``index`` (`expand`), counted into ``work``."""
    built: Built = expand(engine_query(node), searcher_of(index).reader(), work)
    return built


def _most_frequent(reader: Any, fieldname: str, candidates: list[Any]) -> list[Any]:
    if len(candidates) <= EXPANSIONS:
        return sorted(candidates)
    count = live_frequency if reader.has_deletions() else lambda r, f, w: r.doc_frequency(f, w)
    ranked = sorted(candidates, key=lambda w: (-count(reader, fieldname, w), w))
    return sorted(ranked[:EXPANSIONS])


def leaf_terms(built: query.Query) -> int:
    """The index terms a built query names (a phrase counts each word); a prefix or fuzzy
    term not yet expanded counts as the `EXPANSIONS` it may become."""
    if isinstance(built, (query.Prefix, query.FuzzyTerm)):
        return EXPANSIONS
    if isinstance(built, query.Phrase):
        return len(built.words)
    if built.is_leaf():
        return 0 if built is query.NullQuery else 1
    return sum(leaf_terms(child) for child in built.children())


CLOCKED = 32
"""Documents between two readings of the clock: a read of the thread's CPU time is a system
call of about 4 µs, the same order as scoring a document."""


class BudgetCollector(collectors.WrappingCollector):  # type: ignore[misc]
    """Stops collection after the work's documents (`DOCUMENTS`) or at its deadline (read every
    `CLOCKED` documents), keeping the hits so far.

    Unlike Whoosh's TimeLimitCollector it needs no signal (so it works in any thread):
    it simply stops handing on matches, and the search returns what it has."""

    def __init__(self, child: Any, work: Work) -> None:
        super().__init__(child)
        self.work = work

    def matches(self) -> Iterator[int]:
        for docnum in self.child.matches():
            if self.work.examined >= self.work.documents or (
                self.work.examined % CLOCKED == 0 and time.thread_time() > self.work.deadline
            ):
                self.work.stopped = True
                return
            self.work.examined += 1
            yield docnum


def collector(limit: int, allowed: set[int] | None, work: Work) -> Any:
    """A collector of the ``limit`` best hits among the ``allowed`` documents (all when None),
    recording matched terms (for snippets), within the budget; the same hits in the same order
    whatever the index's segments (`kb.engine.steady`)."""
    inner = BudgetCollector(collectors.TermsCollector(SteadyTop(limit)), work)
    return collectors.FilterCollector(inner, allowed, None) if allowed is not None else inner


def collected(index: Index, built: query.Query, limit: int, allowed: set[int] | None, work: Work) -> Any:
    """Whoosh's ``Results`` of the ``limit`` best documents of ``index`` that ``built`` matches
    among the ``allowed`` (all when None), by Whoosh's matchers (a shape `kb.engine.bulk` leaves
    to them), within the budget (`collector`)."""
    found = collector(limit, allowed, work)
    searcher_of(index).search_with_collector(steady(built), found)
    return found.results()


def ranking(index: Index, loose: query.Query, depth: int | None, work: Work) -> list[tuple[int, float]]:
    """The ``depth`` topic documents of ``index`` (the history index) ``loose`` scores best (all
    when None), best first (ties: the topic of the earlier first version first,
    `kb.engine.steady`), as (document number, score), by Whoosh's matchers, within the budget.

    Asking for the best few is much cheaper than scoring every topic: Whoosh then drops the
    parts of the query that can no longer lift a topic into the best ``depth`` (a word's
    rarely used fields, say) and skips the topics only they match. That pays when nearly
    every topic ranked is kept (`kb.search.history.topics` asks again, deeper, when not); when
    many are passed over (a phrase's words apart, nothing in force on the date) ranking all at once does."""
    inner = SteadyAll() if depth is None else SteadyTop(depth)
    found = BudgetCollector(inner, work)
    searcher_of(index).search_with_collector(steady(loose), found)
    return [(docnum, score) for score, docnum in found.results().top_n]
