"""Incremental builds: an added newest document is applied to what the previous build saved,
its indexes copied (segments hard-linked) and only the versions it touched rewritten; the
result is the knowledge base a full build of the same library makes. Anything else falls
back to a full build, which still reuses the unchanged documents' parse results."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from whoosh import index

from helpers import FIXTURES, ROOT, SEEDS
from kb.index import writer
from kb.ingest import store
from kb.ingest.incremental import PARSED
from kb.ingest.library import add_document
from kb.ingest.pipeline import BuildReport, build
from kb.model import Place
from kb.paths import CURRENT_DIR, INDEX_DIR, VOCABULARY, current
from kb.query import KnowledgeBase

HEAD = "STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n{us}\n\nRULINGS\n\n"
NEWER = HEAD.format(us="3/5/01") + (
    "Cha'Joh - You may change the affiliation of the ship alone. See multi-affiliation cards.\n\n"
    "multi-affiliation cards - A multi-affiliation card may change affiliation once each turn.\n\n"
    "outpost placement - Playing an outpost where you have a ship is allowed. See Cha'Joh.\n"
)
"""A ruling replaced, the topic another one points to rewritten (its "See" text changes), a new topic."""
CARDS_CHANGED = HEAD.format(us="3/5/01") + (
    "Blood Screening - Nullifying this dilemma does not return the personnel it stopped.\n\n"
    "Zorbak Station - This card may be placed anywhere. See Blood Screening.\n"
)
"""A card's type learnt (Blood Screening: '' -> Dilemma) and a new card no earlier version
names: the earlier versions' links stay, so the add is incremental."""
NAMED_BEFORE = HEAD.format(us="3/5/01") + "Away Team - An Away Team of one personnel may attempt a mission.\n"
"""A new card whose title earlier versions write: their links change, so a full build."""
HEADED_BEFORE = HEAD.format(us="3/5/01") + "Pooling Skills - This card lets two personnel pool one skill.\n"
"""A new card whose title heads earlier versions (the topic "pooling skills"): a full build."""
PERSONA = HEAD.format(us="3/5/01") + "Scotty Transporter Chief - This personnel may beam once each turn.\n"
"""A new personnel of the persona an earlier "any Scotty" names: a full build."""
OLDER = HEAD.format(us="1/5/01") + "multi-affiliation cards - Changed once each turn, before 1/29/01.\n"
"""Dated before the latest document: a full build."""
QUERIES = ["affiliation", "cha'joh", "ship", "multi-affiliation", "outpost", "conundrum", "turn"]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "library", tmp_path / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", tmp_path / "library" / "stccg")
    return tmp_path / "library"


def rows(directory: Path) -> dict[str, set[tuple[object, ...]]]:
    """Every table of the store, as a set of rows."""
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: set(db.execute(f"SELECT * FROM {table}")) for table in tables}


def counts(directory: Path) -> dict[str, int]:
    """How many rows each table of the store has."""
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables}


def in_order(directory: Path) -> list[list[object]]:
    """The cards and the "did you mean" names, in the order the readers list them."""
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        return [[key for (key,) in db.execute(f"SELECT {key} FROM {table} ORDER BY rowid")]
                for key, table in (("key", "cards"), ("folded", "names"))]  # fmt: skip


def indexed(directory: Path) -> set[tuple[tuple[str, object], ...]]:
    """The stored fields of every live document of an index."""
    with index.open_dir(str(directory)).searcher() as searcher:
        return {tuple(sorted(fields.items())) for fields in searcher.all_stored_fields()}


def answers(directory: Path) -> dict[tuple[str, bool, str], set[int]]:
    """The versions found for each query: in force, as of a past date, and over every version."""
    kb = KnowledgeBase(directory)
    found = {}
    try:
        for query in QUERIES:
            for every, as_of in ((False, None), (False, dt.date(2000, 12, 1)), (True, None)):
                answer = kb.search(query, as_of, limit=100, every_version=every, exact=True)
                found[(query, every, str(as_of))] = {hit["version"] for hit in answer["results"]}
    finally:
        kb.close()
    return found


def same_as_full_build(library: Path, kb: Path, tmp_path: Path) -> None:
    """The knowledge base in service in ``kb`` is the one a full build of ``library`` makes."""
    full = current(build(library, tmp_path / "full").directory.parent.parent)
    ours = current(kb)
    assert rows(ours) == rows(full)
    assert counts(ours) == counts(full)  # no row twice
    assert in_order(ours) == in_order(full)
    for folder in (INDEX_DIR, CURRENT_DIR):
        assert indexed(ours / folder) == indexed(full / folder)
    for name in (VOCABULARY, "report.json"):
        assert json.loads((ours / name).read_text()) == json.loads((full / name).read_text())
    assert answers(ours) == answers(full)


def segments_shared(previous: Path, new: Path) -> bool:
    inodes = {p.stat().st_ino for p in (previous / INDEX_DIR).glob("*.seg")}
    return bool(inodes) and inodes <= {p.stat().st_ino for p in (new / INDEX_DIR).glob("*.seg")}


def add(library: Path, kb: Path, tmp_path: Path, text: str, date: dt.date) -> Path:
    return add_report(library, kb, tmp_path, text, date).directory


def add_report(library: Path, kb: Path, tmp_path: Path, text: str, date: dt.date) -> BuildReport:
    new = tmp_path / "incoming" / f"current-rulings-update-{date.isoformat()}.txt"
    new.parent.mkdir(exist_ok=True)  # the test of the first add made it
    new.write_text(text, encoding="utf-8")
    return add_document(new, kind="current-rulings-update", date=date, library=library, kb=kb)


def test_an_added_newest_document_is_applied_incrementally_and_equals_a_full_build(
    library: Path, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    new = tmp_path / "incoming" / "current-rulings-update-2001-03-05.txt"
    new.parent.mkdir()
    new.write_text(NEWER, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "web.cli", "add", str(new), "--kind", "current-rulings-update",
                          "--date", "2001-03-05", "--library", str(library), "--kb", str(kb)],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout  # fmt: skip
    made = current(kb)
    assert out.endswith(f"built {made} in {out.split(' in ')[-1].split(' s')[0]} s from the previous build "
                        "(4 versions indexed anew)\n")  # fmt: skip
    assert segments_shared(previous, made)  # the index was copied, not rewritten
    placing = len(Place._fields)  # the versions' last columns: their place in their topic's history
    before, after = ({row[:-placing] for row in rows(d)["versions"]} for d in (previous, made))
    assert len(after) - len(before) == 3
    ended = {row[0] for row in after - before if row[0] <= len(before)}
    assert [row[1] for row in after if row[0] in ended] == ["stccg:chajoh"]  # the ruling it replaced ended
    replaced = rows(made)["versions"] - rows(previous)["versions"]
    placed = {r[0]: (r[1], r[-placing:]) for r in replaced if r[0] <= len(before)}
    assert placed == {  # the earlier versions of the topics it added to, placed anew: as a full build places them
        22: ("stccg:chajoh", (1, 2, "stccg:chajoh@stccg-current-rulings-update-2001-03-05@current-rulings", 2, None)),
        44: ("stccg:multi-affiliation-cards", (1, 2, None, None, None)),  # was 1 of 1
    }
    same_as_full_build(library, kb, tmp_path)
    third = add(library, kb, tmp_path, NEWER.replace("3/5/01", "4/2/01").replace("alone", "by itself"),
                dt.date(2001, 4, 2))  # fmt: skip
    assert segments_shared(previous, third)  # the full build's segment still, beside one the adds rewrote
    assert [layout(d / INDEX_DIR) for d in (made, third)] == [[(52, 50), (3, 3)]] * 2
    assert [layout(d / CURRENT_DIR) for d in (made, third)] == [[(13, 12), (3, 3)], [(15, 15)]]  # past the bound
    shutil.rmtree(tmp_path / "full")
    same_as_full_build(library, kb, tmp_path)


def test_a_card_type_learnt_or_a_card_named_nowhere_before_is_added_incrementally(
    library: Path, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    report = add_report(library, kb, tmp_path, CARDS_CHANGED, dt.date(2001, 3, 5))
    assert (report.full, report.rewritten) == (None, 2)
    assert segments_shared(previous, report.directory)
    cards = {row[0]: row for row in rows(report.directory)["cards"]}
    assert cards["stccg:blood screening"][3] == "Dilemma"
    assert cards["stccg:zorbak station"][2:4] == ("Zorbak Station", "")
    assert len(cards) - len(rows(previous)["cards"]) == 1
    same_as_full_build(library, kb, tmp_path)


@pytest.mark.parametrize(
    ("text", "date", "why"),
    [
        (NAMED_BEFORE, dt.date(2001, 3, 5), "'Away Team', a new spelling of the card 'Away Team', is written in an "
                                            "earlier version"),
        (HEADED_BEFORE, dt.date(2001, 3, 5), "'Pooling Skills', a new spelling of the card 'Pooling Skills', heads "
                                             "an earlier version"),
        (PERSONA, dt.date(2001, 3, 5), "the card 'Scotty Transporter Chief' changes what \"any scotty\" names in an "
                                       "earlier version"),
        (OLDER, dt.date(2001, 1, 5), "stccg-current-rulings-update-2001-01-05 is not dated on or after every earlier "
                                     "document"),
    ],
)  # fmt: skip
def test_a_card_named_before_or_an_older_document_is_a_full_build_that_says_why(
    library: Path, tmp_path: Path, text: str, date: dt.date, why: str
) -> None:
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    report = add_report(library, kb, tmp_path, text, date)
    assert (report.full, report.rewritten) == (why, None)
    assert not segments_shared(previous, report.directory)
    same_as_full_build(library, kb, tmp_path)


def test_a_rebuild_reuses_the_parse_results_of_unchanged_documents(library: Path, tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    first = build(library, kb).directory
    glossary = library / "stccg" / "glossary-1.7.txt"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "\nzzyzx - A word added at the end.\n")
    second = build(library, kb).directory
    olds = {p.name: p.stat().st_ino for p in (first / PARSED).iterdir()}
    news = {p.name: p.stat().st_ino for p in (second / PARSED).iterdir()}
    assert len(olds) == len(news) == 5
    kept = [name for name in news if olds.get(name) == news[name]]
    assert len(kept) == 4  # every document but the changed glossary: hard links, not parsed again


def test_a_library_and_knowledge_base_copied_elsewhere_are_added_to_incrementally(
    library: Path, tmp_path: Path
) -> None:
    build(library, tmp_path / "kb")
    moved = tmp_path / "elsewhere"
    shutil.copytree(library, moved / "library")
    shutil.copytree(tmp_path / "kb", moved / "kb", symlinks=True)
    shutil.rmtree(library)  # nothing may be read where the library was
    report = add_report(moved / "library", moved / "kb", tmp_path, NEWER, dt.date(2001, 3, 5))
    assert (report.full, report.rewritten) == (None, 4)
    paths = {row[1] for row in rows(report.directory)["documents"]}
    assert len(paths) == 6 and all(p.startswith(str(moved / "library")) for p in paths)
    assert str(library) not in (report.directory / "report.json").read_text()
    same_as_full_build(moved / "library", moved / "kb", tmp_path)


def test_a_changed_earlier_document_is_named_as_the_reason_of_a_full_build(library: Path, tmp_path: Path) -> None:
    build(library, tmp_path / "kb")
    glossary = library / "stccg" / "glossary-1.7.txt"
    glossary.write_text(glossary.read_text(encoding="utf-8") + "\nzzyzx - A word added at the end.\n")
    report = add_report(library, tmp_path / "kb", tmp_path, NEWER, dt.date(2001, 3, 5))
    assert report.full == "glossary-1-7 changed (its file, its manifest entry or its game's card titles)"


def segments(directory: Path) -> int:
    with index.open_dir(str(directory)).reader() as reader:
        return len(list(reader.leaf_readers()))


def opened(directory: Path, texts: list[str]) -> int:
    """How many more files this process holds open once a knowledge base has answered ``texts``."""
    before = len(os.listdir("/proc/self/fd"))
    with KnowledgeBase(directory) as kb:
        for text in texts:
            kb.search(text, limit=10)
            kb.search(text, limit=10, every_version=True)
        return len(os.listdir("/proc/self/fd")) - before


def test_after_many_adds_every_search_answers_as_a_full_build_in_order_and_score(library: Path, tmp_path: Path) -> None:
    """Twenty-one adds, each restating five rulings (often ones an earlier add restated): the
    indexes then hold many replaced documents, which must count for nothing. Every query of the
    relevance sets, in force, as of a past date and over every version, answers as a full
    build of the same library does (results, order, snippets), and every document each index
    matches has the same score to the last bit. Each index keeps at most two segments (#48
    item 8): after 21 adds, two and one (they had 22 and 6, and the searches held 26 more files
    open than a full build's)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from add_equality import add_many, compare, queries

    kb = tmp_path / "kb"
    build(library, kb)
    rewritten = add_many(library, kb, tmp_path / "incoming", 21, 5)
    assert None not in rewritten  # every add was incremental
    with index.open_dir(str(current(kb) / INDEX_DIR)).reader() as reader:
        assert reader.has_deletions()  # the replaced documents are there, deleted
    layered = [segments(current(kb) / folder) for folder in (INDEX_DIR, CURRENT_DIR)]
    assert layered == [2, 1]
    full = build(library, tmp_path / "full").directory
    texts = queries()
    assert len(texts) == 153
    assert [segments(full / folder) for folder in (INDEX_DIR, CURRENT_DIR)] == [1, 1]
    assert opened(current(kb), texts) == opened(full, texts) + sum(layered) - 2  # a file a segment
    searches, lists, differ = compare(current(kb), full, texts)
    assert (searches, lists, differ) == (459, 306, [])


def layout(directory: Path) -> list[tuple[int, int]]:
    """The segments of the index in ``directory``: (documents, live documents) each."""
    with index.open_dir(str(directory)).reader() as reader:
        return [(leaf.doc_count_all(), leaf.doc_count()) for leaf, _ in reader.leaf_readers()]


def test_the_adds_segments_are_merged_into_one_beside_the_full_builds(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six adds of one ruling, none writing an index whole (the bound `writer.WORN` set out of
    reach): each index is the full build's segment, its replaced documents deleted, and one
    segment of every add's documents still live (#48 item 8: each add left a segment of its
    own, 4 after 3 adds); every search still answers as a full build's, order and scores."""
    sys.path.insert(0, str(ROOT / "bench"))
    from add_equality import add_many, compare, queries

    monkeypatch.setattr(writer, "WORN", 10.0)
    kb = tmp_path / "kb"
    built = build(library, kb).directory
    bases = {folder: layout(built / folder)[0][0] for folder in (INDEX_DIR, CURRENT_DIR)}
    assert bases == {INDEX_DIR: 52, CURRENT_DIR: 13}
    base = {p.stat().st_ino for folder in (INDEX_DIR, CURRENT_DIR) for p in (built / folder).glob("*.seg")}
    layouts = []
    for number in range(1, 7):
        assert add_many(library, kb, tmp_path / f"incoming-{number}", 1, 1, first=number) != [None]
        layouts.append([layout(current(kb) / folder) for folder in (INDEX_DIR, CURRENT_DIR)])
    one, two, three = [(52, 51), (1, 1)], [(52, 50), (2, 2)], [(52, 49), (3, 3)]  # the fixture's 3 rulings in turn
    in_force = [[(13, 12), (1, 1)]] * 2 + [[(13, 11), (2, 2)]] * 4
    assert layouts == [list(pair) for pair in zip([one, one, two, two, two, three], in_force, strict=True)]
    now = {p.stat().st_ino for folder in (INDEX_DIR, CURRENT_DIR) for p in (current(kb) / folder).glob("*.seg")}
    assert len(base) == 2 and base < now  # the full build's segments, never written again
    full = build(library, tmp_path / "full").directory
    assert compare(current(kb), full, queries()) == (459, 306, [])


def test_an_add_to_an_index_past_the_bound_writes_it_whole(library: Path, tmp_path: Path) -> None:
    """The first add of three rulings to the fixture library leaves the index of every version
    with 6 of its 52 documents rewritten (3 deleted, 3 in the adds' segment): more than
    `writer.WORN` (10%), so the next add writes it whole, one segment, nothing deleted."""
    sys.path.insert(0, str(ROOT / "bench"))
    from add_equality import add_many

    kb = tmp_path / "kb"
    build(library, kb)
    add_many(library, kb, tmp_path / "incoming", 1, 3)
    assert layout(current(kb) / INDEX_DIR) == [(52, 49), (3, 3)]
    add_many(library, kb, tmp_path / "incoming-2", 1, 3, first=2)
    assert layout(current(kb) / INDEX_DIR) == [(52, 52)]
