"""After an add, the versions a word matches in each topic are read from the postings the search
read whole, in every segment of the layered index (issue 48 item 8).

An add layers the history index (a segment more, the replaced documents deleted). The positions
of a search's words in the topics it ranks were then read again by stepping Whoosh's matchers,
one topic and word at a time: 306 searches of the relevance sets took 12.75 s of CPU after 5
adds, 7.43 s after a full build of the same library (`bench/add_equality.py`). They are now
looked up in the postings the search read, segment by segment, as over one segment.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from helpers import FIXTURES, SEEDS
from kb.engine import budget, bulk
from kb.engine import version_matching as matching
from kb.ingest.library import add_document
from kb.ingest.pipeline import build
from kb.paths import INDEX_DIR, current
from kb.query import KnowledgeBase
from kb.search.plans import built_query
from kb.search.questions import read_query

UPDATE = (
    "STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n3/5/01\n\nRULINGS\n\n"
    "multi-affiliation cards - A multi-affiliation card may change affiliation once each turn.\n"
)


def test_a_layered_index_reads_positions_from_the_postings_the_search_read(tmp_path: Path) -> None:
    library = tmp_path / "library"
    shutil.copytree(FIXTURES / "library", library)
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
    build(library, tmp_path / "kb")
    new = tmp_path / "current-rulings-update-2001-03-05.txt"
    new.write_text(UPDATE, encoding="utf-8")
    assert add_document(new, kind="current-rulings-update", date=dt.date(2001, 3, 5), library=library,
                        kb=tmp_path / "kb").rewritten is not None  # fmt: skip
    with KnowledgeBase(current(tmp_path / "kb")) as kb:
        searcher = kb.searchers.index_searcher(INDEX_DIR)
        assert len(searcher.leaf_searchers()) == 2  # the build's segment and the add's
        work = budget.Work()
        built = built_query(searcher, read_query("affiliation"), work)
        assert built is not None
        evaluated = bulk.evaluate(searcher, built, work.postings)
        assert evaluated is not None
        docnums = evaluated[0].ids.tolist()
        terms = sorted({(field, text) for field, text in built.iter_all_terms()
                        if searcher.schema[field].format.supports("positions")})  # fmt: skip
        assert ("text", "affiliation") in terms and docnums
        read = bulk.Positions(searcher, work.postings, docnums)
        stepped = matching.Positions(searcher)
        for field, text in terms:
            assert read._place(field, text) is not None  # found in what the search read
            in_each = [sorted(read.versions(field, text, d)) for d in docnums]
            assert in_each == [sorted(stepped.versions(field, text, d)) for d in docnums]
            assert field != "text" or any(in_each)
        assert stepped.matchers and not read.matchers  # no Whoosh matcher stepped
