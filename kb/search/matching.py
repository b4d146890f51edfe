"""Which versions of a topic document of the history index (`kb.index.history`) a query
matches: each version's words stand from position ``k * STRIDE`` on, so a query is evaluated
on the positions of each version, not on the whole document."""

from __future__ import annotations

from typing import Any

from whoosh import query
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher

from kb.layout import STRIDE, Span


class Positions:
    """The positions of query words in topic documents visited in increasing order."""

    def __init__(self, searcher: Searcher) -> None:
        self.reader = searcher.reader()
        self.matchers: dict[tuple[str, str], Any] = {}

    def of(self, fieldname: str, word: Any, docnum: int) -> list[int]:
        key = (fieldname, word)
        if key not in self.matchers:
            if fieldname not in self.reader.schema:
                return []
            try:
                self.matchers[key] = self.reader.postings(fieldname, word)
            except TermNotFound:
                self.matchers[key] = None
        matcher = self.matchers[key]
        if matcher is None or not matcher.is_active():
            return []
        if matcher.id() < docnum:
            matcher.skip_to(docnum)
        if not matcher.is_active() or matcher.id() != docnum:
            return []
        found: list[int] = matcher.value_as("positions")
        return found


def versions_matching(built: query.Query, docnum: int, positions: Positions, keep: set[int] | None = None) -> set[int]:
    """The versions (numbered from 0 within the topic) of topic document ``docnum`` that
    ``built`` matches, among those numbered ``keep`` (all when None: a narrower ``keep``
    only saves work, the answer is the same as the whole one's, within ``keep``)."""
    if built is query.NullQuery or keep == set():
        return set()
    if isinstance(built, query.Term):
        found = {p // STRIDE for p in positions.of(built.fieldname, built.text, docnum)}
        return found if keep is None else found & keep
    if isinstance(built, query.Phrase):
        return _phrase(built, docnum, positions, keep)
    if isinstance(built, query.AndNot):
        matched = versions_matching(built.a, docnum, positions, keep)
        return matched - versions_matching(built.b, docnum, positions, matched) if matched else matched
    if isinstance(built, query.And):
        narrowed = keep
        for child in built.children():
            narrowed = versions_matching(child, docnum, positions, narrowed)
            if not narrowed:
                return set()
        return narrowed or set()
    if isinstance(built, query.Or):
        return set().union(*(versions_matching(child, docnum, positions, keep) for child in built.children()))
    raise TypeError(f"the history index cannot evaluate {type(built).__name__}")


def _phrase(built: query.Phrase, docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
    """Versions where the phrase's words stand at consecutive positions (Whoosh's Phrase, slop 1)."""
    starts = {p for p in positions.of(built.fieldname, built.words[0], docnum) if keep is None or p // STRIDE in keep}
    for offset, word in enumerate(built.words[1:], start=1):
        if not starts:
            break
        at = set(positions.of(built.fieldname, word, docnum))
        starts = {p for p in starts if p + offset in at}
    return {p // STRIDE for p in starts}


def loosened(built: query.Query) -> query.Query:
    """``built`` with each phrase replaced by all its words: it matches at least the same
    topics, and ranks them without reading positions (the phrase is checked in `versions_matching`)."""
    if isinstance(built, query.Phrase):
        return query.And([query.Term(built.fieldname, w) for w in built.words])
    if isinstance(built, query.AndNot):
        return query.AndNot(loosened(built.a), built.b)  # what is excluded stays exact
    if built.is_leaf():
        return built
    return built.apply(loosened)


def in_force(span: Span, day: int | None) -> bool:
    """Whether a version was in force on ``day`` (every version when None)."""
    return day is None or span[1] <= day < span[2]
