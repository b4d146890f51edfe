"""A "did you mean" over many names gives difflib's very answer while comparing few of them (by
counting characters in each, or in all at once with a `kb.vocabulary.NameTable`, or by their
lengths alone: `kb.vocabulary.lengths_within`)."""

from __future__ import annotations

import contextlib
import difflib
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from helpers import PARTS, part_of
from kb.checksums import CHECKSUMS
from kb.errors import Damaged
from kb.paths import current
from kb.query import KnowledgeBase
from kb.schema import DB_NAME
from kb.vocabulary import NameTable, close_matches, lengths_within

TYPED = ["conundrum", "conondrum", "chajoh", "uss enterprise", "can conundrum target a cloaked ship", "q", "",
         "zzzz", "commandering", "away tem", "reshuffle", "mr quark", "ee", "borgship", "klingon gun"]  # fmt: skip


SHARE = 0.2
"""The share of the words compared on every run (a seeded sample, `helpers.part_of`); the rest
are compared when CI=true (marked ``slow``)."""


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize(("n", "cutoff"), [(1, 0.7), (5, 0.6), (3, 0.0), (2, 1.0)])
def test_the_answer_is_difflibs_for_the_knowledge_bases_names(
    bundled_root: Path, n: int, cutoff: float, part: str
) -> None:
    with KnowledgeBase(current(bundled_root)) as kb:
        names = list(kb.names())
    assert len(names) > 100
    typos = [name[:i] + name[i + 1 :] for name in names[::7] for i in (0, len(name) // 2)]
    table = NameTable(names)
    for word in TYPED + part_of(typos + names[::11], part, SHARE):
        want = difflib.get_close_matches(word, names, n, cutoff)
        assert close_matches(word, names, n, cutoff) == want, word
        assert close_matches(word, table.reachable(word, cutoff), n, cutoff) == want, word
        assert close_matches(word, _of_length(names, word, cutoff), n, cutoff) == want, word


def _of_length(names: list[str], word: str, cutoff: float) -> list[str]:
    shortest, longest = lengths_within(len(word), cutoff)
    return [name for name in names if shortest <= len(name) <= longest]


def test_the_store_keeps_its_names_characters_counted(bundled_root: Path) -> None:
    """The build keeps the names' table in the store: the one counting them afresh makes."""
    with KnowledgeBase(current(bundled_root)) as kb:
        kept, folded = kb.store.names_read.table(), list(kb.names())
    assert kept is not None
    made = NameTable(folded)
    assert (kept.names, kept.columns, kept.counts.tolist(), kept.lengths.tolist()) == (
        made.names, made.columns, made.counts.tolist(), made.lengths.tolist())  # fmt: skip


def test_a_store_without_the_table_reads_names_by_length_then_counts_them(bundled_root: Path, tmp_path: Path) -> None:
    """A store built before the table was kept: its first "did you mean" reads the names of a
    length that may match; from the second on, every name's characters are counted once;
    each gives difflib's answer."""
    older = tmp_path / "older"
    shutil.copytree(current(bundled_root), older)
    (older / CHECKSUMS).unlink()  # an older build kept no list of what it wrote (`kb.checksums`)
    with contextlib.closing(sqlite3.connect(older / DB_NAME)) as db, db:
        db.execute("DROP TABLE name_table")
    question = "can conundrum target a cloaked ship"
    with KnowledgeBase(older) as kb:
        names = kb.names()
        first = list(names.near(question, 0.7))
        folded = list(names)
        assert first == _of_length(folded, question, 0.7) and 0 < len(first) < len(folded) / 2
        for word in TYPED:
            assert close_matches(word, names.near(word, 0.7), 1, 0.7) == difflib.get_close_matches(word, folded, 1, 0.7)
        assert kb.store.names_read.table() is not None


def test_a_kept_table_that_does_not_fit_together_is_a_damaged_store(bundled_root: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    shutil.copytree(current(bundled_root), damaged)
    (damaged / CHECKSUMS).unlink()  # the store's own check, as in a build made before `kb.checksums`
    with contextlib.closing(sqlite3.connect(damaged / DB_NAME)) as db, db:
        db.execute("UPDATE name_table SET counts = substr(counts, 1, 10)")
    with KnowledgeBase(damaged) as kb, pytest.raises(Damaged, match="cannot reshape"):
        kb.search("qwertzuiop")  # known nowhere: a "did you mean" compares it with the names


@pytest.mark.parametrize("part", PARTS)
def test_the_answer_is_difflibs_for_random_words_and_names(part: str) -> None:
    draw = random.Random(13)
    letters = "aabcdeeilnorstu -'"
    names = ["".join(draw.choice(letters) for _ in range(draw.randint(1, 24))) for _ in range(3000)]
    table = NameTable(names)  # a word's characters it has not seen count for nothing
    words = ["".join(draw.choice(letters) for _ in range(draw.randint(0, 20))) for _ in range(300)]
    for word in part_of(words, part, SHARE):
        for n, cutoff in ((1, 0.7), (5, 0.6), (4, 0.3)):
            want = difflib.get_close_matches(word, names, n, cutoff)
            assert close_matches(word, names, n, cutoff) == want, word
            assert close_matches(word, table.reachable(word, cutoff), n, cutoff) == want, word
            assert close_matches(word, _of_length(names, word, cutoff), n, cutoff) == want, word
