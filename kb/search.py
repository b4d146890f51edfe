"""Search a knowledge base: questions and keywords over the Whoosh index, best answer first.

A query is read by `kb.questions.read_query`. Its content words are not all required:
versions matching every word come first, then those matching most of them (BM25F within
each group, headword and card-name hits weighing most), so a question never dead-ends while
one of its words matches. A word the knowledge base has never seen is corrected against
its vocabulary (``commandering`` -> commandeering) and the answer says so. Explicit syntax
keeps its meaning: ``"..."`` is a phrase, ``card:``, ``kind:``, ``doc:``, ``game:`` and
``headword:`` restrict to a field, ``-word`` excludes, ``word*`` is a prefix. Anything
else a person types gives results or none, never an error.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whoosh import query
from whoosh.searching import Hit, Searcher

from kb import budget
from kb.answers import HistoryResult, SearchAnswer, SearchResult
from kb.index import name_analyzer, text_analyzer
from kb.paths import BuildError
from kb.questions import MAX_QUERY, Clause, Typed, Vocabulary, read_query
from kb.snippet import snippet
from kb.vocabulary import series_kind
from rulings.normalize import fold_quotes, headword_key

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

_NAMES = name_analyzer(joined=False)
_TEXT = text_analyzer(joined=False)
WORD_FIELDS = (("headword", _NAMES), ("headstem", _TEXT), ("cards", _NAMES), ("cardstem", _TEXT),
               ("text", _TEXT), ("extra", _TEXT))  # fmt: skip
"""Where a plain word may match, with the analyser that reads it."""
RERANK = 100
"""Versions matching only some of the words that are ranked by how many they match."""


def _terms(analyzer: Any, text: str) -> list[str]:
    return [t.text for t in analyzer(text)]


def word_query(word: str) -> query.Query | None:
    """One plain word in any searchable field (a compound must match all its parts)."""
    options = []
    for name, analyzer in WORD_FIELDS:
        terms = _terms(analyzer, word)
        if terms:
            options.append(
                query.And([query.Term(name, t) for t in terms]) if len(terms) > 1 else query.Term(name, terms[0])
            )
    return query.Or(options) if options else None


def _either(word: str, compound: str | None) -> query.Query | None:
    """A word, or the compound it makes with its neighbour."""
    alone = word_query(word)
    return query.Or([alone, word_query(compound)]) if compound and alone is not None else alone


def prefix_query(stem: str) -> query.Query | None:
    """A word typed with ``*``: any headword, card-name or text word starting with it (a
    prefix shorter than `budget.MIN_PREFIX` is the word itself)."""
    terms = _terms(_NAMES, stem)
    if len(terms) != 1 or len(terms[0]) < budget.MIN_PREFIX:
        return word_query(stem)
    return query.Or([query.Prefix(f, terms[0]) for f in ("headword", "cards", "text")])


def clause_query(clause: Clause) -> query.Query | None:
    """A phrase, a field restriction, or an excluded word."""
    if clause.field in ("kind", "doc", "game"):
        value = clause.text.strip().lower()
        return query.Term(clause.field, series_kind(value) if clause.field == "kind" else value) if value else None
    if not clause.phrase and clause.field is None:
        return word_query(clause.text)
    fields = [clause.field] if clause.field else ["headword", "cards", "text", "extra"]
    options = []
    for name in fields:
        terms = _terms(_TEXT if name in ("text", "extra") else _NAMES, clause.text)
        if terms:
            options.append(query.Phrase(name, terms) if len(terms) > 1 else query.Term(name, terms[0]))
    return query.Or(options) if options else None


@dataclass
class Plan:
    """A query as it will run: the parts every hit needs, the words ranked by how many match,
    the exclusions; parts over the budget are left out (``work.left_out``)."""

    required: list[query.Query] = field(default_factory=list)
    words: list[tuple[str, query.Query]] = field(default_factory=list)
    excluded: list[query.Query] = field(default_factory=list)


def plan(typed: Typed, game: str | None, kind: str | None, work: budget.Work) -> Plan:
    """Build ``typed`` into Whoosh queries, explicit parts first and exclusions last, while
    the leaf terms stay within `budget.TERMS`."""
    planned = Plan()
    spent = 0

    def afford(label: str, built: query.Query | None) -> bool:
        nonlocal spent
        if built is None:
            return False
        cost = budget.leaf_terms(built)
        if spent + cost > budget.TERMS:
            work.left_out.append(label)
            return False
        spent += cost
        return True

    for clause in typed.clauses:
        if not clause.negated and afford(clause.text, built := clause_query(clause)):
            planned.required.append(built)
    for stem in typed.prefixes:
        if afford(f"{stem}*", built := prefix_query(stem)):
            planned.required.append(built)
    for word in typed.words:
        if afford(word, built := _either(word, typed.joined.get(word))):
            planned.words.append((word, built))
    for clause in typed.clauses:
        if clause.negated and afford(f"-{clause.text}", built := clause_query(clause)):
            planned.excluded.append(built)
    if game:
        planned.required.append(query.Term("game", game))
    if kind:
        planned.required.append(query.Term("kind", series_kind(kind)))
    return planned


def _whole(plan: Plan, parts: list[query.Query], reader: Any, work: budget.Work) -> query.Query:
    both: query.Query = query.And(parts) if len(parts) > 1 else parts[0]
    if plan.excluded:
        both = query.AndNot(both, query.Or(plan.excluded))
    return budget.expand(both, reader, work)


def built_query(searcher: Searcher, typed: Typed, work: budget.Work) -> query.Query | None:
    """The query every word of ``typed`` must match, prefixes expanded within the budget
    (None: nothing to search); ``work`` gets the terms it holds."""
    planned = plan(typed, None, None, work)
    every = planned.required + [q for _, q in planned.words]
    return _whole(planned, every, searcher.reader(), work) if every else None


def run(
    searcher: Searcher, typed: Typed, allowed: set[int] | None, game: str | None, kind: str | None, limit: int,
    work: budget.Work | None = None,
) -> list[tuple[int, str]]:  # fmt: skip
    """(version id, highlighted snippet) of the best hits among the ``allowed`` documents (all
    when None): the versions matching every word first, then those matching the most; all
    within the budget (``work`` gets what the search did)."""
    work = work if work is not None else budget.Work()
    planned = plan(typed, game, kind, work)
    every = planned.required + [q for _, q in planned.words]
    if not (planned.words or typed.clauses or typed.prefixes) or not every:
        return []
    limit = max(1, min(limit, 200))
    reader = searcher.reader()
    found = _hits(searcher, _whole(planned, every, reader, work), allowed, limit, {}, work)
    if len(planned.words) > 1 and len(found) < limit and not work.stopped:
        some = _whole(planned, [*planned.required, query.Or([q for _, q in planned.words])], reader, work)
        counts = {w: {(f, t) for f, a in WORD_FIELDS for s in (w, typed.joined.get(w, w)) for t in _terms(a, s)}
                  for w, _ in planned.words}  # fmt: skip
        more = _hits(searcher, some, allowed, max(limit, RERANK), counts, work)
        seen = {hit["version"] for hit, _ in found}
        found += sorted((h for h in more if h[0]["version"] not in seen), key=lambda h: -h[1])
    return [(hit["version"], snippet(hit)) for hit, _ in found[:limit]]


def _hits(
    searcher: Searcher, whole: query.Query, allowed: set[int] | None, limit: int,
    words: dict[str, set[tuple[str, str]]], work: budget.Work,
) -> list[tuple[Hit, float]]:  # fmt: skip
    """The top hits with their rank; with ``words``, rank = words matched + a score below
    one, so a version matching more of the words always ranks higher. Snippets are made
    later, for the hits shown only."""
    collector = budget.collector(limit, allowed, work)
    searcher.search_with_collector(whole, collector)
    results = collector.results()
    top = max((hit.score for hit in results), default=1.0) or 1.0
    hits = []
    for hit in results:
        rank = hit.score
        if words:
            matched = {(f, t.decode() if isinstance(t, bytes) else t) for f, t in hit.matched_terms()}
            rank = sum(1 for terms in words.values() if terms & matched) + hit.score / (top * 1.001)
        hits.append((hit, rank))
    return hits


def correct(typed: Typed, vocabulary: Vocabulary) -> Typed | None:
    """``typed`` with each word the knowledge base does not know replaced by its likeliest
    known spelling; None when no word needed it."""
    spellings: dict[str, str] = {}
    for word in typed.words:
        if len(spellings) < budget.CORRECTED and (known := vocabulary.correct(word)) is not None:
            spellings[word] = known
    if not spellings:
        return None
    fixed = [spellings.get(w, w) for w in typed.words]
    return dataclasses.replace(typed, words=fixed)


def search(
    kb: KnowledgeBase, text: str, as_of: dt.date | None = None, game: str | None = None, kind: str | None = None,
    limit: int = 20, every_version: bool = False, exact: bool = False, live: bool = False,
) -> SearchAnswer:  # fmt: skip
    """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
    ``every_version`` searches all), with snippets and citations. Unknown words are corrected
    (``corrected`` says what was searched) unless ``exact``; ``live`` (typing) adds, after
    the same hits, those completing the last word as a prefix."""
    on = None if every_version else (as_of or dt.date.today())
    history = kb.history_searcher(on)
    typed = read_query(text)
    fixed = None if exact else correct(typed, kb.vocabulary())
    for reading in (typed, fixed):
        if reading is not None:
            reading.joined = kb.vocabulary().compounds(reading.words)
    work = budget.Work()
    find = _Finder(kb, history, on, game, kind, limit, work)
    hits = find(fixed or typed)
    if live and typed.words and not text.rstrip().endswith(('"', "*")) and text == text.rstrip():
        last = typed.words[-1]
        growing = dataclasses.replace(typed, words=typed.words[:-1], prefixes=[*typed.prefixes, last])
        seen = {v for v, _ in hits}
        hits += [h for h in find(growing) if h[0] not in seen]
        hits = hits[: max(1, limit)]
    results: list[SearchResult | HistoryResult] = []
    for version_id, marked in hits:
        version = kb.version(version_id)
        if version is None:  # the index and the store are of one build: never, unless a build was damaged
            raise BuildError(f"{kb.directory}: the index names version {version_id}, which the store does not hold")
        part = kb.part(version, on or dt.date.today())
        fallback = html.escape(
            (version.text or ", ".join(f"See {r}" for r in version.references) or version.note)[:200]
        )
        results.append({**part, "topic": version.topic, "snippet": marked or fallback, "full": False})
    if history is not None:
        _grouped(results, find, history, fixed or typed, game, kind)
    if results and names_entry(fixed or typed, results[0]["headword"]):
        results[0]["full"] = True
    corrected = " ".join(fixed.words) if fixed else None
    return {"query": text[:MAX_QUERY], "as_of": on.isoformat() if on else None, "results": results,
            "corrected": corrected,
            "suggestion": None if corrected else suggest(typed, kb.names(), kb.vocabulary()),
            "partial": work.stopped or work.capped,
            "left_out": list(dict.fromkeys(typed.left_out + work.left_out))}  # fmt: skip


class _Finder:
    """Runs the searches of one `search`: over the in-force index (or the index of every
    version filtered by date) when there is no ``history`` searcher, else over the history
    index, keeping each topic's matching versions (``matching``: shown version -> ids)."""

    def __init__(
        self, kb: KnowledgeBase, history: Searcher | None, on: dt.date | None, game: str | None, kind: str | None,
        limit: int, work: budget.Work,
    ) -> None:  # fmt: skip
        self.history, self.game, self.kind, self.limit, self.work = history, game, kind, limit, work
        self.day = on.toordinal() if on else None
        self.searcher, self.allowed = kb.searcher(on) if history is None else (history, None)
        self.matching: dict[int, list[int]] = {}

    def __call__(self, typed: Typed) -> list[tuple[int, str]]:
        if self.history is None:
            return run(self.searcher, typed, self.allowed, self.game, self.kind, self.limit, self.work)
        from kb import history_search  # it builds on this module's query plans

        found = history_search.run(self.history, typed, self.day, self.game, self.kind, self.limit, self.work)
        for topic in found:
            self.matching.setdefault(topic.shown, topic.versions)
        return [(topic.shown, "") for topic in found]


def _grouped(
    results: list[SearchResult | HistoryResult], find: _Finder, history: Searcher, typed: Typed, game: str | None,
    kind: str | None,
) -> None:  # fmt: skip
    """Give each result of a history search its topic's matching versions (``matching``,
    ids oldest first) and a snippet of its text marking the words searched."""
    from kb import history_search

    terms = history_search.query_terms(history, typed, game, kind)
    for place, result in enumerate(results):
        snippet = history_search.mark(result["text"], terms) if result["text"] and terms else ""
        results[place] = HistoryResult(**result, matching=find.matching.get(result["version"], [result["version"]]))
        results[place]["snippet"] = snippet or result["snippet"]


def names_entry(typed: Typed, headword: str) -> bool:
    """Whether the query names the entry ``headword`` (all its words are among the query's)."""
    wanted = set(_terms(_TEXT, headword_key(headword)))
    return bool(wanted) and wanted <= {t for w in typed.words for t in _terms(_TEXT, w)}


def suggest(typed: Typed, names: Mapping[str, str], vocabulary: Vocabulary) -> str | None:
    """A "did you mean" from headwords and card names (``names``: folded name -> name) for a
    name typed without its punctuation (``chajoh`` -> Cha'Joh); never the query itself."""
    words = [t for w in typed.words for t in _terms(_NAMES, w)]
    if not words:
        return None
    folded = " ".join(words)
    typed_as = _as_typed(" ".join(typed.words))
    exact = names.get(folded)
    if exact is not None:
        return exact if _as_typed(exact) != typed_as else None
    if all(vocabulary.knows(w) for w in words):
        return None
    close = difflib.get_close_matches(folded, list(names), n=1, cutoff=0.7)
    return names[close[0]] if close and _as_typed(names[close[0]]) != typed_as else None


def _as_typed(text: str) -> str:
    """``text`` as compared with what was typed: case, quote marks and spaces aside."""
    return re.sub(r'["\s]', "", fold_quotes(text).lower())
