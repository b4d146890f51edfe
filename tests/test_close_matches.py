"""A "did you mean" over many names gives difflib's very answer while comparing few of them (by
counting characters in each, or in all at once with a `kb.vocabulary.NameTable`)."""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

from kb.paths import current
from kb.query import KnowledgeBase
from kb.vocabulary import NameTable, close_matches

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
        assert close_matches(word, names, n, cutoff, table) == want, word


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
            assert close_matches(word, names, n, cutoff, table) == want, word
