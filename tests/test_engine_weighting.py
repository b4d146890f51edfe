"""Search scores every document exactly as Whoosh's BM25F does over the live documents, from
lengths held in memory.

Each index a knowledge base searches (the in-force index and the history index) is searched
twice for the benchmark queries: through the knowledge base's own searcher (`kb.engine.weighting`)
and through a searcher of Whoosh's BM25F over the same files, given the average length of the
live documents' coded lengths (a full build deletes nothing, so Whoosh's other statistics are
those of the live documents). Every matching document must get the same score, to the last
bit, and the knowledge base's scorer must be the one that reads no length from the index file
per document. (That an index with deleted documents scores as one without is
`tests/test_incremental.py`'s.)
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from test_history_search import QUERIES
from whoosh import index, scoring
from whoosh.searching import Searcher
from whoosh.util.numeric import byte_to_length

from kb.engine import budget, weighting
from kb.paths import CURRENT_DIR, INDEX_DIR, current
from kb.query import KnowledgeBase
from kb.search.plans import built_query
from kb.search.questions import read_query

TEXTS = [text for category in ("phrase", "two words", "single word", "field") for text in QUERIES[category]]
TEXTS += ["Conundrum", "away team dilemma", "seed phase outpost", '"Q-Flash"', "card:Q"]


class LiveWhoosh(scoring.BM25F):  # type: ignore[misc]
    """Whoosh's BM25F, each field's average length that of the lengths Whoosh stores per document."""

    def scorer(self, searcher: Searcher, fieldname: str, text: str, qf: int = 1) -> object:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if isinstance(scorer, scoring.BM25FScorer):
            reader = searcher.get_parent().reader()
            assert not reader.has_deletions()
            lengths = [reader.doc_field_length(d, fieldname, 0) or 0 for d in reader.all_doc_ids()]
            scorer.avgfl = sum(lengths) / reader.doc_count() or 1
        return scorer


def scored(searcher: Searcher, text: str) -> list[tuple[int, float]]:
    query = built_query(searcher, read_query(text), budget.Work())
    if query is None:
        return []
    return [(docnum, score) for score, docnum in searcher.search(query, limit=None).top_n]


@pytest.mark.parametrize("library", ["bundled_root", "history_root"])
@pytest.mark.parametrize("name", [CURRENT_DIR, INDEX_DIR])
def test_scores_are_whooshs_bm25f_over_the_live_documents_to_the_last_bit(
    request: pytest.FixtureRequest, library: str, name: str
) -> None:
    root: Path = request.getfixturevalue(library)
    kb = KnowledgeBase(current(root))
    try:
        ours = kb.searchers.index_searcher(name)
        whooshs = index.open_dir(str(kb.directory / name)).searcher(weighting=LiveWhoosh())
        matched = 0
        for text in TEXTS:
            want = scored(whooshs, text)
            assert scored(ours, text) == want, text
            matched += len(want)
        assert matched > 20  # the queries do match: the comparison is not of empty lists
        whooshs.close()
    finally:
        kb.close()


def test_a_text_words_scorer_reads_its_lengths_from_memory(bundled_root: Path) -> None:
    kb = KnowledgeBase(current(bundled_root))
    try:
        searcher = kb.searchers.index_searcher(INDEX_DIR)
        scorer = searcher.weighting.scorer(searcher, "text", "dilemma")
        assert isinstance(scorer, weighting.LengthScorer)
        reader = searcher.reader()
        assert len(scorer.codes) == reader.doc_count_all()
        lengths = [reader.doc_field_length(d, "text", 0) for d in range(reader.doc_count_all())]
        assert [byte_to_length(c) if c else None for c in scorer.codes] == lengths  # Whoosh: None for none
    finally:
        kb.close()


def test_the_threads_searchers_share_the_lengths_read(bundled_root: Path) -> None:
    kb = KnowledgeBase(current(bundled_root))
    try:
        kb.search("dilemma", every_version=True)
        first = dict(kb.searchers._lengths)
        assert {field for _, field in first} >= {"text", "extra"}
        other = threading.Thread(target=lambda: kb.search("dilemma", every_version=True))
        other.start()
        other.join()
        assert kb.searchers._lengths == first  # one reading, for both threads
        assert all(kb.searchers._lengths[key] is first[key] for key in first)
    finally:
        kb.close()
