"""The history index answers as the index of one document per version did.

A benchmark library (`bench/generate.py`, stress profile, its first months) is built with
the real pipeline; beside it, the index of one document per version that builds wrote
before the history index is written from the build's own saved state (`kb.index.writer.write_index`).
For every benchmark query (`bench/search_bench.py`), over every version and as of past
dates, the set compared is: each topic with the ids of its versions the query matches (in
force on the date). The history index must give exactly that set, and rank the topics by
its own score (topic history, phrases loosened to their words) — the one change of ranking.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from whoosh import index, scoring
from whoosh.reading import SegmentReader
from whoosh.searching import Searcher

from kb.engine import budget, version_keys
from kb.engine.opening import date_filter
from kb.engine.version_matching import loosened
from kb.index.writer import write_index
from kb.ingest import incremental
from kb.ingest.pipeline import build, card_names_of
from kb.query import KnowledgeBase
from kb.search import history as history_search
from kb.search import validity
from kb.search.plans import built_query
from kb.search.questions import read_query

ROOT = Path(__file__).resolve().parent.parent
PAST = [dt.date(2000, 6, 1), dt.date(2001, 1, 15), dt.date(2001, 3, 1), dt.date(2001, 4, 20)]
"""Before the library, and within it (each a date the in-force index is not exact for)."""
Grouped = dict[str, list[int]]


def bench_module(name: str) -> object:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


QUERIES: dict[str, list[str]] = bench_module("search_bench").QUERIES  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[KnowledgeBase, Searcher]:
    """The knowledge base of five months of the stress library, and a searcher over the index
    of one document per version of the same versions."""
    root = tmp_path_factory.mktemp("history")
    bench_module("generate").generate(root / "library", profile="stress", share=0.04)  # type: ignore[attr-defined]
    directory = build(root / "library", root / "kb").directory
    state = incremental.load_state(directory)
    assert state is not None
    names = card_names_of(state.links, state.catalog)
    write_index(root / "per-version", state.ledger.versions, state.ledger.topics, names, state.seen)
    return KnowledgeBase(directory), index.open_dir(str(root / "per-version")).searcher(weighting=scoring.BM25F())


def per_version(searcher: Searcher, text: str, on: dt.date | None) -> Grouped:
    """Today's answer as a set: topic -> ids of the versions matching every word (in force on ``on``)."""
    query = built_query(searcher, read_query(text), budget.Work())
    assert query is not None
    allowed = None if on is None else set(searcher.docs_for_query(date_filter(on)))
    found: Grouped = {}
    for docnum in sorted(searcher.docs_for_query(query)):
        if allowed is None or docnum in allowed:
            fields = searcher.stored_fields(docnum)
            found.setdefault(fields["topic"], []).append(fields["version"])
    return {topic: sorted(ids) for topic, ids in found.items()}


def by_history(kb: KnowledgeBase, text: str, on: dt.date | None, limit: int) -> list[tuple[str, list[int]]]:
    """The history index's topics, best first, with their matching versions."""
    searcher = kb.searchers.history_searcher(on)
    assert searcher is not None
    query = built_query(searcher, read_query(text), budget.Work())
    assert query is not None
    day = on.toordinal() if on else None
    return [(f.topic, f.versions) for f in history_search.topics(searcher, query, day, limit, budget.Work())]


def ranked(kb: KnowledgeBase, text: str) -> list[str]:
    """Every topic the history index ranks for ``text``, best first (phrases loosened)."""
    searcher = kb.searchers.history_searcher(None)
    assert searcher is not None
    query = built_query(searcher, read_query(text), budget.Work())
    assert query is not None
    return [searcher.stored_fields(d)["topic"] for _, d in searcher.search(loosened(query), limit=None).top_n]


@pytest.mark.parametrize("category", ["phrase", "two words", "single word", "field", "question"])
def test_every_version_matches_the_same_versions_topic_by_topic(
    built: tuple[KnowledgeBase, Searcher], category: str
) -> None:
    kb, old = built
    for text in QUERIES[category]:
        want = per_version(old, text, None)
        assert dict(by_history(kb, text, None, 10**6)) == want, text
        top = by_history(kb, text, None, 20)
        order = [t for t in ranked(kb, text) if t in want]
        assert [t for t, _ in top] == order[:20] and all(ids == want[t] for t, ids in top), text


@pytest.mark.parametrize("on", PAST)
def test_as_of_a_past_date_matches_the_same_versions_in_force(
    built: tuple[KnowledgeBase, Searcher], on: dt.date
) -> None:
    kb, old = built
    assert kb.searchers.history_searcher(on) is not None
    for category in ("phrase", "two words", "single word", "field"):
        for text in QUERIES[category]:
            assert dict(by_history(kb, text, on, 10**6)) == per_version(old, text, on), (text, on)


def test_the_benchmark_library_has_history_to_search(built: tuple[KnowledgeBase, Searcher]) -> None:
    _, old = built
    away = per_version(old, '"away team"', None)
    assert len(away) < sum(len(ids) for ids in away.values())  # topics with several matching versions
    assert per_version(old, '"away team"', PAST[0]) == {}


def test_a_search_of_every_version_gives_topics_with_their_matching_versions(
    built: tuple[KnowledgeBase, Searcher],
) -> None:
    kb, old = built
    answer = kb.search('"away team"', every_version=True, limit=5, exact=True)
    want = per_version(old, '"away team"', None)
    assert [r["topic"] for r in answer["results"]] == [t for t in ranked(kb, '"away team"') if t in want][:5]
    for result in answer["results"]:
        assert result["matching"] == want[result["topic"]]
        assert result["version"] in result["matching"]
        assert "<mark" in result["snippet"]


def test_a_history_search_stops_at_its_deadline(built: tuple[KnowledgeBase, Searcher]) -> None:
    kb, _ = built
    searcher = kb.searchers.history_searcher(None)
    assert searcher is not None
    late = budget.Work(deadline=0.0)
    assert history_search.run(searcher, read_query("ship"), None, None, None, 5, late) == [] and late.stopped
    few = budget.Work(documents=3)
    assert len(history_search.run(searcher, read_query("ship"), None, None, None, 5, few)) <= 3 and few.stopped


@pytest.mark.parametrize("on", [None, *PAST])
def test_versions_found_for_every_topic_at_once_are_those_found_topic_by_topic(
    built: tuple[KnowledgeBase, Searcher], on: dt.date | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every benchmark query, both passes (every word; most words, with each topic's count):
    where `kb.engine.version_keys` is used (beyond the first batch of topics, as of a date or for
    a phrase over every version) it gives the topics, versions, shown version and counts that
    checking topic by topic (`kb.engine.version_matching`) gives."""
    kb, _ = built
    searcher = kb.searchers.history_searcher(on)
    assert searcher is not None
    day = on.toordinal() if on else None

    def answers() -> list[list[tuple[str, list[int], int, int]]]:
        found = []
        for texts in QUERIES.values():
            for text in texts:
                topics = history_search.run(searcher, read_query(text), day, None, None, 40)
                found.append([(f.topic, f.versions, f.shown, f.words) for f in topics])
        return found

    keyed = history_search._by_keys
    uses: list[bool] = []
    monkeypatch.setattr(history_search, "_by_keys", lambda *a, **k: uses.append(True) or keyed(*a, **k))
    at_once = answers()
    assert uses  # searches whose first batch of topics was not enough went on at once
    monkeypatch.setattr(version_keys, "ENABLED", False)
    assert answers() == at_once
    assert version_keys.DECODED.size > 0  # the words' positions read are kept for the next search
    counted = sum(len(topics) for topics in at_once)
    assert counted > 1000 if on is None else (counted == 0) == (on == PAST[0])  # nothing before the library


@pytest.mark.parametrize("on", PAST)
def test_the_days_read_once_hold_the_versions_in_force_the_store_holds(
    built: tuple[KnowledgeBase, Searcher], on: dt.date
) -> None:
    """The versions' days read from the history index (`kb.search.validity`): the versions in
    force on a date, and the topics with one, are those of the store's rows."""
    kb, _ = built
    searcher = kb.searchers.history_searcher(on)
    assert searcher is not None
    table = validity.of(searcher)
    held = table.on(on.toordinal())
    rows = kb.store.versions_in_force(on)
    assert sorted(table.ids[held.versions].tolist()) == [v.id for v in rows]
    assert {table.topics[d] for d in np.flatnonzero(held.topics).tolist()} == {v.topic for v in rows}
    assert (len(rows) == 0) == (on == PAST[0])  # nothing before the library


def test_a_search_as_of_a_date_reads_no_topics_stored_fields(
    built: tuple[KnowledgeBase, Searcher], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Searches as of a date and over every version read no topic's stored fields, neither of the
    topics out of force on the date (they are dropped before ranking) nor of those shown: each
    version's days, topic and id are read once for the index (`kb.search.validity`). (They read
    each ranked topic's fields and checked its days in Python: 496 reads here.)"""
    kb, _ = built
    searcher = kb.searchers.history_searcher(None)
    assert searcher is not None
    history_search.run(searcher, read_query("ship"), PAST[2].toordinal(), None, None, 10)  # what is read once
    reads: list[int] = []
    real = SegmentReader.stored_fields
    monkeypatch.setattr(SegmentReader, "stored_fields", lambda self, docnum: reads.append(docnum) or real(self, docnum))
    reader = searcher.reader()  # the searcher holds the reader's method itself
    monkeypatch.setattr(searcher, "stored_fields", lambda docnum: SegmentReader.stored_fields(reader, docnum))
    topics = 0
    for on in [*PAST[1:], None]:
        for category in ("phrase", "two words", "single word", "field"):
            for text in QUERIES[category]:
                found = history_search.run(searcher, read_query(text), on and on.toordinal(), None, None, 10)
                topics += len(found)
    assert topics > 400
    assert reads == []
