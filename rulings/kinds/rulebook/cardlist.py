"""Deck lists: ``SHIPS Runabout Type VI Shuttlecraft U.S.S. Galaxy (2) ...`` into cards.

A printed deck list runs card titles together with no separator, so titles are found by
longest match against the known titles the library supplies (``data/titles/``). A
stretch no known title covers is kept as one name marked unknown and reported.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from rulings.kinds.rulebook.lines import DECK_GROUPS
from rulings.model import CardCount
from rulings.normalize import fold_quotes

_GROUP_SPLIT = re.compile(r"\b(" + "|".join(DECK_GROUPS) + r")\b")
_COUNT = re.compile(r"^\((\d+)\)$")


def _tokens(text: str) -> list[str]:
    return fold_quotes(text).split()


def parse_deck_line(text: str, titles: Iterable[str]) -> tuple[list[CardCount], list[str]]:
    """The cards of one deck-list line, and a note for each stretch not matched."""
    lexicon = sorted({tuple(_tokens(t)) for t in titles if t.strip()}, key=len, reverse=True)
    cards: list[CardCount] = []
    notes: list[str] = []
    parts = _GROUP_SPLIT.split(text)
    for index in range(1, len(parts), 2):
        _group_cards(parts[index], _tokens(parts[index + 1]), lexicon, cards, notes)
    return cards, notes


def _group_cards(
    group: str, words: list[str], lexicon: list[tuple[str, ...]], cards: list[CardCount], notes: list[str]
) -> None:
    """Append the cards of one group (``SHIPS ...``) to ``cards``."""
    unknown: list[str] = []
    position = 0
    while position <= len(words):
        word = words[position] if position < len(words) else None
        count = _COUNT.match(word) if word else None
        match = next((t for t in lexicon if tuple(words[position : position + len(t)]) == t), None)
        if unknown and (word is None or match or count):
            cards.append(CardCount(group, " ".join(unknown), 1, known=False))
            notes.append(f"{group}: no known title for {' '.join(unknown)!r}")
            unknown = []
        if word is None:
            break
        if count and cards:
            cards[-1] = dataclasses.replace(cards[-1], count=int(count.group(1)))
            position += 1
        elif match:
            cards.append(CardCount(group, " ".join(match), 1))
            position += len(match)
        else:
            unknown.append(word)
            position += 1


def deck_name(cards: list[CardCount]) -> str:
    """A deck list's headword, from its outpost (``Deck list: Federation Outpost``)."""
    outpost = next((c.name for c in cards if c.group.startswith("OUTPOST")), None)
    return f"Deck list: {outpost}" if outpost else "Deck list"
