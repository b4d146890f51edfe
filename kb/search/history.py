"""Search over every version, or as of a past date, through the history index (`kb.index.history`).

The answer is topics, best first, each with every version of it the query matches (in
force on the date asked, when one is): the same versions the index of every version
matches, found by scoring one document per topic instead of one per version. As in
`kb.search.in_force.run`, topics with a version matching every word come first; when fewer than
asked do, topics whose versions match the most words follow.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator

from kb.engine import budget, bulk, version_keys
from kb.engine.fused import FusedAnalyzer
from kb.engine.handles import Built, Index
from kb.engine.passages import marked
from kb.engine.planning import text_terms
from kb.engine.postings import Ids
from kb.engine.version_keys import TopicVersions, VersionKeys, topics_of
from kb.engine.version_matching import Positions, Words, loosened, matcher, rarity
from kb.errors import Unsupported
from kb.search import validity
from kb.search.plans import RERANK, most_words_query, prepared, whole_query
from kb.search.questions import Typed

MARKING = FusedAnalyzer(joined=False, stemmed=True)
"""The text analyser of queries (`kb.search.plans.TEXT`) in one pass, remembering each raw word's
terms (`kb.engine.fused`): a snippet gets the very tokens that analyser gives, for a third of the
cost. Its table, shared by the threads, only ever gains a word's one possible entry (a
dict's get and set are atomic), and holds at most the words of the texts it has marked."""
BATCH = 8
"""Topics beyond those asked for whose versions are checked at once (best first; each further batch twice as many)."""


@dataclasses.dataclass
class Found:
    """One topic of an answer: its matching versions (ids, oldest first), the one shown
    (the newest of them) and that one's snippet (filled in by `mark`)."""

    topic: str
    versions: list[int]
    shown: int
    score: float
    words: int = 0
    snippet: str = ""


def run(
    searcher: Index,
    typed: Typed,
    day: int | None,
    game: str | None,
    kind: str | None,
    limit: int,
    work: budget.Work | None = None,
    marks: set[str] | None = None,
    restated: Callable[[list[int]], set[int]] | None = None,
    named: Callable[[str, list[int]], set[int]] | None = None,
) -> list[Found]:
    """The best ``limit`` topics for ``typed`` among the versions in force on ``day`` (an
    ordinal; every version when None), within the budget. ``marks``, when given, gets the text
    words of the query run (those its snippets mark: `mark`). ``restated`` tells which of the
    versions shown restate a numbered rule (`kb.search.restating`): within each group (every
    word, then by how many words), those topics come after the others found. ``named`` tells
    which versions shown a word names (their headword is the word, and they restate no rule):
    the topics the query's rarest word names rank with those of every word, by score
    (`kb.search.in_force._named`)."""
    work = work if work is not None else budget.Work()
    if (ready := prepared(typed, game, kind, limit, work)) is None:
        return []
    planned, every, limit = ready
    whole = whole_query(planned, every, searcher, work)
    if marks is not None:
        marks |= text_terms(whole)
    found = list(topics(searcher, whole, day, limit, work))
    if named is not None and len(planned.words) > 1 and not work.stopped:
        word, rarest = bulk.rarest(searcher, planned.words, work)
        seen = {f.topic for f in found}
        alone = whole_query(planned, [*planned.required, rarest], searcher, work)
        others = [f for f in topics(searcher, alone, day, limit, work) if f.topic not in seen]
        if ids := named(word, [f.shown for f in others]):
            found = sorted(found + [f for f in others if f.shown in ids], key=lambda f: -f.score)[:limit]
    later: set[str] = set()  # the topics of the second pass
    if len(planned.words) > 1 and len(found) < limit and not work.stopped:
        some = most_words_query(planned, searcher, work)
        words = [budget.expanded(q, searcher, budget.Work()) for _, q in planned.words]
        seen = {f.topic for f in found}
        more = [f for f in topics(searcher, some, day, max(limit, RERANK), work, words) if f.topic not in seen]
        found += sorted(more, key=lambda f: -f.words)  # stable: equal counts keep their score order
        later = {f.topic for f in more}
    if restated is not None and (ids := restated([f.shown for f in found])):
        every_word = [f for f in found if f.topic not in later]
        found = sorted(every_word, key=lambda f: f.shown in ids) + sorted(
            found[len(every_word) :], key=lambda f: (-f.words, f.shown in ids)
        )
    return found[:limit]


def topics(
    searcher: Index,
    built: Built,
    day: int | None,
    limit: int,
    work: budget.Work,
    words: list[Built] | None = None,
) -> Iterator[Found]:
    """The topics ``built`` ranks best (over their whole history) that have a version in
    force on ``day`` matching ``built``, best first, at most ``limit``. With ``words``,
    each `Found` counts the most of them one of its matching versions matches.

    Topics are checked one by one in batches (`matching`), best first, while that is cheap.
    Where many ranked topics are passed over (as of a date, or a phrase: not ``deepen``) the
    versions of all the others are found at once (`_by_keys`) once the first batch gave too
    few, or at the start for the pass that counts ``words`` (a hundred topics and more)."""
    loose = loosened(built)
    scored = bulk.ranked(searcher, loose, work)  # None: a shape Whoosh's matchers evaluate
    table = validity.of(searcher)
    held = None if day is None else table.on(day)
    if scored is not None and held is not None:  # only topics with a version in force are ranked
        inside = held.topics[scored.ids]
        scored = bulk.Matched(scored.ids[inside], scored.scores[inside])
    deepen = day is None and loose == built  # then nearly every topic ranked has a matching version
    shared = Words(built, words) if words else None
    check = matcher(built, shared, rarity(searcher))
    ranked: list[tuple[int, float]] = []
    whole = False
    given, start, size, checked = 0, 0, limit + BATCH, -1
    while True:
        if (start or words) and scored is not None and not deepen and (start < len(ranked) or not whole):
            keyed = _by_keys(searcher, work, scored, built, held, limit - given, words, {d for d, _ in ranked[:start]})
            if keyed is not None:  # the others at once
                yield from keyed
                return
        if not whole and start + size > len(ranked):
            depth = start + size if deepen or scored is not None else None  # scored: ranking a few is cheap
            ranked = (
                ranking(searcher, loose, depth, work) if scored is None else bulk.best(scored, depth, searcher=searcher)
            )
            whole = depth is None or len(ranked) < depth
        batch = ranked[start : start + size]
        if not batch:
            return
        start, size = start + size, size * 2
        if scored is not None:
            positions: Positions = bulk.Positions(searcher, work.postings, [docnum for docnum, _ in batch])
        else:
            positions = Positions(searcher)
        matched: dict[int, Found] = {}
        for docnum, score in sorted(batch):
            checked += 1
            if checked % budget.CLOCKED == 0 and time.thread_time() > work.deadline:  # topics counted when ranked
                work.stopped = True
                break
            keep = None if held is None else held.held(docnum)
            if keep == set():
                continue
            which = sorted(check(docnum, positions, keep))
            if which:
                found = _found(table, docnum, which, score)
                if shared is not None:
                    each = [shared.versions(i, docnum, positions) for i in range(len(shared.words))]
                    found.words = max(sum(1 for versions in each if k in versions) for k in which)
                matched[docnum] = found
        for docnum, _ in batch:
            if docnum in matched:
                yield matched[docnum]
                given += 1
                if given >= limit:
                    return
        if work.stopped:
            return


def _by_keys(
    searcher: Index,
    work: budget.Work,
    scored: bulk.Matched,
    built: Built,
    held: validity.InForce | None,
    limit: int,
    words: list[Built] | None,
    checked: set[int],
) -> list[Found] | None:
    """`topics`, from the versions ``built`` matches in every topic at once (`kb.engine.version_keys`):
    the topics ``scored`` ranks best among those with a matching version, but for those ``checked``
    already. None when the index or the postings read do not allow it (then `topics` checks
    topic by topic). As of a date (``held``), nearly every topic has a version in force but few
    of its versions are (2.5% of the 90k library's on an average day): each word's positions are
    narrowed to the versions in force before the query's parts are combined, and only topics
    with a matching version in force are ranked (to ``limit``, not all of them)."""
    if not version_keys.ENABLED:
        return None
    try:
        in_force = None if held is None else (held.versions, held.validity.first)
        keyed = VersionKeys(searcher, work.postings, rarity(searcher), held=in_force)
        keys = keyed.matched(built)
        each = [keyed.matched(word) for word in words or []]
    except Unsupported:
        return None
    ranked = bulk.best(scored, limit + len(checked), topics_of(keys), searcher)
    ranked = [(docnum, score) for docnum, score in ranked if docnum not in checked]
    return _grouped(validity.of(searcher), ranked, keys, each, limit, work)


def _grouped(
    table: validity.Validity,
    ranked: list[tuple[int, float]],
    keys: Ids,
    each: list[Ids],
    limit: int,
    work: budget.Work,
) -> list[Found]:
    """The first ``limit`` topics of ``ranked`` (each with a version ``keys`` holds), each with its
    versions ``keys`` holds and, with ``each`` (every word's keys), the most words one of them matches."""
    found: list[Found] = []
    docnums = [docnum for docnum, _ in ranked]
    matched = TopicVersions(keys, docnums)
    counted = [TopicVersions(versions, docnums) for versions in each]
    for place, (docnum, score) in enumerate(ranked):
        if place % budget.CLOCKED == 0 and time.thread_time() > work.deadline:
            work.stopped = True
            break
        which = matched[place]
        topic = _found(table, docnum, which, score)
        if counted:
            matching = [set(versions[place]) for versions in counted]
            topic.words = max(sum(1 for versions in matching if k in versions) for k in which)
        found.append(topic)
        if len(found) >= limit:
            break
    return found


def _found(table: validity.Validity, docnum: int, which: list[int], score: float) -> Found:
    """The topic of document ``docnum`` with its versions numbered ``which`` (in order) matching,
    the newest of them shown."""
    topic, ids, shown = table.found(docnum, which)
    return Found(topic, ids, shown, score)


def ranking(searcher: Index, loose: Built, depth: int | None, work: budget.Work) -> list[tuple[int, float]]:
    """The ``depth`` topic documents ``loose`` scores best (all when None), best first, as
    (document number, score), by Whoosh's matchers (`kb.engine.budget.ranking`: ranking a few
    is cheap when nearly every topic ranked is kept, `topics` asking again, deeper, when not)."""
    return budget.ranking(searcher, loose, depth, work)


def mark(text: str, terms: set[str]) -> str:
    """The snippet of ``text`` with ``terms`` marked, as Whoosh's ``highlight`` function makes it
    (`kb.engine.passages`: the marks of a hyphenated word's parts each apart)."""
    return marked(text, frozenset(terms), MARKING, merge=False)
