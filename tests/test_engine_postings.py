"""Postings kept between searches (`kb.engine.postings.KEPT`): what is kept is what the
segment's files hold, never changed, named by the segment (each build's are its own), and
bounded in bytes, the least recently asked dropped first."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest
from whoosh import index
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.lang.porter import stem
from whoosh.query import Term

from kb.engine import bulk, postings
from kb.engine.postings import Postings
from kb.kept import Kept, Pool
from kb.paths import INDEX_DIR, current
from kb.query import KnowledgeBase


def _read(root: Path, words: list[bytes] | None = None) -> dict[bytes, Postings]:
    """Each word's postings in the text field of the index of every version of ``root`` (all
    words read from blocks when None), read from the files (no key) and then twice through
    the kept postings, which must be the same."""
    found = {}
    with index.open_dir(str(current(root) / INDEX_DIR)).searcher() as searcher:
        reader = searcher.reader()
        segment = postings.segment_of(reader)
        assert segment is not None and segment[0] == str(current(root) / INDEX_DIR)
        for raw in words or list(reader.lexicon("text")):
            if type(reader.postings("text", raw)) is not W3LeafMatcher:
                assert words is None, raw  # the words asked for are read from blocks, not inlined
                continue
            ids, weights, values = postings.postings(reader.postings("text", raw), True)
            once = postings.postings(reader.postings("text", raw), True, (segment, "text", raw))
            again = postings.postings(reader.postings("text", raw), True, (segment, "text", raw))
            assert again[0] is once[0] and again[2] is once[2]  # the second read is the kept one
            for read in (once, again):
                assert read[0].tolist() == ids.tolist() and read[1].tolist() == weights.tolist()
                assert list(read[2] or []) == list(values or [])
            found[raw] = once
    return found


def _topics_saying(root: Path, word: str) -> int:
    """How many topics have a version whose text holds ``word`` (as stemmed), read from the store."""
    with closing(sqlite3.connect(current(root) / "kb.sqlite")) as db:
        texts = db.execute("SELECT topic_id, text FROM versions").fetchall()
    return len({topic for topic, text in texts if word in {stem(w) for w in re.findall(r"[a-z]+", text.lower())}})


def test_kept_postings_are_the_files_and_cannot_be_changed(bundled_root: Path) -> None:
    ids, weights, values = _read(bundled_root, [b"card", b"mission", b"dilemma"])[b"mission"]
    assert len(ids) == _topics_saying(bundled_root, "mission") == 31 and isinstance(values, tuple)
    with pytest.raises(ValueError, match="read-only"):
        ids[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        weights[0] = 0.0


def test_each_build_reads_its_own_postings(bundled_root: Path, history_root: Path) -> None:
    """Two builds of other libraries, read in turn in one process: a word's postings are each build's own."""
    bundled = _read(bundled_root, [b"mission"])[b"mission"]
    other = _read(history_root, [b"mission"])[b"mission"]
    assert (len(bundled[0]), len(other[0])) == (31, _topics_saying(history_root, "mission")) == (31, 10)
    assert _read(bundled_root, [b"mission"])[b"mission"][0] is bundled[0]


def test_kept_postings_are_bounded_least_recently_asked_first(bundled_root: Path) -> None:
    entries = list(_read(bundled_root).items())
    size = {word: postings.size_of(found) for word, found in entries}
    kept: Kept[Postings] = Kept(8 * max(size.values()), postings.size_of)
    assert len(entries) > 100 and sum(size.values()) > 2 * kept.most  # more than it holds
    first = entries[0][0]
    for number, (word, found) in enumerate(entries):
        kept.put(word, found)
        if number % 2 == 0:
            assert kept.get(first) is entries[0][1]  # asked again and again: never dropped
    held = [word for word, _ in entries if kept.get(word) is not None]
    assert kept.size == sum(size[word] for word in held) <= kept.most
    rest = [word for word, _ in entries[1:]]
    assert held[0] == first and held[1:] == rest[len(rest) - len(held) + 1 :]  # the others asked last


def test_scored_postings_are_kept_per_searcher_and_are_whooshs_scores(bundled_root: Path) -> None:
    """A term's scored postings are read once per searcher (its index never changes under it),
    another searcher scores its own, and the scores are those Whoosh's matchers give."""
    with KnowledgeBase(current(bundled_root)) as kb:
        searcher = kb.searchers.history_searcher(None)
        assert searcher is not None and searcher.is_atomic()
        first = bulk.scored(searcher, "text", b"mission")
        assert bulk.scored(searcher, "text", b"mission") is first
        assert len(first.ids) == _topics_saying(bundled_root, "mission") == 31
        assert len(bulk.scored(searcher, "text", b"nosuchword").ids) == 0
        whooshs = {d: s for s, d in searcher.search(Term("text", "mission"), limit=None).top_n}
        assert first.ids.tolist() == sorted(whooshs)
        assert all(abs(s - whooshs[d]) <= 1e-9 for d, s in zip(first.ids.tolist(), first.scores.tolist(), strict=True))
        with index.open_dir(str(current(bundled_root) / INDEX_DIR)).searcher(weighting=searcher.weighting) as other:
            again = bulk.scored(other, "text", b"mission")
            assert again is not first and again.scores.tolist() == first.scores.tolist()


def test_positions_read_together_are_each_postings_own(history_root: Path) -> None:
    """`postings.positions_in` unpickles many postings' positions in one call: the same
    positions as each posting's decoded apart, each marked with the posting it is of."""
    with index.open_dir(str(current(history_root) / INDEX_DIR)).searcher() as searcher:
        field_format = searcher.schema["text"].format
        compared = 0
        for raw, (_, _, values) in _read(history_root).items():
            assert values is not None, raw
            owners, places = postings.positions_in(field_format, values)
            want = [(n, p) for n, value in enumerate(values) for p in postings.decoded(field_format, value)]
            assert list(zip(owners.tolist(), places.tolist(), strict=True)) == want, raw
            compared += len(want)
        assert compared > 3_000


def test_positions_placed_in_documents_are_whooshs(history_root: Path) -> None:
    """`postings.placed` finds where each document asked about stands in a term's postings read
    whole: its positions there are those Whoosh's matcher gives, none in a document without the
    term; None for postings not read whole, a field the index lacks or a word it cannot hold."""
    with index.open_dir(str(current(history_root) / INDEX_DIR)).searcher() as searcher:
        reader = searcher.reader()
        read, key = {}, id(searcher)
        for raw in (b"mission", b"card"):
            ids, scores, values = postings.postings(reader.postings("text", raw), True)
            read[(key, "text", raw)] = postings.Read(ids, scores, values)
        docnums = np.arange(reader.doc_count_all(), dtype=np.int64)
        holding = {}
        for word in ("mission", "card"):
            found = postings.placed(reader, read, key, "text", word, docnums)
            assert found is not None
            matcher = reader.postings("text", word.encode())
            whooshs = {}
            while matcher.is_active():
                whooshs[matcher.id()] = list(matcher.value_as("positions"))
                matcher.next()
            holding[word] = len(found.where)
            assert len(found.where) == len(whooshs), word
            assert {d: found.positions(d) for d in docnums.tolist()} == {
                d: whooshs.get(d, []) for d in docnums.tolist()
            }, word
        assert holding == {"mission": 10, "card": 22}
        assert postings.placed(reader, read, key, "text", "dilemma", docnums) is None  # not read whole
        assert postings.placed(reader, read, key + 1, "text", "mission", docnums) is None  # another searcher's
        assert postings.placed(reader, read, key, "nosuchfield", "mission", docnums) is None


def test_a_full_table_drops_its_least_recently_asked_entries_not_all_of_them() -> None:
    table: Kept[bytes] = Kept(10, len, largest=10)
    assert table.put("a", b"1234") == b"1234" and table.put("b", b"123456") == b"123456"
    assert (table.get("a"), table.size) == (b"1234", 10)  # "a" asked last
    assert table.put("c", b"1") == b"1"  # over 10: "b" goes, "a" stays
    assert (table.get("a"), table.get("b"), table.get("c"), table.size) == (b"1234", None, b"1", 5)
    assert table.put("a", b"other") == b"1234"  # what is kept under a key stays
    assert table.put("big", b"12345678901") == b"12345678901" and table.asked() == ["a", "c"]  # over largest
    counted: Kept[str] = Kept(2, largest=1)
    for n in range(5):
        counted.put(n, str(n))
    assert counted.asked() == [3, 4]


def test_tables_sharing_a_pool_give_way_within_themselves() -> None:
    """When the pool is full, a table drops its own oldest entries for a new one; a table with
    nothing to drop keeps nothing; what tables drop or forget goes back to the pool."""
    pool = Pool(10)
    first: Kept[bytes] = Kept(10, len, pool, largest=10)
    second: Kept[bytes] = Kept(10, len, pool, largest=10)
    first.put("a", b"123456")
    second.put("b", b"1234")
    assert pool.holds() == 10
    second.put("c", b"12")
    assert (first.get("a"), second.get("b"), second.get("c"), pool.holds()) == (b"123456", None, b"12", 8)
    third: Kept[bytes] = Kept(10, len, pool, largest=10)
    third.put("d", b"123")
    assert (third.get("d"), len(third), pool.holds()) == (None, 0, 8)
    second.empty()
    del first
    assert pool.holds() == 0
