"""Which versions of a topic document of the history index (`kb.index.history`) a query
matches: each version's words stand from position ``k * STRIDE`` on, so a query is evaluated
on the positions of each version, not on the whole document, read from a word's postings
(its matcher stepped to each topic asked about). Engine machinery: the search side
(`kb.search.history`) says which topics to check, and in which order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any

from whoosh import query
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher

from kb.engine import memo
from kb.layout import STRIDE


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

    def versions(self, fieldname: str, word: Any, docnum: int) -> frozenset[int]:
        """The versions of topic document ``docnum`` holding ``word`` in ``fieldname``."""
        return frozenset({p // STRIDE for p in self.of(fieldname, word, docnum)})


class Words:
    """The words of a search (each a query), found where they stand inside the search's query:
    the versions of a topic each matches are found once, for the query and for the count of
    the words a version matches (`kb.search.history.topics`)."""

    def __init__(self, built: query.Query, words: list[query.Query]) -> None:
        self.words = words
        self.checks = [matcher(word) for word in words]
        self.at = {id(node): i for node in _nodes(built) for i, word in enumerate(words) if node == word}
        self.docnum = -1
        self.found: dict[int, set[int]] = {}

    def versions(self, i: int, docnum: int, positions: Positions) -> set[int]:
        """The versions of topic document ``docnum`` word ``i`` matches."""
        if docnum != self.docnum:
            self.docnum, self.found = docnum, {}
        if i not in self.found:
            self.found[i] = self.checks[i](docnum, positions, None)
        return self.found[i]


def _nodes(built: query.Query) -> Iterator[query.Query]:
    yield built
    if not built.is_leaf():
        for child in built.children():
            yield from _nodes(child)


Check = Callable[[int, Positions, "set[int] | None"], set[int]]
"""The versions of a topic document a query matches, among those kept (`matcher`)."""


def matcher(
    built: query.Query, words: Words | None = None, cost: Callable[[query.Query], float] | None = None
) -> Check:
    """A function giving the versions (numbered from 0 within the topic) of a topic document
    (``docnum``) that ``built`` matches, among those numbered ``keep`` (all when None: a
    narrower ``keep`` only saves work, the answer is the same as the whole one's, within
    ``keep``); a part of ``built`` that is one of ``words`` is found through them (once a
    topic). The query's shape is read once for all the topics a search checks, not again at
    each of them (a search as of a date checks hundreds). With ``cost`` (how much of the
    postings a part reads: `rarity`), the parts that must all match are checked the cheapest
    first: most topics fail there, and the others are not read for them."""
    if built is query.NullQuery:
        return _nothing
    if words is not None and (i := words.at.get(id(built))) is not None:
        return _held(lambda docnum, positions: words.versions(i, docnum, positions))
    if isinstance(built, query.Term):
        fieldname, text = built.fieldname, built.text
        return _held(lambda docnum, positions: positions.versions(fieldname, text, docnum))
    if isinstance(built, query.Phrase):
        return lambda docnum, positions, keep: set() if keep == set() else _phrase(built, docnum, positions, keep)
    if isinstance(built, query.AndNot):
        return _and_not(matcher(built.a, words, cost), matcher(built.b, words, cost))
    if isinstance(built, query.And):
        children = sorted(built.children(), key=cost) if cost is not None else list(built.children())
        return _and([matcher(child, words, cost) for child in children])
    if isinstance(built, query.Or):
        if (terms := _terms(built)) is not None:
            return _any_term(terms)
        return _or([matcher(child, words, cost) for child in built.children()])
    raise TypeError(f"the history index cannot evaluate {type(built).__name__}")


def rarity(searcher: Searcher) -> Callable[[query.Query], float]:
    """How many postings a query's words hold in the index of ``searcher`` (each word's
    occurrences, over the fields it is searched in): what checking it reads. Each word's
    count is read once, into the table the searchers of one index share (`kb.engine.memo`,
    ``frequency``)."""
    kept = memo.of(searcher).frequency
    reader = searcher.reader()

    def cost(built: query.Query) -> float:
        if isinstance(built, query.Term):
            if built.fieldname not in reader.schema:
                return 0.0
            key = (built.fieldname, built.text)
            found = kept.get(key)
            return found if found is not None else kept.put(key, float(reader.frequency(*key)))
        if isinstance(built, query.Phrase):
            return sum(cost(query.Term(built.fieldname, word)) for word in built.words)
        if built.is_leaf():
            return 0.0
        return sum(cost(child) for child in built.children())

    return cost


def _nothing(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
    return set()


def _held(versions: Callable[[int, Positions], AbstractSet[int]]) -> Check:
    """The check of a word: the versions holding it (``versions`` of the topic document and its
    positions), among those kept."""

    def check(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
        if keep == set():
            return set()
        found = versions(docnum, positions)
        return set(found) if keep is None else keep & found

    return check


def _and_not(a: Check, b: Check) -> Check:
    def check(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
        if keep == set():
            return set()
        matched = a(docnum, positions, keep)
        return matched - b(docnum, positions, matched) if matched else matched

    return check


def _and(children: list[Check]) -> Check:
    def check(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
        if keep == set():
            return set()
        narrowed = keep
        for child in children:
            narrowed = child(docnum, positions, narrowed)
            if not narrowed:
                return set()
        return narrowed or set()

    return check


def _or(children: list[Check]) -> Check:
    def check(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
        if keep == set():
            return set()
        return set().union(*[child(docnum, positions, keep) for child in children])

    return check


def _terms(built: query.Query) -> list[tuple[str, Any]] | None:
    """The (field, word) of each term of an Or made of terms alone (or of such Ors: a word over
    its fields, with its inflections); None for another shape."""
    if isinstance(built, query.Term):
        return [(built.fieldname, built.text)]
    if not isinstance(built, query.Or):
        return None
    found: list[tuple[str, Any]] = []
    for child in built.children():
        terms = _terms(child)
        if terms is None:
            return None
        found += terms
    return found


def _any_term(terms: list[tuple[str, Any]]) -> Check:
    """The check of an Or of ``terms``: the versions holding any of them, among those kept (as
    `_or` of each term's `_held`, in one call a topic rather than four a term)."""

    def check(docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
        if keep == set():
            return set()
        found: set[int] = set()
        for fieldname, text in terms:
            found.update(positions.versions(fieldname, text, docnum))
        return found if keep is None else found & keep

    return check


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
    topics, and ranks them without reading positions (the phrase is checked by `matcher`)."""
    if isinstance(built, query.Phrase):
        return query.And([query.Term(built.fieldname, w) for w in built.words])
    if isinstance(built, query.AndNot):
        return query.AndNot(loosened(built.a), built.b)  # what is excluded stays exact
    if built.is_leaf():
        return built
    return built.apply(loosened)
