"""A "did you mean" over many names gives difflib's very answer while comparing few of them (by
counting characters in each, or in all at once with a `kb.vocabulary.NameTable`, or by their
lengths alone: `kb.vocabulary.lengths_within`)."""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

from kb.paths import current
from kb.query import KnowledgeBase
from kb.vocabulary import NameTable, close_matches, lengths_within

TYPED = ["conundrum", "conondrum", "chajoh", "uss enterprise", "can conundrum target a cloaked ship", "q", "",
         "zzzz", "commandering", "away tem", "reshuffle", "mr quark", "ee", "borgship", "klingon gun"]  # fmt: skip


@pytest.mark.parametrize(("n", "cutoff"), [(1, 0.7), (5, 0.6), (3, 0.0), (2, 1.0)])
def test_the_answer_is_difflibs_for_the_knowledge_bases_names(bundled_root: Path, n: int, cutoff: float) -> None:
    with KnowledgeBase(current(bundled_root)) as kb:
        names = list(kb.names())
    assert len(names) > 100
    typos = [name[:i] + name[i + 1 :] for name in names[::7] for i in (0, len(name) // 2)]
    table = NameTable(names)
    for word in TYPED + typos + names[::11]:
        want = difflib.get_close_matches(word, names, n, cutoff)
        assert close_matches(word, names, n, cutoff) == want, word
        assert close_matches(word, table.reachable(word, cutoff), n, cutoff) == want, word
        assert close_matches(word, _of_length(names, word, cutoff), n, cutoff) == want, word


def _of_length(names: list[str], word: str, cutoff: float) -> list[str]:
    shortest, longest = lengths_within(len(word), cutoff)
    return [name for name in names if shortest <= len(name) <= longest]


def test_the_stores_names_near_a_word_are_those_read_by_length_then_by_table(bundled_root: Path) -> None:
    """The first "did you mean" of a knowledge base reads from the store the names of a length
    that may match; from the second on, every name's characters are counted once; each gives
    difflib's answer."""
    question = "can conundrum target a cloaked ship"
    with KnowledgeBase(current(bundled_root)) as kb:
        names = kb.names()
        first = list(names.near(question, 0.7))
        folded = list(names)
        assert first == _of_length(folded, question, 0.7) and 0 < len(first) < len(folded) / 2
        for word in TYPED:
            assert close_matches(word, names.near(word, 0.7), 1, 0.7) == difflib.get_close_matches(word, folded, 1, 0.7)


def test_the_answer_is_difflibs_for_random_words_and_names() -> None:
    draw = random.Random(13)
    letters = "aabcdeeilnorstu -'"
    names = ["".join(draw.choice(letters) for _ in range(draw.randint(1, 24))) for _ in range(3000)]
    table = NameTable(names)  # a word's characters it has not seen count for nothing
    for _ in range(300):
        word = "".join(draw.choice(letters) for _ in range(draw.randint(0, 20)))
        for n, cutoff in ((1, 0.7), (5, 0.6), (4, 0.3)):
            want = difflib.get_close_matches(word, names, n, cutoff)
            assert close_matches(word, names, n, cutoff) == want, word
            assert close_matches(word, table.reachable(word, cutoff), n, cutoff) == want, word
            assert close_matches(word, _of_length(names, word, cutoff), n, cutoff) == want, word
