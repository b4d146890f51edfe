"""Word-level differences between two texts, as a list of (op, text) segments, and between
two versions of a history (`compared`).

``op`` is ``=`` (unchanged), ``-`` (only in the old text) or ``+`` (only in the new);
joining the ``=`` and ``-`` segments gives the old text back, ``=`` and ``+`` the new.
How a diff is shown in paragraphs is the web's (`web.diffs`).
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from kb.answers import Comparison, HistoryVersion

_TOKENS = re.compile(r"\s+|[^\s]+")


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """The segments turning ``old`` into ``new``, merged where adjacent ops agree."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    segments: list[tuple[str, str]] = []

    def push(op: str, words: list[str]) -> None:
        if not words:
            return
        text = "".join(words)
        if segments and segments[-1][0] == op:
            segments[-1] = (op, segments[-1][1] + text)
        else:
            segments.append((op, text))

    for tag, i1, i2, j1, j2 in Words(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            push("=", a[i1:i2])
        else:
            push("-", a[i1:i2])
            push("+", b[j1:j2])
    return segments


class Words(difflib.SequenceMatcher[str]):
    """difflib's matcher, with the longest match of two ranges found at less cost for the
    alternating words and spaces of `_TOKENS` (the same match: `tests/test_word_diff.py`).

    difflib scores every pair of equal tokens, a row of the first sequence at a time, each score
    the run of equal tokens ending there: a space of one text against every space of the other
    (a changed text of 150 words: 22,500 pairs a row of spaces; 60% of a diff's CPU). A row that
    follows a row kept whole, once a match was found, is only scored where it extends a run of
    the row before (a run of one cannot be longer than the match found) and not kept: the next
    row reads the run before a pair from the row kept (two rows back) and the tokens themselves.
    Which rows are scored so is a matter of cost, not of result: those of spaces."""

    a: list[str]
    b: list[str]
    b2j: dict[str, list[int]]
    bjunk: set[str]
    bpopular: set[str]

    def find_longest_match(self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None) -> Any:
        a, b, b2j = self.a, self.b, self.b2j
        ahi = len(a) if ahi is None else ahi
        bhi = len(b) if bhi is None else bhi
        if self.bjunk or self.bpopular:  # not how word_diff asks: difflib's own
            return super().find_longest_match(alo, ahi, blo, bhi)
        besti, bestj, bestsize = alo, blo, 0
        runs: dict[int, int] = {}
        """Column -> the run of equal tokens ending there, in the last row kept (columns ascending)."""
        skipped = alo - 2
        """The row scored and not kept, if it is the one before."""
        for i in range(alo, ahi):
            token = a[i]
            if bestsize and skipped != i - 1 and token.isspace():
                for column, run in runs.items():  # the pairs extending a run of the row before
                    j = column + 1
                    if j < bhi and b[j] == token and run + 1 > bestsize:
                        besti, bestj, bestsize = i - run, j - run, run + 1
                skipped = i
                continue
            row: dict[int, int] = {}
            before = a[i - 1] if skipped == i - 1 else None
            for j in b2j.get(token, ()):
                if j < blo:
                    continue
                if j >= bhi:
                    break
                if before is None:
                    run = runs.get(j - 1, 0) + 1
                else:  # the row before was not kept: its run ending at j - 1, from the row kept
                    run = runs.get(j - 2, 0) + 2 if j - 1 >= blo and b[j - 1] == before else 1
                row[j] = run
                if run > bestsize:
                    besti, bestj, bestsize = i - run + 1, j - run + 1, run
            runs = row
        return difflib.Match(besti, bestj, bestsize)


def compared(a: HistoryVersion, b: HistoryVersion) -> Comparison:
    """Two versions of a history answer and the segments turning the text of ``a`` into that of ``b``."""
    return {"a": a, "b": b, "diff": word_diff(a["text"], b["text"])}
