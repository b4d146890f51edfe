"""A word diff (the segments `kb.answers` carries: ``=`` unchanged, ``-`` removed, ``+`` added)
shown in paragraphs, for the pages (the ``diff_paragraphs`` filter) and as text for the command
line: ``[-removed-]`` and ``{+added+}``. A diff breaks only where the new text does: a paragraph
break that only the old text had is marked ``¶`` among the removed words."""

from __future__ import annotations

import re

_PARAGRAPH = re.compile(r"[ \t]*\n[ \t]*\n\s*")
"""A blank line: where one paragraph of a text ends and the next begins."""
REMOVED_BREAK = " ¶ "
"""How a removed paragraph break reads among the removed words."""


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
