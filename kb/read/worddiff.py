"""Word-level differences between two texts, as a list of (op, text) segments, and between
two versions of a history (`compared`).

``op`` is ``=`` (unchanged), ``-`` (only in the old text) or ``+`` (only in the new);
joining the ``=`` and ``-`` segments gives the old text back, ``=`` and ``+`` the new.
How a diff is shown in paragraphs is the web's (`web.diffs`).
"""

from __future__ import annotations

import difflib
import re

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

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            push("=", a[i1:i2])
        else:
            push("-", a[i1:i2])
            push("+", b[j1:j2])
    return segments


def compared(a: HistoryVersion, b: HistoryVersion) -> Comparison:
    """Two versions of a history answer and the segments turning the text of ``a`` into that of ``b``."""
    return {"a": a, "b": b, "diff": word_diff(a["text"], b["text"])}
