"""A diff of a period is cheap (issue 48, item 9): it reads only the versions that decide it, what it
found and made is kept (within the process's bound of the pages' caches), a diff asked again reads
nothing and answers exactly what a fresh knowledge base computes, and a page of long changed texts
ends by the work of its word diffs, not by its count alone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kb.paging import Paging
from kb.paths import current
from kb.query import KnowledgeBase
from kb.read.changes import DIFF_CHARS
from kb.vocabulary import CHANGE_KINDS

DAY = dt.date.fromisoformat


def test_a_diff_reads_only_the_versions_deciding_it(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    read = []
    for document in ("glossary-1-7", "cr-2000-10-30", "cr-update-2000-11-27"):
        start, end, _ = kb.document_range(document)
        before = kb.store.versions_read
        kb.diff(start, end, paging=Paging(0, 3))
        read.append(kb.store.versions_read - before)
    # before: 35, 27 and 126 (the versions later documents made, read too), then 20, 20 and 121
    # (every version in force on the end, read for its typography: only those restated are now)
    assert read == [10, 6, 66]


def test_a_diff_asked_again_reads_nothing_and_equals_a_fresh_one(history_root: Path) -> None:
    kept, fresh = KnowledgeBase(current(history_root)), KnowledgeBase(current(history_root))
    ranges = [(DAY("2000-07-31"), DAY("2001-02-01")), (DAY("2000-10-29"), DAY("2000-11-27")),
              (DAY("2000-11-26"), DAY("2000-12-18"))]  # fmt: skip
    for start, end in ranges:
        for offset in (0, 3, 6):
            first = kept.diff(start, end, paging=Paging(offset, 3))
            read = kept.store.versions_read
            again = kept.diff(start, end, paging=Paging(offset, 3))
            assert kept.store.versions_read == read  # found and made once
            computed = KnowledgeBase(current(history_root)).diff(start, end, paging=Paging(offset, 3))
            assert again == first == computed == fresh.diff(start, end, paging=Paging(offset, 3))
    again["changed"].clear()  # an answer is the caller's: changing it changes nothing kept
    assert kept.diff(*ranges[-1], paging=Paging(6, 3)) == computed
    whole = kept.diff(*ranges[1], paging=Paging(0, None))
    assert whole["counts"] == {"added": 42, "changed": 8, "rescinded": 0, "pending": 0}
    assert whole == fresh.diff(*ranges[1], paging=Paging(0, None))


def test_a_page_of_changed_texts_ends_by_the_work_of_their_word_diffs(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    start, end = DAY("2000-11-26"), DAY("2000-11-27")
    page = kb.diff(start, end, paging=Paging(0, 1000, work=20))
    weights = [1 + sum(len(text) for _, text in item["diff"]) // DIFF_CHARS for item in page["changed"]]
    assert page["page"]["size"] == len(weights) == 4  # before: 20 items, ten of them changed texts
    assert sum(weights[:-1]) < 20 <= sum(weights) and page["page"]["next"] == 4


def _statements(kb: KnowledgeBase, ask: object) -> list[str]:
    """The statements (their parameters bound) ``ask()`` runs on this thread's connection to the store."""
    ran: list[str] = []
    connection = kb.store._connection()
    connection.set_trace_callback(ran.append)
    try:
        ask()  # type: ignore[operator]
    finally:
        connection.set_trace_callback(None)
    return ran


def test_a_diff_and_the_feed_look_versions_up_by_index_never_by_scanning_them(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    documents = [d["id"] for d in kb.latest_documents(20)]

    def ask() -> None:
        for document in ("glossary-1-7", "cr-2000-10-30", "cr-update-2000-11-27"):
            start, end, _ = kb.document_range(document)
            kb.diff(start, end, paging=Paging(0, 3))
        kb.document_changes(50, documents)

    connection = kb.store._connection()
    read = [s for s in _statements(kb, ask) if " FROM versions" in s]
    plans = {s: [r[3] for r in connection.execute("EXPLAIN QUERY PLAN " + s)] for s in read}
    scanning = [s.split(" FROM versions")[1][:80] for s, plan in plans.items() if "SCAN versions" in plan]
    # before: the feed's versions made or ended by its documents, and the versions in force and restated
    # (a diff's typography), were found by reading every version (0.28 s and 0.03 s on the 90k library)
    assert scanning == []
    deciding = [plan for s, plan in plans.items() if "json_each" in s and "topic_id IN" in s]
    assert deciding and all(any("USING INDEX versions_topic" in step for step in plan) for plan in deciding)
    # the versions of the touched topics deciding a diff are told apart by their dates within the index
    # (before: its topic alone, so the dates of every version of those topics were read from the table:
    # 73,397 rows for the 1,458 versions deciding a one-month diff of the 90k library)
    columns = [r[2] for r in connection.execute("PRAGMA index_info(versions_topic)")]
    assert columns == ["topic_id", "valid_from", "valid_to", "document_id"]


def test_the_feed_reads_whole_only_the_versions_of_the_changes_it_shows(history_root: Path) -> None:
    kb, fresh = KnowledgeBase(current(history_root)), KnowledgeBase(current(history_root))
    documents = [d["id"] for d in kb.latest_documents(20)]
    before = kb.store.versions_read
    changes = kb.document_changes(2, documents)
    shown = {(c["topic"], c["headword"]) for d in changes.values() for k in CHANGE_KINDS for c in d[k]}
    counts = {d: sum(changes[d]["counts"].values()) for d in documents}
    items = sum(len(d[k]) for d in changes.values() for k in CHANGE_KINDS)
    assert (items, len(shown), sum(counts.values())) == (14, 10, 113)
    # before: every version made or ended by its documents was read whole (its text too): 71
    assert kb.store.versions_read - before == 12  # a version's own change and its ending: read once
    whole = fresh.document_changes(1000, documents)
    assert {d: sum(whole[d]["counts"].values()) for d in documents} == counts
    assert all(changes[d][k] == whole[d][k][:2] for d in documents for k in CHANGE_KINDS)


def test_a_diff_limited_to_cards_reads_the_cards_named_at_once(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    named = {r[0] for r in kb.store.rows("SELECT DISTINCT card_key FROM card_links ORDER BY card_key LIMIT 12")}
    asked = []

    def ask() -> None:
        for document in ("glossary-1-7", "cr-2000-10-30", "cr-update-2000-11-27"):
            start, end, _ = kb.document_range(document)
            asked.append(kb.diff(start, end, cards=named, paging=Paging(0, None))["counts"])

    read = [s for s in _statements(kb, ask) if "FROM card_links WHERE version_id" in s]  # what keeps a version
    assert asked == [
        {"added": 3, "changed": 0, "rescinded": 0, "pending": 0},
        {"added": 0, "changed": 0, "rescinded": 0, "pending": 0},
        {"added": 14, "changed": 3, "rescinded": 0, "pending": 0},
    ]
    assert len(read) == 3  # before: 162, one a version each time it was looked at
