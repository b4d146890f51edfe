"""Glossary entries as HTML copies lay them out, without the ``Headword - text`` dash.

Two layouts of the web copies of the Glossary (each entry after a blank line):

- the headword on a line of its own, its text from the next line on::

      Bajoran Civil War
      Both downloaded personnel must be Universal, ...

- a table row read as text, the headword cell then the text cell on one line::

      Q-Continuum side deck This side deck is
      made up of cards identified by the icon.

  The headword ends before the first word that starts a sentence (``See``, ``This``,
  ``Revised``, ``In``...; `STARTERS`), within its first six words.

A document uses such a layout only when at least `LEAST` of its entries do, so that one
title line over a paragraph is not read as an entry. Which of these lines start an entry
is then decided like any other (`rulings.lines.boundaries`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from rulings.lines.reflow import ends_sentence

LEAST = 2
"""Entries a document must have in one of these layouts before any line is read so."""
STARTERS = frozenset(
    [
        "See",
        "This",
        "These",
        "That",
        "The",
        "A",
        "An",
        "In",
        "If",
        "When",
        "Whenever",
        "While",
        "You",
        "Your",
        "Revised",
        "Unless",
        "Each",
        "Any",
        "Only",
        "Both",
        "All",
        "It",
        "Its",
        "Once",
        "For",
        "Some",
        "No",
        "Errata",
        "Erratum",
        "Players",
        "Nullifying",
        "Overcoming",
        "Use",
        "Used",
        "Note",
    ]
)
"""Words that start the text cell of a Glossary row: a sentence's usual first words."""
_STOPWORDS = frozenset(["a", "an", "the", "of", "to", "and", "or", "in", "on", "at", "by", "for", "with"])
_HEADWORD = re.compile(r"^[\w\"'\u201c\u2018\[(]")
_TEXT = re.compile(r"^[A-Z0-9\"'\u201c\u2018(\[.]")


class _Start(Protocol):
    @property
    def headword(self) -> str: ...


def _blank_before(numbered: list[tuple[int, str]], k: int) -> bool:
    return k == 0 or numbered[k - 1][0] < numbered[k][0] - 1


def _alone(numbered: list[tuple[int, str]], k: int) -> bool:
    """A headword on its own line, its text on the next."""
    text = numbered[k][1].strip()
    if k + 1 >= len(numbered) or numbered[k + 1][0] != numbered[k][0] + 1:
        return False
    if len(text) > 70 or len(text.split()) > 8 or text[-1] in ".,;:?" or not _HEADWORD.match(text):
        return False
    if not any(c.islower() for c in text) and len(text) > 2:
        return False  # an ALL-CAPS heading, not a headword
    following = numbered[k + 1][1].strip()
    return bool(_TEXT.match(following)) and (len(following) > 40 or ends_sentence(following))


def _row(text: str) -> tuple[str, str] | None:
    """A table row's headword cell and text cell, or None."""
    words = list(re.finditer(r"\S+", text))
    if not words or words[0].group() in STARTERS:
        return None
    for i, word in enumerate(words[1:7], start=1):
        if word.group() not in STARTERS:
            continue
        head = text[: word.start()].strip()
        last = words[i - 1].group()
        if head[-1] in ".,;:" or last in _STOPWORDS or not _HEADWORD.match(head) or head.count("(") != head.count(")"):
            return None
        return head, text[word.start() :].strip()
    return None


def html_starts(numbered: list[tuple[int, str]], starts: Sequence[_Start | None]) -> dict[int, tuple[str, str]]:
    """Position to (headword, text) of the pieces that start an entry in an HTML layout."""
    found: dict[int, tuple[str, str]] = {}
    for k, (_, text) in enumerate(numbered):
        if starts[k] is not None or not _blank_before(numbered, k):
            continue
        if _alone(numbered, k):
            found[k] = (text.strip(), "")
        elif (row := _row(text.strip())) is not None:
            found[k] = row
    return found if len(found) >= LEAST else {}
