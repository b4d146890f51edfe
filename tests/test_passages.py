"""A snippet's passages made in one pass (`kb.search.passages.marked`) are Whoosh's highlighting
of the same text, character for character: on every version's text of the test libraries,
with the terms of each of its words marked in turn, of pairs of them, and of none."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from whoosh import highlight

from kb.fused import FusedAnalyzer
from kb.paths import current
from kb.search.passages import marked
from kb.search.snippet import PASSAGES, EarlierOnTies

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
