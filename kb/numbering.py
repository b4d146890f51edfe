"""Rule numbers as a numbered rules document prints them (Magic's ``702.19b``, Lorcana's ``6.1.2.``):
how they sort, and which number stands under which.

A number stands under another that begins it at a boundary of its numbering: a period, a letter
after a digit, or one all-digit number beginning another (a chapter ``7`` and its section
``702``). The tree of a document's rules is read from the numbers themselves, whatever their
format: `kb.read.rules` shows a rule with its subrules, `kb.texts` gives a rule the titles of the
sections it stands in. Of the floor of `kb`: the build side and the read side both use it.
"""

from __future__ import annotations

import re

_PIECE = re.compile(r"\d+|[a-z]+")
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*[a-z]*\.?$")


def number_order(number: str) -> tuple[tuple[int, str], ...]:
    """How rule numbers sort: ``702.9b`` before ``702.10``."""
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in _PIECE.findall(number))


def numbered(headword: str) -> bool:
    """Whether a headword is a rule number (``702.19b``, ``6.1.``)."""
    return bool(_NUMBERED.match(headword))


def bare(headword: str) -> str | None:
    """A rule number without its trailing period (``6.1.`` -> ``6.1``); None for a headword that is no number."""
    return headword.rstrip(".") if _NUMBERED.match(headword) else None


def under(child: str, parent: str) -> bool:
    """Whether the (bare) number ``child`` begins with ``parent`` at a boundary of its numbering."""
    if len(child) <= len(parent) or not child.startswith(parent):
        return False
    next_char = child[len(parent)]
    return next_char == "." or (parent[-1].isdigit() and next_char.isalpha()) or (parent + child).isdigit()


def ancestors(number: str) -> list[str]:
    """The numbers a (bare) number stands under, nearest first, whether or not a document holds
    them: ``702.19b`` -> ``702.19``, ``702``, ``7`` (the chapter its section ``702`` stands in);
    ``6.1.2`` -> ``6.1``, ``6``."""
    found: list[str] = []
    while parent := next((number[:i] for i in range(len(number) - 1, 0, -1) if under(number, number[:i])), None):
        found.append(parent)
        number = parent
    return found
