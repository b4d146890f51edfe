"""A word diff (the segments `kb.answers` carries: ``=`` unchanged, ``-`` removed, ``+`` added)
written as text for the command line: ``[-removed-]`` and ``{+added+}``."""

from __future__ import annotations


def render_diff(segments: list[tuple[str, str]]) -> str:
    """Segments as text: ``[-removed-]`` and ``{+added+}``."""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in segments)
