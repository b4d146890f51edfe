"""Answers from storage: opening a knowledge base reads no versions, an answer reads only the
versions it needs, each thread reads with its own SQLite connection (closed with the knowledge
base), and the cross-date answers (diff, as-of) equal the whole-store reading they replace."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from kb import schema
from kb.errors import BuildError
from kb.ingest import store
from kb.model import status
from kb.paging import EVERYTHING
from kb.paths import current
from kb.query import KnowledgeBase
from kb.read import periods

THREADS = 8


def version_count(directory: Path) -> int:
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        return int(db.execute("SELECT count(*) FROM versions").fetchone()[0])


def test_a_version_read_by_place_is_the_row_read_by_name(history_root: Path) -> None:
    """`schema.version_of` unpacks a row by the place of each column of `VERSION_COLUMNS`: every
    version of the history library read so is the one its columns, read by name, describe."""
    with closing(sqlite3.connect(current(history_root) / store.DB_NAME)) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute(f"SELECT {schema.VERSION_SELECT} FROM versions").fetchall()
    assert len(rows) == 71
    for row in rows:
        version = schema.version_of(row)
        read = (version.id, version.topic, version.series, version.headword, version.text, version.document_id)
        assert read == (row["id"], row["topic_id"], row["series"], row["headword"], row["text"], row["document_id"])
        assert (version.valid_from, version.valid_to) == (schema.day(row["valid_from"]), schema.day(row["valid_to"]))
        assert (version.line_start, version.line_end, version.operation, version.end, version.supersedes) == (
            row["line_start"], row["line_end"], row["operation"], row["ended"], row["supersedes"]
        )  # fmt: skip
        assert (version.note, version.condition, version.summary, version.authority, version.key) == (
            row["note"], row["condition"], row["summary"], row["authority"], row["key"]
        )  # fmt: skip
        assert version.references == json.loads(row["refs"])
        assert version.ended_by == (json.loads(row["ended_by"]) if row["ended_by"] else None)
    assert sum(bool(schema.version_of(r).references) for r in rows) > 0


def test_opening_reads_no_versions_and_show_reads_only_its_topics(history_root: Path) -> None:
    directory = current(history_root)
    kb = KnowledgeBase(directory)
    assert (kb.store.versions_read, version_count(directory)) == (0, 71)
    shown = kb.show("Conundrum", dt.date(2001, 1, 1))
    assert [p["key"] for p in shown["parts"]] == ["stccg:conundrum@cr-update-2000-12-18@glossary"]
    assert kb.store.versions_read == 3  # the three versions of Conundrum, read once for every part of the answer
    kb.history("Conundrum")
    assert kb.store.versions_read == 3  # kept from the show
    kb.show("A fast ship would be nice")
    assert kb.store.versions_read == 3 + len(kb.store.versions_of("stccg:a-fast-ship-would-be-nice")) == 4
    kb.close()


def test_a_search_reads_only_the_versions_it_shows(history_root: Path) -> None:
    """A hit's number in its series and what ended it are stored with it (`kb.model.Place`), not
    read from its whole history."""
    kb = KnowledgeBase(current(history_root))
    first = kb.search("conundrum", as_of=dt.date(2000, 12, 1))["results"][0]
    assert (first["key"], first["number"], first["of"], first["ended_by"]["why"]) == (
        "stccg:conundrum@cr-update-2000-11-27@glossary",
        2,
        3,
        "superseded by version 3",
    )
    assert kb.store.versions_read == 1
    kb.close()


def test_the_parts_of_hits_read_nothing_of_their_topics_histories(history_root: Path) -> None:
    """What an answer part tells of a version's place in its topic's history (its number in its
    series, how many that has, what its text lacks, the version that superseded it and its number)
    is stored with the version (`kb.model.Place`): the parts of 11 versions of four topics, read as a
    search reads its hits, run one statement (the cards they name) where they read each topic's
    outline, one statement a topic (issue 48: a fifth of a search's CPU on the 90k library)."""
    kb = KnowledgeBase(current(history_root))
    topics = ["stccg:tribble", "stccg:chajoh", "stccg:ship-staffing", "stccg:mission-attempt"]
    marks = ",".join("?" * len(topics))
    ids = [r[0] for r in kb.store.rows(f"SELECT id FROM versions WHERE topic_id IN ({marks}) ORDER BY id", *topics)]
    versions = list(kb.store.versions_numbered(ids).values())
    kb.store.documents()  # the documents' facts, read once for every answer
    before = kb.store.statements
    parts = kb._parts.parts(versions, dt.date(2000, 12, 1))
    assert kb.store.statements - before == 1
    omitted = "omitted from the full Current Rulings of 2001-01-29"
    found = [
        (p["key"].split(":")[1], p["number"], p["of"], bool(p["partial"]), p["ended_by"] and p["ended_by"]["why"])
        for p in parts
    ]
    assert found == [
        ("chajoh@glossary-1-7@glossary", 1, 2, False, "superseded by version 2"),
        ("tribble@glossary-1-7@glossary", 1, 1, False, None),
        ("mission-attempt@cr-2000-10-30@current-rulings", 1, 3, False, "superseded by version 2"),
        ("tribble@cr-2000-10-30@current-rulings", 1, 3, False, "superseded by version 2"),
        ("chajoh@cr-update-2000-11-27@glossary", 2, 2, False, None),
        ("chajoh@cr-update-2000-11-27@current-rulings", 1, 1, False, None),
        ("mission-attempt@cr-update-2000-11-27@current-rulings", 2, 3, False, "superseded by version 3"),
        ("ship-staffing@cr-update-2000-11-27@glossary", 1, 1, True, None),
        ("tribble@cr-update-2000-11-27@current-rulings", 2, 3, False, omitted),
        ("mission-attempt@cr-update-2000-12-18@current-rulings", 3, 3, False, omitted),
        ("tribble@cr-update-2000-12-18@current-rulings", 3, 3, False, None),
    ]  # fmt: skip
    successors = [p["ended_by"]["successor"] for p in parts if p["ended_by"] and p["ended_by"]["successor"]]
    assert successors == [
        "stccg:chajoh@cr-update-2000-11-27@glossary",
        "stccg:mission-attempt@cr-update-2000-11-27@current-rulings",
        "stccg:tribble@cr-update-2000-11-27@current-rulings",
        "stccg:mission-attempt@cr-update-2000-12-18@current-rulings",
    ]
    kb.close()


def test_a_card_reads_only_the_versions_naming_it(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    answer = kb.card("Nebula")
    assert kb.store.versions_read == len(answer["history"]) == 2
    kb.close()


def test_a_deck_reads_only_the_versions_in_force_of_its_cards(history_root: Path) -> None:
    """A deck shows each card's rulings in force, not its history: of Conundrum's three versions
    and Nebula's two rescinded ones, it reads the one in force (it read all five, issue 48 item 9:
    a deck of 400 cards of the 90k library cost 2.7 times its CPU so)."""
    kb = KnowledgeBase(current(history_root))
    answer = kb.deck("Conundrum\nNebula")
    found = [(c["name"], [(e["topic"], [p["key"] for p in e["parts"]]) for e in c["entries"]]) for c in answer["cards"]]
    assert found == [
        ("Conundrum", [("stccg:conundrum", ["stccg:conundrum@cr-update-2000-12-18@glossary"])]),
        ("Nebula", []),
    ]
    assert kb.store.versions_read == 1
    kb.close()


def test_threads_read_with_their_own_connections_and_close_closes_them(history_root: Path) -> None:
    kb = KnowledgeBase(current(history_root))
    questions = ["Conundrum", "A fast ship would be nice", "Tribble", "Cha'Joh"]

    def ask(topic: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return kb.show(topic), kb.history(topic)

    alone = [ask(q) for q in questions]
    start = threading.Barrier(THREADS)
    got: list[list[Any]] = [[] for _ in range(THREADS)]
    errors: list[BaseException] = []

    def work(number: int) -> None:
        start.wait()
        try:
            for _ in range(5):
                got[number] = [ask(q) for q in questions[number % 4 :] + questions[: number % 4]]
        except BaseException as err:  # reported by the main thread
            errors.append(err)

    workers = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for worker in workers:
        worker.start()
    assert kb.store.open_connections() <= THREADS + 1
    for worker in workers:
        worker.join()
    assert errors == []
    for number, answers in enumerate(got):
        shift = number % 4
        assert answers == alone[shift:] + alone[:shift]
    later = threading.Thread(target=kb.show, args=("Conundrum",))
    later.start()
    later.join()
    assert kb.store.open_connections() == 2  # the ended threads' were closed: the main thread's and the last one's
    kb.close()
    assert kb.store.open_connections() == 0
    with pytest.raises(BuildError, match="replaced and closed"):
        kb.show("Conundrum")


def whole_store_diff(kb: KnowledgeBase, start: dt.date, end: dt.date) -> dict[str, list[str]]:
    """The topics added, changed, rescinded and pending between two dates, from every version."""
    found: dict[str, list[str]] = {"added": [], "changed": [], "rescinded": [], "pending": []}
    for topic in kb.store.topics():
        history = kb.store.versions_of(topic["id"])
        before = [v for v in history if status(v, start) == "active"]
        after = [v for v in history if status(v, end) == "active"]
        if before and not after:
            found["rescinded"].append(topic["id"])
        elif after and not before:
            found["added"].append(topic["id"])
        elif [(v.text, v.note) for v in before] != [(v.text, v.note) for v in after]:
            found["changed"].append(topic["id"])
        for version in history:
            issued = kb.store.documents()[version.document_id]["date"]
            if status(version, end) == "pending" and issued and start.isoformat() < issued <= end.isoformat():
                found["pending"].append(topic["id"])
    return {kind: sorted(topics) for kind, topics in found.items()}


@pytest.mark.parametrize("root", ["bundled_root", "history_root"])
def test_diff_and_as_of_read_by_date_give_the_whole_store_answers(root: str, request: pytest.FixtureRequest) -> None:
    kb = KnowledgeBase(current(request.getfixturevalue(root)))
    days = sorted(
        {dt.date.fromisoformat(d) for d in periods.change_days(kb.store)} | {dt.date(1990, 1, 1), dt.date(2100, 1, 1)}
    )
    assert len(days) > 3
    for start in days:
        for end in days[days.index(start) :]:
            answer = kb.diff(start, end, paging=EVERYTHING)
            expected = whole_store_diff(kb, start, end)
            assert {k: sorted(i["topic"] for i in answer[k]) for k in found_kinds()} == expected
            assert answer["counts"] == {k: len(v) for k, v in expected.items()}
        in_force = [(t["id"], v.id) for t in kb.store.topics() for v in kb.in_force(t["id"], start)]
        shown = [(t["topic"], p["version"]) for t in kb.as_of(start, paging=EVERYTHING)["topics"] for p in t["parts"]]
        assert sorted(shown) == sorted(in_force)
    kb.close()


def found_kinds() -> tuple[str, ...]:
    return ("added", "changed", "rescinded", "pending")
