"""A diff's word diffs found at less cost (issue 48, item 9): `kb.read.worddiff.Words` finds the
same longest match as difflib's matcher, on every range, for any tokens, and the same segments for
the texts of the libraries, while looking at fewer pairs of tokens."""

from __future__ import annotations

import difflib
import itertools
import random
import sqlite3
from pathlib import Path

from kb.paths import current
from kb.read.worddiff import _TOKENS, Words, word_diff


def _scored(matcher: difflib.SequenceMatcher[str]) -> int:
    """How many times ``matcher`` looks a token up while finding its opcodes."""
    counted = 0
    lookups = matcher.b2j

    class Counting(dict[str, list[int]]):
        def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
            nonlocal counted
            found = lookups.get(key)
            counted += len(found or ())
            return found if found is not None else default

    matcher.b2j = Counting(lookups)
    matcher.get_opcodes()
    return counted


def test_the_longest_match_of_any_ranges_is_difflibs() -> None:
    rng = random.Random(48)
    for _ in range(20_000):
        tokens = rng.choice(["ab ", "a \n", "ab  \n", "abc ", "a"])
        a = [rng.choice(tokens) for _ in range(rng.randint(0, 12))]
        b = [rng.choice(tokens) for _ in range(rng.randint(0, 12))]
        alo, blo = rng.randint(0, len(a)), rng.randint(0, len(b))
        ahi, bhi = rng.randint(alo, len(a)), rng.randint(blo, len(b))
        ours = Words(None, a, b, autojunk=False).find_longest_match(alo, ahi, blo, bhi)
        assert ours == difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(alo, ahi, blo, bhi)


def test_the_texts_of_the_libraries_diff_as_difflib_does(bundled_root: Path, history_root: Path) -> None:
    with sqlite3.connect(current(history_root) / "kb.sqlite") as db:  # each text against a later one of its topic
        sql = "SELECT o.text, n.text FROM versions n JOIN versions o ON o.topic_id = n.topic_id AND o.id < n.id"
        pairs = db.execute(sql).fetchall()
    with sqlite3.connect(current(bundled_root) / "kb.sqlite") as db:  # and each of the bundled against the next
        texts = [r[0] for r in db.execute("SELECT text FROM versions ORDER BY id")]
    pairs += list(itertools.pairwise(texts))
    assert len(pairs) == 184
    ours = theirs = 0
    for old, new in pairs:
        a, b = _TOKENS.findall(old), _TOKENS.findall(new)
        assert (
            Words(None, a, b, autojunk=False).get_opcodes()
            == difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        )
        ours += _scored(Words(None, a, b, autojunk=False))
        theirs += _scored(difflib.SequenceMatcher(None, a, b, autojunk=False))
        segments = word_diff(old, new)
        assert "".join(t for op, t in segments if op != "+") == old
        assert "".join(t for op, t in segments if op != "-") == new
    # the pairs of equal tokens looked at: difflib's every space against every space of the other
    assert (ours, theirs) == (729_670, 5_509_221)
