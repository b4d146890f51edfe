"""What a search reads of the index of the versions in force: the stored fields of the hits it
shows, not of those it passes over (issue 48 item 6: a search's own CPU is what a search queued
behind it waits for)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_bulk import TEXTS
from whoosh.reading import SegmentReader
from whoosh.searching import Results

from kb.engine import budget, bulk
from kb.paths import CURRENT_DIR, current
from kb.query import KnowledgeBase
from kb.search import restating
from kb.search.plans import built_query
from kb.search.questions import read_query


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(bundled_root))


def reading(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The documents whose stored fields are read from now on (each read once listed)."""
    reads: list[int] = []
    real = SegmentReader.stored_fields
    monkeypatch.setattr(SegmentReader, "stored_fields", lambda self, docnum: reads.append(docnum) or real(self, docnum))
    return reads


@pytest.mark.parametrize(
    ("text", "shown", "first", "again"),
    [("what happens when a ship is stopped", 20, 26, 21)],
)
def test_a_question_reads_the_fields_of_the_hits_shown(
    bundled: KnowledgeBase, monkeypatch: pytest.MonkeyPatch, text: str, shown: int, first: int, again: int
) -> None:
    """A question of several words ranks up to a hundred versions matching most of its words and
    a hundred its rarest word finds, to show twenty: it reads the stored fields of those shown
    (and of one more, which tells whether more follow) and the headwords of the others its
    rarest word may name, once for the index (`kb.engine.memo`). Before, every hit's fields were
    read to drop those already found and to order Glossary restatements in a library that has
    none: 108 reads, and 108 again."""
    reads = reading(monkeypatch)
    answer = bundled.search(text)
    assert (len(answer["results"]), len(reads)) == (shown, first)
    reads.clear()
    bundled.search(text)
    assert len(reads) == again


def test_the_default_game_is_worked_out_once(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page asks the default game (twice a search: the page's game and the search's); it is
    read from the build once (before, its file was read at each asking: 3 reads here)."""
    reads: list[Path] = []
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self) or real(self, *a, **k))
    with KnowledgeBase(current(bundled_root)) as kb:
        reads.clear()
        assert [kb.default_game() for _ in range(3)] == ["stccg"] * 3
    assert [path.name for path in reads] == ["default_game.txt"]


def test_the_terms_each_hit_matched_are_the_evaluations(bundled: KnowledgeBase) -> None:
    """The terms each of a search's hits matched (which mark its snippet and count its words),
    found a term at a time over all the hits, are those `bulk.Evaluation.matched_terms` finds a
    hit at a time, in its order, for every query of the benchmark's stream."""
    searcher = bundled.searchers.index_searcher(CURRENT_DIR)
    compared = 0
    for text in TEXTS:
        built = built_query(searcher, read_query(text), budget.Work())
        evaluated = bulk.evaluate(searcher, built) if built is not None else None
        if evaluated is None:
            continue
        found, evaluation = evaluated
        docnums = found.ids[:: max(1, len(found.ids) // 50)].tolist()[::-1]
        want = {docnum: evaluation.matched_terms(docnum) for docnum in docnums}
        assert bulk.matched_terms(evaluation.leaves, docnums) == want, text
        compared += sum(map(len, want.values()))
    assert compared > 1500  # 1,916 terms of hits


def test_the_snippets_of_a_search_find_the_terms_matched_once(
    bundled: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terms a snippet marks are those any hit of the results matched: found once for the
    twenty snippets of a page (before, once for each: 21 times here, the one more that tells
    whether more follow included)."""
    asked: list[int] = []
    real = Results.matched_terms
    monkeypatch.setattr(Results, "matched_terms", lambda self: asked.append(id(self)) or real(self))
    answer = bundled.search("ship")
    assert (len(answer["results"]), len(asked)) == (20, 1)
    assert answer["results"][0]["snippet"].count('<mark class="match term0">') >= 1


def test_the_documents_restating_rules_are_worked_out_once(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which documents restate numbered rules (`kb.search.restating`) is worked out once for the
    store read, not at every search (before: at every search, through its own import of it)."""
    worked: list[int] = []
    real = restating.restating_documents
    monkeypatch.setattr(restating, "restating_documents", lambda documents: worked.append(1) or real(documents))
    with KnowledgeBase(current(bundled_root)) as kb:
        assert [len(kb.search(text)["results"]) for text in ("ship", "dilemma", "ship")] == [20, 20, 20]
    assert len(worked) == 1
