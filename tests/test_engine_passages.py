"""A snippet's passages made in one pass (`kb.engine.passages.marked`) are Whoosh's highlighting
of the same text, character for character: on every version's text of the test libraries,
with the terms of each of its words marked in turn, of pairs of them, and of none."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from whoosh import highlight

from kb.engine.fused import FusedAnalyzer
from kb.engine.highlighting import PASSAGES, EarlierOnTies
from kb.engine.passages import _leaping, marked
from kb.paths import current

ANALYZERS = {"in force": FusedAnalyzer(stemmed=True), "history": FusedAnalyzer(joined=False, stemmed=True)}
"""The analysers of the two snippets: the in-force index's text chain, and the history search's."""
LONG = ("Word " * 7000) + "conundrum at the end, past the characters Whoosh looks at."


def whooshs(text: str, words: frozenset[str], analyzer: FusedAnalyzer, merge: bool) -> str:
    """Whoosh's own highlighting, as the snippets were made before `marked`: with ``merge``, as
    ``Highlighter.highlight_hit`` (the snippets of the index in force), else as ``highlight``
    (those over every version)."""
    tokens = analyzer(text, positions=True, chars=True, mode="index", removestops=False)
    tokens = highlight.set_matched_filter(tokens, words)
    if merge:
        tokens = highlight.Highlighter._merge_matched_tokens(tokens)
    fragments = highlight.ContextFragmenter(maxchars=240, surround=60).fragment_tokens(text, tokens)
    fragments = highlight.top_fragments(fragments, PASSAGES, EarlierOnTies(), highlight.FIRST, minscore=1)
    formatter = highlight.HtmlFormatter(tagname="mark", between=" … ")
    shown: str = formatter.format(fragments)
    return shown


def texts(root: Path) -> list[str]:
    with closing(sqlite3.connect(current(root) / "kb.sqlite")) as db:
        return [t for (t,) in db.execute("SELECT DISTINCT text FROM versions WHERE text != '' ORDER BY id")]


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("chain", sorted(ANALYZERS))
@pytest.mark.parametrize("library", ["bundled_root", "history_root"])
def test_every_text_is_marked_as_whoosh_marks_it(
    request: pytest.FixtureRequest, library: str, chain: str, merge: bool
) -> None:
    analyzer = ANALYZERS[chain]
    compared = marks = 0
    for text in [*texts(request.getfixturevalue(library)), LONG]:
        terms = list(dict.fromkeys(t.text for t in analyzer(text, mode="index", removestops=False)))
        asked = [
            frozenset(),
            *(frozenset([t]) for t in terms),
            *(frozenset(terms[i : i + 2]) for i in range(0, len(terms), 3)),
        ]
        for words in asked:
            expected = whooshs(text, words, analyzer, merge)
            assert marked(text, words, analyzer, merge) == expected, (text[:60], sorted(words))
            compared += 1
            marks += expected.count("<mark")
    assert compared > 2_000 and marks > 2_000


def test_a_hyphenated_words_parts_count_apart_only_where_whoosh_counts_them_apart() -> None:
    """Over every version (Whoosh's ``highlight``) "mirror-universe" is two marks and outscores
    "normal-universe"; in force (``Highlighter``, marks merged) both are one, and the earlier wins."""
    between = " Some words that stand between the passages and fill them up well." * 3
    text = f"A normal-universe card.{between} A mirror-universe card.{between} In the mirror universe."
    words, history = frozenset(["mirror", "univers"]), ANALYZERS["history"]
    last = ' … stand between the passages and fill them up well. In the <mark class="match term1">mirror</mark> '
    last += '<mark class="match term2">universe.</mark>'
    assert (
        marked(text, words, history, merge=True)
        == whooshs(text, words, history, True)
        == (
            'A <mark class="match term0">normal-universe</mark> card. Some words that stand between the passages '
            + "and fill"
            + last
        )
    )
    assert (
        marked(text, words, history, merge=False)
        == whooshs(text, words, history, False)
        == (
            'that stand between the passages and fill them up well. A <mark class="match term0">mirror-universe</mark> '
            "card. Some words that stand between the passages and fill" + last
        )
    )


def test_texts_of_every_shape_are_marked_as_whoosh_marks_them() -> None:
    """Made-up texts of one to three hundred words, of one to 61 letters, some hyphenated,
    marked as Whoosh marks them: passages cut at their length (`passages.MAXCHARS`),
    countdowns ending on exactly nothing left, a hyphenated word's parts each a token, words
    longer than the context around a mark (those walked word by word). (A hyphenated word
    longer than that context can make two passages of one start, whose order Whoosh leaves to
    chance: its ``Fragment`` orders by memory address; they are not made here.)"""
    chance = random.Random(25)
    leapt = compared = 0
    for _ in range(400):
        sizes = [1, 2, 3, 5, 8, 12, 20, 40, 59, 60, 61] if chance.random() < 0.3 else list(range(1, 10))
        vocabulary = ["".join(chance.choice("abcdefghij") for _ in range(chance.choice(sizes))) for _ in range(8)]
        short = [word for word in vocabulary if len(word) <= 20] or ["a"]
        vocabulary += [f"{chance.choice(short)}-{chance.choice(short)}" for _ in range(2)]  # hyphenated
        count = chance.randint(1, chance.choice([10, 60, 300]))
        gaps = [" ", " ", " ", "  ", ", ", ". "]
        text = "".join(chance.choice(vocabulary) + chance.choice(gaps) for _ in range(count))
        for analyzer in ANALYZERS.values():
            terms = list(dict.fromkeys(t.text for t in analyzer(text, mode="index", removestops=False)))
            for words in (frozenset(chance.sample(terms, min(k, len(terms)))) for k in (1, 2, 3)):
                for merge in (True, False):
                    leapt += _leaping(text, words, analyzer, merge) is not None
                    assert marked(text, words, analyzer, merge) == whooshs(text, words, analyzer, merge), text
                    compared += 1
    assert compared == 4_800 and leapt > compared // 3


def test_each_analyser_keeps_a_texts_tokens_for_each_way_of_marking_and_no_more_than_it_may() -> None:
    """A text's tokens are kept by the analyser that made them, apart for merged marks (a kept
    layout marks as Whoosh does, for other words too), and an analyser keeps at most
    `kb.engine.fused.LAYOUTS` bytes of them, the least recently shown dropped first."""
    text = "A Bio-ship's crew may attempt the mission; the bio-ship stops & the <crew> attempts again."
    analyzer = FusedAnalyzer(stemmed=True)
    for merge in (True, False):
        for words in (frozenset({"bio"}), frozenset({"crew", "attempt"}), frozenset({"mission"})):
            assert marked(text, words, analyzer, merge) == whooshs(text, words, analyzer, merge)
    assert sorted(analyzer.layouts.asked()) == [(text, False), (text, True)]
    assert analyzer.layouts.get((text, True)) == (text, None)  # a word of several terms, to be merged: walked
    assert analyzer.layouts.get((text, False)) not in (None, (text, None))
    assert ANALYZERS["history"].layouts.get((text, False)) is None  # other analysers keep their own
    analyzer.layouts.most = analyzer.layouts.largest = 64 << 10
    texts = [f"mission number {n} " + "and so on " * (n % 5) for n in range(300)]
    for shown in texts:
        marked(shown, frozenset({"mission"}), analyzer, False)
    assert 0 < analyzer.layouts.size <= 64 << 10
    held = [key[0] for key in analyzer.layouts.asked() if key[0] in texts]
    assert 10 < len(held) < len(texts) and held == texts[-len(held) :]  # the last shown, in order
