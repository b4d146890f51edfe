"""Word-level differences between two texts, as a list of (op, text) segments.

``op`` is ``=`` (unchanged), ``-`` (only in the old text) or ``+`` (only in the new);
joining the ``=`` and ``-`` segments gives the old text back, ``=`` and ``+`` the new.
Shown in paragraphs (`diff_paragraphs`), a diff breaks only where the new text does: a
paragraph break that only the old text had is marked ``¶`` among the removed words.
"""

from __future__ import annotations

import difflib
import re

_TOKENS = re.compile(r"\s+|[^\s]+")
_PARAGRAPH = re.compile(r"[ \t]*\n[ \t]*\n\s*")
"""A blank line: where one paragraph of a text ends and the next begins."""
REMOVED_BREAK = " ¶ "
"""How a removed paragraph break reads among the removed words."""


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


def diff_paragraphs(segments: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The segments in paragraphs, broken only at the paragraph breaks of the kept and the added
    text: a break only the old text had would split a sentence of the new text in two (``…crew
    are`` / ``stopped.``), so it is marked `REMOVED_BREAK` within the removed words instead."""
    paragraphs: list[list[tuple[str, str]]] = [[]]
    for op, text in segments:
        if op == "-":
            paragraphs[-1].append((op, _PARAGRAPH.sub(REMOVED_BREAK, text)))
            continue
        for n, piece in enumerate(_PARAGRAPH.split(text)):
            if n:
                paragraphs.append([])
            if piece:
                paragraphs[-1].append((op, piece))
    return [p for p in paragraphs if p]


def render_diff(segments: list[tuple[str, str]]) -> str:
    """Segments as text: ``[-removed-]`` and ``{+added+}``, paragraphs apart by a blank line
    (`diff_paragraphs`)."""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "\n\n".join(
        "".join(marks[op].format(text) for op, text in paragraph) for paragraph in diff_paragraphs(segments)
    )
