"""Typography apart from wording: two texts that differ only in their quotes (straight or curly),
dashes (hyphen, en or em dash, a run of hyphens, spaced or not), spaces or line breaks (a
paragraph re-joined to the line before it) say the same thing. A release that restates a text
so makes no new version of it (`kb.ingest.restatement`); the diff shows it apart, as
"typography only" (`kb.read.changes`)."""

from __future__ import annotations

import re

_SAME = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
        "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2026": "...",
    }
)  # fmt: skip
_DASH = re.compile(r"\s*-+\s*")
_SPACE = re.compile(r"\s+")


def folded(text: str) -> str:
    """``text`` with its typography made plain: straight quotes, one hyphen for any dash, one
    space for any run of spaces and line breaks."""
    return _SPACE.sub(" ", _DASH.sub("-", text.translate(_SAME))).strip()


def typography_only(before: str, after: str) -> bool:
    """Whether two different texts differ only in quotes, dashes, spaces or line breaks."""
    return before != after and folded(before) == folded(after)
