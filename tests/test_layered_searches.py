"""What searches over an index an add has layered (two segments, replaced documents deleted in
the first) cost beyond a full build's (#48 item 8): equal scores are ordered from keys read once
per index state, never from stored fields per search; a candidate spelling's fit is counted
from the postings read whole, never by stepping Whoosh's matchers over the deleted documents; a
query is evaluated once over the segments joined, and history versions are found by keys there."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from whoosh import index
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import SegmentReader

from helpers import FIXTURES, ROOT, SEEDS
from kb.engine import budget, bulk
from kb.engine.planning import engine_query
from kb.engine.version_keys import TopicVersions, VersionKeys, topics_of
from kb.engine.version_matching import rarity
from kb.ingest.pipeline import build
from kb.paths import CURRENT_DIR, INDEX_DIR, current
from kb.plan import And, Or
from kb.query import KnowledgeBase
from kb.search import validity
from kb.search.plans import built_query, together, word_query
from kb.search.questions import read_query


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """The fixture library built, then an add of three rulings (both indexes of two segments),
    and a full build of the library as it then is."""
    sys.path.insert(0, str(ROOT / "bench"))
    from add_equality import add_many

    library = tmp_path / "library"
    shutil.copytree(FIXTURES / "library", library)
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
    build(library, tmp_path / "kb")
    assert add_many(library, tmp_path / "kb", tmp_path / "incoming", 1, 3) != [None]
    directory = current(tmp_path / "kb")
    for folder in (INDEX_DIR, CURRENT_DIR):
        with index.open_dir(str(directory / folder)).reader() as reader:
            assert len(list(reader.leaf_readers())) == 2 and reader.has_deletions()
    return directory, build(library, tmp_path / "full").directory


@contextmanager
def counted(owner: type, name: str) -> Iterator[list[int]]:
    """Counts the calls of ``owner.name`` (Whoosh's own, still called) while the block runs."""
    original: Callable[..., Any] = getattr(owner, name)
    calls = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    setattr(owner, name, counting)
    try:
        yield calls
    finally:
        setattr(owner, name, original)


def searched(directory: Path, owner: type, name: str) -> tuple[list[Any], int]:
    """The answers to the relevance queries (in force, over every version) asked a second time
    (the first reads what a knowledge base keeps), and the calls of ``owner.name`` they made."""
    sys.path.insert(0, str(ROOT / "bench"))
    from add_equality import queries

    texts = queries()
    with counted(owner, name) as calls, KnowledgeBase(directory) as kb:  # counting before Whoosh binds the methods
        for text in texts:
            kb.search(text, limit=10)
            kb.search(text, limit=10, every_version=True)
        before = calls[0]
        answers = [(kb.search(t, limit=10), kb.search(t, limit=10, every_version=True)) for t in texts]
    return answers, calls[0] - before


@pytest.mark.parametrize(
    ("owner", "name", "count"),
    [
        (SegmentReader, "stored_fields", 495),
        (FilterMatcher, "_find_next", 0),
        (bulk.Evaluation, "_term", 27358),
    ],
    ids=[
        "equal scores ordered without reading stored fields",
        "spellings' fit with no matcher over deleted",
        "each term read once however many segments",
    ],
)
def test_searches_over_two_segments_do_what_a_full_builds_do(
    built: tuple[Path, Path], owner: type, name: str, count: int
) -> None:
    """The 306 searches of the relevance queries over the layered knowledge base answer as the
    full build does, and:

    - read the stored fields a full build's read (those of the versions they show: 529), none
      more to order documents of equal score (before: 169 more; 22,000 on the 90k stress
      library after 30 adds);
    - check their candidate spellings' fit (`kb.search.plans.together`) from the postings read
      whole: Whoosh's filter of deleted documents is never stepped (before: 1,610 of its steps,
      145,000 on the 90k stress library after 30 adds; a full build has none);
    - look each word up once per search, as over one segment (`kb.engine.bulk.Evaluation._term`:
      before, once per segment, 54,356 against 27,178)."""
    layered, full = built
    ours, done = searched(layered, owner, name)
    theirs, expected = searched(full, owner, name)
    assert (done, expected) == (count, count)
    assert ours == theirs


def test_a_spellings_fit_counts_the_live_documents_as_whooshs_matchers_do(built: tuple[Path, Path]) -> None:
    """How many documents of the layered index of every version hold a word and one of others,
    counted from the postings: what Whoosh's matchers count (its deleted documents left out),
    up to ``most``."""
    layered, _ = built
    pairs = [
        ("affiliation", ["ship"]),
        ("turn", ["affiliation", "ship"]),
        ("outpost", ["ship"]),
        ("card", ["play", "turn"]),
    ]
    with KnowledgeBase(layered) as kb:
        searcher = kb.searchers.history_searcher(None)
        assert searcher is not None and searcher.reader().has_deletions()
        fits = [together(searcher, word, others) for word, others in pairs]
        capped = [together(searcher, word, others, most=2) for word, others in pairs]
        whooshs = [
            sum(
                1
                for _ in searcher.docs_for_query(
                    engine_query(And((word_query(w), Or(tuple(word_query(o) for o in others)))))
                )
            )
            for w, others in pairs
        ]
    assert fits == whooshs == [5, 0, 4, 10]
    assert capped == [2, 0, 2, 2]


def test_history_versions_are_found_by_keys_over_two_segments(built: tuple[Path, Path]) -> None:
    """The versions a query matches in every topic at once (`kb.engine.version_keys`, what a
    history search as of a date or for a phrase uses beyond its first topics) are found over
    the layered history index too (before: refused for its two segments, every topic then
    checked one by one), and are those of the full build."""
    texts = ["affiliation", "card play", '"download"', "outpost -ship"]
    found = []
    for directory in built:
        with KnowledgeBase(directory) as kb:
            searcher = kb.searchers.history_searcher(None)
            assert searcher is not None
            table = validity.of(searcher)
            each = []
            for text in texts:
                work = budget.Work()
                planned = built_query(searcher, read_query(text), work)
                assert planned is not None and bulk.evaluate(searcher, planned, work.postings) is not None
                cost = rarity(searcher)
                keys = VersionKeys(searcher, work.postings, cost).matched(planned)
                docnums = topics_of(keys).tolist()
                held = TopicVersions(keys, docnums)
                each.append(sorted(v for place, d in enumerate(docnums) for v in table.found(d, held[place])[1]))
            found.append(each)
    layered, full = found
    assert layered == full
    assert [len(versions) for versions in full] == [12, 15, 5, 5]
