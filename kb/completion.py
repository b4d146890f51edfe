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

from kb.analysis import name_analyzer
from kb.questions import distance

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

_NAMES = name_analyzer(joined=False)


@dataclass(frozen=True)
class Name:
    """A headword or card title as autocomplete sees it."""

    words: tuple[str, ...]
    """Its folded words."""
    spaced: str
    """Its folded words, each after a space (" admiral riker"): a typed word begins a word
    of the name when " typed" is in it."""
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
    found = [_name(t["headword"], "entry", t["game"], t["id"]) for t in kb.topics()]
    for card in kb.cards():
        for spelling in dict.fromkeys([card["name"], *json.loads(card["aliases"])]):
            found.append(_name(spelling, "card", card["game"], card["name"]))
    return sorted((n for n in found if n.words), key=lambda n: (len(n.name), n.name.lower(), n.kind != "entry"))


def _name(name: str, kind: str, game: str, target: str) -> Name:
    words = folded(name)
    return Name(words, "".join(f" {w}" for w in words), name, kind, game, target)


def _near(typed: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Every typed word begins a word of the name, or is one edit from its start (four letters or more)."""
    return all(any(w.startswith(t) or (len(t) >= 4 and distance(t, w[: len(t)], 1) <= 1) for w in words) for t in typed)


def complete(kb: KnowledgeBase, text: str, limit: int = 10) -> list[dict[str, Any]]:
    """Up to ``limit`` names matching ``text``: names starting with it first, then names with
    the typed words anywhere, then (only when none) names within one typo."""
    typed = folded(text)
    if not typed:
        return []
    names = kb.completion_names()
    keys = [f" {t}" for t in typed]
    anywhere = [n for n in names if all(k in n.spaced for k in keys)]
    starting = [n for n in anywhere if n.spaced.startswith(keys[0])]
    chosen = list(dict.fromkeys(starting + anywhere)) or [n for n in names if _near(typed, n.words)]
    out: list[dict[str, Any]] = []
    for name in chosen:
        item = {"name": name.name, "kind": name.kind, "game": name.game, "target": name.target}
        if item not in out:
            out.append(item)
        if len(out) >= limit:
            break
    return out
