"""Postings evaluated in bulk (`kb.engine.bulk`) give Whoosh's own matches, scores and answers.

For every query of the relevance sets and of the benchmark (`bench/answers.py`), on the
bundled library, the history fixture library and five months of the stress benchmark
library (the relevance sets on the bundled one only: they are of it) — a seeded quarter of the
queries on every run, the rest when CI=true (``slow``) —: every document
Whoosh's matchers match in either index (in force, every version) is matched in bulk, with
the same score to within 1e-9 (Whoosh's BM25F over the live documents, `test_engine_weighting.LiveWhoosh`),
and nothing else; and every answer of `search` (results,
their order, `matching` versions, snippets, corrections) in each scope (in force, every
version, as of three dates) is the one the matchers give. The matchers compared with
exclude as they mean to (`bench/answers.py`'s ``mended``): Whoosh 2.7.4 keeps the first
document of ``a -b`` when ``b`` matches it and an earlier one.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from test_engine_weighting import LiveWhoosh
from test_history_search import bench_module
from whoosh import index

from helpers import PARTS, part_of
from kb.engine import budget, bulk
from kb.ingest.pipeline import build
from kb.paths import CURRENT_DIR, INDEX_DIR, current
from kb.query import KnowledgeBase
from kb.search.plans import built_query, most_words_query, prepared
from kb.search.questions import read_query

ANSWERS = bench_module("answers")
TEXTS: list[str] = ANSWERS.texts()  # type: ignore[attr-defined]
SHARE = 0.25
"""The share of the queries compared on every run (a seeded sample, `helpers.part_of`); the rest
are compared when CI=true (marked ``slow``)."""


@pytest.fixture(scope="module")
def stress_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five months of the stress benchmark library: common words in thousands of versions."""
    root = tmp_path_factory.mktemp("bulk-stress")
    bench_module("generate").generate(root / "library", profile="stress", share=0.04)  # type: ignore[attr-defined]
    build(root / "library", root / "kb")
    return root / "kb"


LIBRARIES = ["bundled_root", "history_root", "stress_root"]


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("name", [CURRENT_DIR, INDEX_DIR])
def test_every_match_and_score_is_whooshs(request: pytest.FixtureRequest, library: str, name: str, part: str) -> None:
    kb = KnowledgeBase(current(request.getfixturevalue(library)))
    try:
        whooshs = index.open_dir(str(kb.directory / name)).searcher(weighting=LiveWhoosh())
        ours = kb.searchers.index_searcher(name)
        matched = 0
        for text in part_of(TEXTS, part, SHARE):
            typed = read_query(text)
            built = built_query(ours, typed, budget.Work())
            ready = prepared(typed, None, None, 20, budget.Work())
            shapes = [built] if built is not None else []
            if ready is not None and len(ready[0].words) > 1:
                shapes.append(most_words_query(ready[0], ours, budget.Work()))
            for shape in shapes:
                with ANSWERS.mended():  # type: ignore[attr-defined]
                    want = {docnum: score for score, docnum in whooshs.search(shape, limit=None).top_n}
                evaluated = bulk.evaluate(ours, shape)
                assert evaluated is not None, shape
                got = dict(zip(evaluated[0].ids.tolist(), evaluated[0].scores.tolist(), strict=True))
                assert got.keys() == want.keys(), text
                assert all(math.isclose(got[d], want[d], rel_tol=0, abs_tol=1e-9) for d in want), text
                matched += len(want)
        assert matched > 500 * SHARE  # the queries do match: the comparison is not of empty sets
        whooshs.close()
    finally:
        kb.close()


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("library", LIBRARIES)
def test_every_answer_is_the_matchers(request: pytest.FixtureRequest, library: str, part: str) -> None:
    kb = KnowledgeBase(current(request.getfixturevalue(library)))
    try:
        relevance = library == "bundled_root"  # the relevance sets are of the bundled library
        texts = part_of(ANSWERS.texts(relevance), part, SHARE)  # type: ignore[attr-defined]
        compared, lines = ANSWERS.differences(kb, relevance=relevance, only=texts)  # type: ignore[attr-defined]
        assert [line for line in lines if line.startswith("DIFFERS")] == []
        assert compared >= len(texts) * 4  # five scopes, a few cut short (a prefix over its expansions)
    finally:
        kb.close()


def test_a_shape_left_to_whoosh_is_refused(bundled_root: Path) -> None:
    kb = KnowledgeBase(current(bundled_root))
    try:
        from whoosh import query

        searcher = kb.searchers.index_searcher(INDEX_DIR)
        assert bulk.evaluate(searcher, query.Term("text", "ship", boost=2.0)) is None
        assert bulk.evaluate(searcher, query.Prefix("text", "sh")) is None
        found = bulk.evaluate(searcher, query.Term("text", "nosuchword"))
        assert found is not None and len(found[0].ids) == 0
    finally:
        kb.close()


def test_best_breaks_ties_by_document() -> None:
    import numpy as np

    found = bulk.Matched(np.array([1, 3, 5, 7, 9], dtype=np.int64), np.array([2.0, 5.0, 2.0, 5.0, 1.0]))
    assert bulk.best(found, 3) == [(3, 5.0), (7, 5.0), (1, 2.0)]
    assert bulk.best(found, None) == [(3, 5.0), (7, 5.0), (1, 2.0), (5, 2.0), (9, 1.0)]
    assert bulk.best(found, 2, np.array([1, 5, 9], dtype=np.int64)) == [(1, 2.0), (5, 2.0)]


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("library", ["bundled_root", "stress_root"])
def test_a_snippet_is_whooshs_highlight(request: pytest.FixtureRequest, library: str, part: str) -> None:
    from whoosh import highlight

    from kb.engine.highlighting import PASSAGES, EarlierOnTies, snippet

    kb = KnowledgeBase(current(request.getfixturevalue(library)))
    try:
        searcher = kb.searchers.index_searcher(CURRENT_DIR)
        compared = 0
        for text in part_of(TEXTS, part, SHARE):
            built = built_query(searcher, read_query(text), budget.Work())
            if built is None:
                continue
            for hit in searcher.search(built, limit=10, terms=True):
                marked = snippet(hit)  # through the tokens of kb.engine.fused
                hit.results.highlighter = highlight.Highlighter(
                    fragmenter=highlight.ContextFragmenter(maxchars=240, surround=60),
                    scorer=EarlierOnTies(),
                    formatter=highlight.HtmlFormatter(tagname="mark", between=" … "),
                )
                assert marked == hit.results.highlighter.highlight_hit(hit, "text", top=PASSAGES), text
                compared += bool(marked)
        assert compared > 100 * SHARE
    finally:
        kb.close()
