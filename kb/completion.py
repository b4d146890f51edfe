"""Autocomplete: headwords and card titles matching what has been typed, anywhere in the name.

Every typed word must begin a word of the name, in any position (``riker`` finds "Admiral
Riker", ``nerys`` finds "Kira Nerys"); the last word may be unfinished. When nothing
matches, a typed word of four or more letters may be one edit away from the start of a
name's word (``conond`` finds "Conundrum"). Each suggestion says whether it is an entry or
a card, and its game, so ``Kreechta`` (a Neutral Zone table row) and ``Kreetchta`` (the
card) can be told apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.index import name_analyzer
from kb.questions import distance

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

_NAMES = name_analyzer(joined=False)


@dataclass(frozen=True)
class Name:
    """A headword or card title as autocomplete sees it."""

    words: tuple[str, ...]
    """Its folded words."""
    name: str
    kind: str
    """``entry`` or ``card``."""
    game: str
    target: str
    """The topic id (entry) or the card's name (card)."""


def folded(text: str) -> tuple[str, ...]:
    """The folded words of ``text`` (``Cha'Joh`` -> chajoh, ``Bio-ship`` -> bio, ship)."""
    return tuple(t.text for t in _NAMES(text))


def names_of(kb: KnowledgeBase) -> list[Name]:
    """Every headword and card title (and card alias) of ``kb``, shortest first."""
    found = [Name(folded(t["headword"]), t["headword"], "entry", t["game"], t["id"]) for t in kb.topics.values()]
    for card in kb.cards.values():
        for spelling in dict.fromkeys([card["name"], *json.loads(card["aliases"])]):
            found.append(Name(folded(spelling), spelling, "card", card["game"], card["name"]))
    return sorted((n for n in found if n.words), key=lambda n: (len(n.name), n.name.lower(), n.kind != "entry"))


def _matches(typed: tuple[str, ...], words: tuple[str, ...], fuzzy: bool) -> bool:
    return all(any(w.startswith(word) or (fuzzy and _near(word, w)) for w in words) for word in typed)


def _near(word: str, name_word: str) -> bool:
    return len(word) >= 4 and distance(word, name_word[: len(word)], 1) <= 1


def complete(kb: KnowledgeBase, text: str, limit: int = 10) -> list[dict[str, Any]]:
    """Up to ``limit`` names matching ``text``: names starting with it first, then names with
    the typed words anywhere, then (only when none) names within one typo."""
    typed = folded(text)
    if not typed:
        return []
    names = kb.completion_names()
    starting = [n for n in names if n.words[: len(typed)] and _matches(typed[:1], n.words[:1], False)
                and _matches(typed, n.words, False)]  # fmt: skip
    anywhere = [n for n in names if _matches(typed, n.words, False)]
    chosen = list(dict.fromkeys(starting + anywhere)) or [n for n in names if _matches(typed, n.words, True)]
    out: list[dict[str, Any]] = []
    for name in chosen:
        item = {"name": name.name, "kind": name.kind, "game": name.game, "target": name.target}
        if item not in out:
            out.append(item)
        if len(out) >= limit:
            break
    return out
