"""Autocomplete: headwords and card titles matching what has been typed, anywhere in the name.

Every typed word must begin a word of the name, in any position (``riker`` finds "Admiral
Riker", ``nerys`` finds "Kira Nerys"); the last word may be unfinished. When nothing
matches, a typed word of four or more letters may be one edit away from the start of a
name's word (``conond`` finds "Conundrum"). Each suggestion says whether it is an entry or
a card, and its game, so ``Kreechta`` (a Neutral Zone table row) and ``Kreetchta`` (the
card) can be told apart.
"""

from __future__ import annotations

import bisect
import io
import itertools
import json
from array import array
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from kb.engine.analysers import name_analyzer
from kb.search.questions import distance

if TYPE_CHECKING:
    from kb.read.reader import Reader

_NAMES = name_analyzer(joined=False)
_TOPICS = "SELECT headword, game, id FROM topics ORDER BY rowid"
_CARDS = "SELECT name, aliases, game FROM cards ORDER BY rowid"


class Completions:
    """Every headword and card title (and card alias) as autocomplete sees them, shortest
    first, held compactly: a server keeps one list per process, and tens of thousands of
    small objects took 30 MB for a library of 90,000 versions. The folded words of all names
    are one string (each name's words after a space, a newline between names), the names one
    more and the targets another (each found by where it starts); a number stands for each
    (kind, game) pair."""

    def __init__(self, rows: Iterable[tuple[str, str, str, str, str]]) -> None:
        """``rows``: (folded words each after a space, name, kind, game, target), in order, each
        taken in and dropped in turn."""
        spaced, names, targets = io.StringIO(), io.StringIO(), io.StringIO()
        self.starts, self.name_starts, self.target_starts = array("I", [0]), array("I", [0]), array("I", [0])
        """Where each name's words, name and target begin (and, last, where they would after the last)."""
        self.kinds = array("H")
        pairs: dict[tuple[str, str], int] = {}
        for words, name, kind, game, target in rows:
            self.starts.append(self.starts[-1] + spaced.write(f"{words}\n"))
            self.name_starts.append(self.name_starts[-1] + names.write(name))
            self.target_starts.append(self.target_starts[-1] + targets.write(target))
            self.kinds.append(pairs.setdefault((kind, game), len(pairs)))
        self.pairs = list(pairs)
        """(kind, game) of each number in ``kinds``."""
        self.spaced, self.names, self.targets = spaced.getvalue(), names.getvalue(), targets.getvalue()

    def __len__(self) -> int:
        return len(self.kinds)

    def words(self, number: int) -> str:
        """The folded words of name ``number``, each after a space (" admiral riker")."""
        return self.spaced[self.starts[number] : self.starts[number + 1] - 1]

    def having(self, keys: list[str]) -> list[int]:
        """The numbers, in order, of the names whose spaced words hold every key (" rik")."""
        found: list[int] = []
        spaced, at = self.spaced, 0
        while (at := spaced.find(keys[0], at)) >= 0:
            number = bisect.bisect_right(self.starts, at) - 1
            if all(k in self.words(number) for k in keys[1:]):
                found.append(number)
            at = self.starts[number + 1]
        return found

    def row(self, number: int) -> tuple[str, str, str, str, str]:
        """Name ``number`` as it was given: (folded words each after a space, name, kind, game, target)."""
        kind, game = self.pairs[self.kinds[number]]
        name = self.names[self.name_starts[number] : self.name_starts[number + 1]]
        target = self.targets[self.target_starts[number] : self.target_starts[number + 1]]
        return self.words(number), name, kind, game, target

    def item(self, number: int) -> dict[str, Any]:
        """Name ``number`` as `complete` gives it."""
        _, name, kind, game, target = self.row(number)
        return {"name": name, "kind": kind, "game": game, "target": target}


def folded(text: str) -> tuple[str, ...]:
    """The folded words of ``text`` (``Cha'Joh`` -> chajoh, ``Bio-ship`` -> bio, ship)."""
    return tuple(t.text for t in _NAMES(text))


def names_of(reader: Reader) -> Completions:
    """Every headword and card title (and card alias) of ``reader``'s knowledge base, shortest first (entries before
    cards of the same name)."""
    found = Completions(_names(reader))  # in store order, made compact as the rows are read
    order = sorted(range(len(found)), key=lambda n: _shortest_first(found.row(n)))
    return Completions(found.row(n) for n in order)


def _names(reader: Reader) -> Iterator[tuple[str, str, str, str, str]]:
    """The names with words, as `Completions` takes them: topics, then cards with their aliases, in store order."""
    found = (_name(headword, "entry", game, ident) for headword, game, ident in reader.each_row(_TOPICS))
    cards = (
        _name(spelling, "card", game, name)
        for name, aliases, game in reader.each_row(_CARDS)
        for spelling in dict.fromkeys([name, *json.loads(aliases)])
    )
    return (row for row in itertools.chain(found, cards) if row[0])


def _shortest_first(row: tuple[str, str, str, str, str]) -> tuple[int, str, bool]:
    return len(row[1]), row[1].lower(), row[2] != "entry"


def _name(name: str, kind: str, game: str, target: str) -> tuple[str, str, str, str, str]:
    return "".join(f" {w}" for w in folded(name)), name, kind, game, target


def _near(typed: tuple[str, ...], words: list[str]) -> bool:
    """Every typed word begins a word of the name, or is one edit from its start (four letters or more)."""
    return all(any(w.startswith(t) or (len(t) >= 4 and distance(t, w[: len(t)], 1) <= 1) for w in words) for t in typed)


def complete(names: Completions, text: str, limit: int = 10) -> list[dict[str, Any]]:
    """Up to ``limit`` names matching ``text``: names starting with it first, then names with
    the typed words anywhere, then (only when none) names within one typo."""
    typed = folded(text)
    if not typed:
        return []
    keys = [f" {t}" for t in typed]
    anywhere = names.having(keys)
    starting = [n for n in anywhere if names.words(n).startswith(keys[0])]
    chosen = list(dict.fromkeys(starting + anywhere)) or [
        n for n in range(len(names)) if _near(typed, names.words(n).split())
    ]
    out: list[dict[str, Any]] = []
    for number in chosen:
        item = names.item(number)
        if item not in out:
            out.append(item)
        if len(out) >= limit:
            break
    return out
