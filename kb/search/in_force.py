"""Search a knowledge base: questions and keywords over the Whoosh index, best answer first.

A query is read by `kb.search.questions.read_query`. Its content words are not all required:
versions matching every word come first, then those matching most of them (BM25F within
each group, headword and card-name hits weighing most), so a question never dead-ends while
one of its words matches. A word the knowledge base has never seen is corrected against
its vocabulary (``commandering`` -> commandeering; `kb.search.spelling`) and the answer says
so. Explicit syntax keeps its meaning: ``"..."`` is a phrase, ``card:``, ``kind:``, ``doc:``,
``game:`` and ``headword:`` restrict to a field, ``-word`` excludes, ``word*`` is a prefix.
Anything else a person types gives results or none, never an error.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from kb.analysis import fold_word
from kb.answers import HistoryResult, SearchAnswer, SearchResult
from kb.engine import budget, bulk, memo
from kb.engine.handles import Built, Index
from kb.engine.hits import Scored, matched, snippet_of, stored
from kb.engine.hits import found as found_in
from kb.engine.planning import plan_terms
from kb.errors import BuildError, UnknownTopic
from kb.meaning import ranking
from kb.read.names import Names
from kb.search import history as history_search
from kb.search import players
from kb.search.plans import (
    RERANK,
    TEXT,
    Plan,
    analysed,
    most_words_query,
    prepared,
    whole_query,
)
from kb.search.questions import MAX_QUERY, NUMERALS, Typed, read_query, rule_number
from kb.search.restating import restates, restating_in, with_rules_first
from kb.search.spelling import correct, fitting, meanings, suggest
from kb.search.unmatched import NOTHING, matched_words, said
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts
    from kb.search.searchers import Searchers


def run(
    searcher: Index,
    typed: Typed,
    allowed: set[int] | None,
    game: str | None,
    kind: str | None,
    limit: int,
    work: budget.Work | None = None,
    restating: frozenset[str] = frozenset(),
) -> list[tuple[int, str]]:
    """(version id, highlighted snippet) of the best hits among the ``allowed`` documents (all
    when None): the versions matching every word first (with them, by score, the entries the
    query's rarest word names: `_named`), then those matching the most; within each, a Glossary
    entry restating a numbered rule (of a document of ``restating``: `kb.search.restating`)
    after the others; all within the budget (``work`` gets what the search did)."""
    work = work if work is not None else budget.Work()
    if (ready := prepared(typed, game, kind, limit, work)) is None:
        return []
    planned, every, limit = ready

    def restated(hit: Scored) -> bool:  # stored fields read only where a document restates rules
        return bool(restating) and restates(stored(hit, "series"), stored(hit, "doc"), restating)

    wide = max(limit, RERANK) if restating else limit  # a restatement may give its place to a rule below
    found = _hits(searcher, whole_query(planned, every, searcher, work), allowed, wide, {}, work)
    found = sorted(found, key=lambda h: restated(h[0]))[:limit]  # stable: by score within each
    if len(planned.words) > 1 and not work.stopped:
        seen = {hit.docnum for hit, _ in found}  # one document a version in one index: no stored fields read
        named = _named(searcher, planned, allowed, work, seen)
        if named := [h for h in named if not restated(h[0])]:
            found = sorted(found + named, key=lambda h: (restated(h[0]), -h[0].score, h[0].docnum))[:limit]
    if len(planned.words) > 1 and len(found) < limit and not work.stopped:
        some = most_words_query(planned, searcher, work)
        counts = {w: plan_terms(q) for w, q in planned.words}  # as typed, joined, mended
        more = _hits(searcher, some, allowed, max(limit, RERANK), counts, work)
        seen = {hit.docnum for hit, _ in found}
        found += sorted((h for h in more if h[0].docnum not in seen), key=lambda h: (-int(h[1]), restated(h[0]), -h[1]))
    return [(stored(hit, "version"), snippet_of(hit)) for hit, _ in found[:limit]]


def _named(
    searcher: Index, planned: Plan, allowed: set[int] | None, work: budget.Work, seen: set[int]
) -> list[tuple[Scored, float]]:
    """The entries the query's rarest word names (their headword is that word: "stopped" in
    "what happens when a ship is stopped"), with their score, but for the documents ``seen``:
    the word that matches the fewest documents is what the question is about, and its entry
    answers it though it lacks the other words. A common word ("ship", "outpost") names nothing
    so (`names`). The terms of the hits' headwords are kept for the searches that follow
    (`kb.engine.memo`)."""
    word, rarest = bulk.rarest(searcher, planned.words, work)
    hits = _hits(searcher, whole_query(planned, [*planned.required, rarest], searcher, work), allowed, RERANK, {}, work)
    headwords = memo.of(searcher).headwords
    terms = set(analysed(TEXT, word))
    named = []
    for hit in hits:
        if hit[0].docnum in seen:
            continue
        wanted = headwords.get(hit[0].docnum)
        if wanted is None:
            wanted = headwords.put(hit[0].docnum, headword_terms(stored(hit[0], "headword")))
        if wanted and wanted <= terms:
            named.append(hit)
    return named


def headword_terms(headword: str) -> frozenset[str]:
    """The terms a query must hold to name the entry ``headword`` (`names`, `names_entry`)."""
    return frozenset(analysed(TEXT, headword_key(headword)))


def names(word: str, headword: str) -> bool:
    """Whether ``word`` names the entry ``headword`` (all its words are the word's)."""
    wanted = headword_terms(headword)
    return bool(wanted) and wanted <= set(analysed(TEXT, word))


def _hits(
    searcher: Index,
    whole: Built,
    allowed: set[int] | None,
    limit: int,
    words: dict[str, set[tuple[str, str]]],
    work: budget.Work,
) -> list[tuple[Scored, float]]:
    """The top hits with their rank; with ``words``, rank = words matched + a score below
    one, so a version matching more of the words always ranks higher. Snippets are made
    later, for the hits shown only."""
    results = found_in(searcher, whole, limit, allowed, work)
    top = max((hit.score for hit in results), default=1.0) or 1.0
    hits = []
    for hit in results:
        rank = hit.score
        if words:
            terms_matched = matched(hit)
            rank = sum(1 for terms in words.values() if terms & terms_matched) + hit.score / (top * 1.001)
        hits.append((hit, rank))
    return hits


def search(
    searchers: Searchers,
    parts: Parts,
    text: str,
    as_of: dt.date | None = None,
    game: str | None = None,
    kind: str | None = None,
    limit: int = 20,
    every_version: bool = False,
    exact: bool = False,
    live: bool = False,
    start: int = 0,
    meaning: bool = True,
) -> SearchAnswer:
    """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
    ``every_version`` searches all), with snippets and citations: ``limit`` of them from the
    ``start``-th on (a page; ``more`` says whether more follow; `budget.RESULTS` at most in
    all). Unknown words are corrected (``corrected`` says what was searched; ``meant``, the two queries
    searched together when two spellings are as likely) unless ``exact``; ``live`` (typing)
    adds, after the same hits, those completing the last word as a prefix. A question within one
    ``game`` is re-ranked by meaning where the build holds the game's vectors (`kb.meaning.ranking`;
    ``by_meaning``), unless not ``meaning``."""
    start = max(0, min(start, budget.RESULTS - 1))
    limit, wanted = max(1, limit), min(budget.RESULTS, start + max(1, limit)) + 1  # one more: whether more follow
    on = None if every_version else (as_of or dt.date.today())
    typed = read_query(text)
    typed.players = {} if exact else players.alternatives(game, typed.words)
    history = searchers.history_searcher(on)
    fixed = (
        None if exact or not typed.words else correct(typed, searchers.vocabulary(), fitting(searchers, history, on))
    )
    for reading in (typed, fixed):
        if reading is not None and len(reading.words) > 1:  # a compound is made of two words
            reading.joined = searchers.vocabulary().compounds(reading.words)
        if reading is not None and not exact:
            spelt = [*reading.words, *(w for also in reading.also.values() for w in also)]
            reading.inflected = {w: found for w in spelt if (found := searchers.vocabulary().inflections(w))}
            reading.opposite = searchers.vocabulary().opposites(reading.words) if reading.words else {}
        if reading is not None and any(fold_word(w) in NUMERALS for w in reading.words):  # else none read
            reading.numeral = searchers.vocabulary().numerals(reading.words)
    work = budget.Work()
    restating = restating_in(parts.reader)
    build = parts.reader.directory
    by_meaning = (
        meaning and not (exact or live or typed.clauses) and len(typed.words) > 1 and ranking.holds(build, game, on)
    )
    pool = max(wanted, ranking.POOL) if by_meaning else wanted
    find = _Finder(searchers, history, on, game, kind, pool, work, restating, _restated(parts, restating))
    find.named = _named_versions(parts, restating)
    hits = find(fixed or typed)
    if kind is None and not (fixed or typed).clauses:  # the rules moved up are of no other kind, document or word
        day, named = on or dt.date.today(), lambda h: names_entry(fixed or typed, h)
        hits = with_rules_first(hits, named, parts, restating, day)
    numbered = _numbered(parts, text, on, game)
    by_meaning = by_meaning and not numbered
    if by_meaning and game is not None and on is not None:
        hits = ranking.reranked(build, text, hits, game, on)
    if numbered:  # a rule number typed alone goes straight to that rule
        hits = [(v, "") for v in numbered] + [h for h in hits if h[0] not in numbered]
    if live and typed.words and not text.rstrip().endswith(('"', "*")) and text == text.rstrip():
        last = typed.words[-1]
        growing = dataclasses.replace(typed, words=typed.words[:-1], prefixes=[*typed.prefixes, last])
        seen = {v for v, _ in hits}
        hits += [h for h in find(growing) if h[0] not in seen]
    more = len(hits) >= wanted
    hits = hits[start : min(start + limit, wanted - 1)]
    results: list[SearchResult | HistoryResult] = []
    read = parts.reader.versions_numbered([version_id for version_id, _ in hits])
    missing = [version_id for version_id, _ in hits if version_id not in read]
    if missing:  # the index and the store are of one build: never, unless a build was damaged
        where = parts.reader.directory
        raise BuildError(f"{where}: the index names version {missing[0]}, which the store does not hold")
    shown = [read[version_id] for version_id, _ in hits]
    for (_, marked), version, part in zip(hits, shown, parts.parts(shown, on or dt.date.today()), strict=True):
        fallback = html.escape(
            (version.text or ", ".join(f"See {r}" for r in version.references) or version.note)[:200]
        )
        results.append({**part, "topic": version.topic, "snippet": marked or fallback, "full": False})
    if history is not None:
        _grouped(results, find)
    if results and not start and (numbered or names_entry(fixed or typed, results[0]["headword"])):
        results[0]["full"] = True
    meant = meanings(fixed) if fixed else []
    words = NOTHING if numbered or not typed.words else matched_words(typed, fixed, searchers.vocabulary())
    corrected = " ".join(fixed.words) if fixed and not meant else None
    return {
        "query": text[:MAX_QUERY],
        "as_of": on.isoformat() if on else None,
        "results": results,
        "corrected": corrected,
        "meant": meant,
        "suggestion": None if corrected or meant else suggest(typed, Names(parts.reader), searchers.vocabulary),
        "start": start,
        "more": more,
        "partial": work.stopped or work.capped,
        "left_out": list(dict.fromkeys(typed.left_out + work.left_out)),
        "unmatched": words.unmatched,
        "matched": words.matched,
        "weak": words.weak,
        "unmatched_note": said(words),
        "also_searched": typed.players,
        "by_meaning": by_meaning,
    }


def _numbered(parts: Parts, text: str, on: dt.date | None, game: str | None) -> list[int]:
    """The versions in force on ``on`` (today when None) of the rule whose number is all of ``text``."""
    number = rule_number(text)
    if number is None:
        return []
    try:
        topic = parts.find(number, game)
    except UnknownTopic:
        return []
    return [v.id for v in parts.in_force(topic, on or dt.date.today())]


def _restated(parts: Parts, numbered: frozenset[str]) -> Callable[[list[int]], set[int]] | None:
    """Which of some versions (ids) restate a numbered rule (`kb.search.restating`); None when
    no document of the knowledge base has such a Glossary."""
    if not numbered:
        return None

    def restated(ids: list[int]) -> set[int]:
        read = parts.reader.versions_numbered(ids)
        return {i for i, v in read.items() if restates(v.series, v.document_id, numbered)}

    return restated


def _named_versions(parts: Parts, restating: frozenset[str]) -> Callable[[str, list[int]], set[int]]:
    """Which of some versions (ids) a word names (`names`), none restating a numbered rule."""

    def named(word: str, ids: list[int]) -> set[int]:
        read = parts.reader.versions_numbered(ids)
        return {
            i for i, v in read.items() if names(word, v.headword) and not restates(v.series, v.document_id, restating)
        }

    return named


class _Finder:
    """Runs the searches of one `search`: over the in-force index (or the index of every
    version filtered by date) when there is no ``history`` searcher, else over the history
    index, keeping each topic's matching versions (``matching``: shown version -> ids)."""

    def __init__(
        self,
        searchers: Searchers,
        history: Index | None,
        on: dt.date | None,
        game: str | None,
        kind: str | None,
        limit: int,
        work: budget.Work,
        restating: frozenset[str] = frozenset(),
        restated: Callable[[list[int]], set[int]] | None = None,
    ) -> None:
        self.history, self.game, self.kind, self.limit, self.work = history, game, kind, limit, work
        self.restating, self.restated = restating, restated
        self.named: Callable[[str, list[int]], set[int]] | None = None
        self.day = on.toordinal() if on else None
        self.searcher, self.allowed = searchers.searcher(on) if history is None else (history, None)
        self.matching: dict[int, list[int]] = {}
        self.marks: set[str] | None = None
        """The text words the first history search ran (its snippets mark them)."""

    def __call__(self, typed: Typed) -> list[tuple[int, str]]:
        if self.history is None:
            return run(self.searcher, typed, self.allowed, self.game, self.kind, self.limit, self.work, self.restating)
        first = self.marks is None
        if first:
            self.marks = set()
        found = history_search.run(
            self.history,
            typed,
            self.day,
            self.game,
            self.kind,
            self.limit,
            self.work,
            self.marks if first else None,
            self.restated,
            self.named,
        )
        for topic in found:
            self.matching.setdefault(topic.shown, topic.versions)
        return [(topic.shown, "") for topic in found]


def _grouped(results: list[SearchResult | HistoryResult], find: _Finder) -> None:
    """Give each result of a history search its topic's matching versions (``matching``,
    ids oldest first) and a snippet of its text marking the words searched."""
    terms = find.marks or set()
    for place, result in enumerate(results):
        snippet = history_search.mark(result["text"], terms) if result["text"] and terms else ""
        results[place] = HistoryResult(**result, matching=find.matching.get(result["version"], [result["version"]]))
        results[place]["snippet"] = snippet or result["snippet"]


def names_entry(typed: Typed, headword: str) -> bool:
    """Whether the query names the entry ``headword`` (all its words are among the query's)."""
    wanted = headword_terms(headword)
    return bool(wanted) and wanted <= {t for w in typed.words for t in analysed(TEXT, w)}
