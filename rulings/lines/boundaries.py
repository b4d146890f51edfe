"""Where entries start: which entry-looking lines of a Glossary or Current Rulings begin an entry.

A line reading ``Headword - text`` looks like an entry, and most such lines are one. Some are
not: a sub-heading inside an entry (``Cures –`` inside "dilemma resolution"), a paragraph
``Mirror versions - ...`` after "Add the following to the persona rules:". The entries of
these documents are alphabetical, but by their own rules: word by word (``Q-Flash`` before
``Qapla'!``), "The" titles under the next word (``Art of Diplomacy, The``; ``The Emissary``
in the E's or the T's), and with a slip now and then (``Aphasia Device`` before
``acquired`` in the real Glossary). So the order is read letter by letter only: the starts
kept are the heaviest run of candidates whose first letters never go backwards (`starts`).
A candidate whose headword starts lower case (a game term) or is a card title weighs more
than a capitalised word that is neither (a sub-heading such as ``Cures``); of two equal runs
the one ending earlier wins. A candidate after a line ending with ``:`` continues the list that
line introduces; a wrapped PDF line whose line before stops, nearly full, in the middle of a
sentence continues that sentence. Marked (``*``) and erratum lines, and front matter about the document itself
(``How to use the Glossary –``), start an entry wherever they stand.

Every candidate not kept comes back with its reason, for the parser to warn and count
(`rulings.model.ParseResult.not_entry`): a merge is never silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulings.normalize import fold_quotes, headword_key, title_key

_FRONT_MATTER = re.compile(r"\b(?:Glossary|this document|Current Rulings)\b", re.IGNORECASE)
_THE = re.compile(r"^the\s+(?=\S)|,\s*the$", re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    """A line that reads like the start of an entry."""

    index: int
    """Its position among the parser's pieces."""
    headword: str
    """The headword it would start."""
    forced: bool = False
    """Marked, an erratum or front matter: an entry wherever it stands."""
    after_colon: bool = False
    """The line before it ends with ``:`` (it may be an item of the list that line introduces)."""
    mid_sentence: bool = False
    """It is a wrapped line whose line before stops, nearly full, in the middle of a sentence."""


def letters(headword: str) -> tuple[str, ...]:
    """The first letters a headword may be filed under (``The Emissary``: ``e`` and ``t``)."""
    key = headword_key(headword)
    keys = {key[:1], headword_key(_THE.sub("", fold_quotes(headword).strip()))[:1]}
    return tuple(sorted(k for k in keys if k))


def is_front_matter(headword: str) -> bool:
    """``How to use the Glossary``: a part of the document about the document."""
    return bool(_FRONT_MATTER.search(headword))


def weight(headword: str, titles: frozenset[str]) -> int:
    """How surely a headword names an entry: a game term (lower case) or a card title 2, else 1."""
    bare = fold_quotes(headword).lstrip("\"'[ ")
    if bare[:1].islower() or (titles and title_key(headword) in _title_keys(titles)):
        return 2
    return 1


_KEYS: dict[frozenset[str], frozenset[str]] = {}


def _title_keys(titles: frozenset[str]) -> frozenset[str]:
    keys = _KEYS.get(titles)
    if keys is None:
        keys = _KEYS[titles] = frozenset(title_key(t) for t in titles)
    return keys


def starts(candidates: list[Candidate], titles: frozenset[str] = frozenset()) -> dict[int, str]:
    """The candidates that do not start an entry: index to the reason; the others start one."""
    held: dict[int, str] = {}
    free: list[Candidate] = []
    for candidate in candidates:
        if candidate.forced:
            continue
        if candidate.mid_sentence:
            held[candidate.index] = "a wrapped line: the line before stops in the middle of a sentence"
        elif candidate.after_colon:
            held[candidate.index] = "after a line ending with ':', an item of the list it introduces"
        else:
            free.append(candidate)
    kept = _heaviest_run(free, titles)
    for candidate in free:
        if candidate.index not in kept:
            held[candidate.index] = "out of alphabetical order with the entries around it"
    return held


def _heaviest_run(candidates: list[Candidate], titles: frozenset[str]) -> set[int]:
    """Indexes of the heaviest subsequence whose letters never decrease (the earliest end on a tie)."""
    # best[letter] = (total weight, position in candidates) of the heaviest run ending at or below letter
    alphabet: list[str] = sorted({c for candidate in candidates for c in letters(candidate.headword)})
    rank = {c: k for k, c in enumerate(alphabet)}
    best: list[tuple[int, int]] = [(0, -1)] * (len(alphabet) + 1)
    totals: list[int] = []
    back: list[int] = []
    ends: list[int] = []
    for position, candidate in enumerate(candidates):
        own = weight(candidate.headword, titles)
        choice = (0, -1, 0)
        for letter in letters(candidate.headword) or ("",):
            slot = rank.get(letter, -1) + 1
            total, previous = best[slot]
            if total + own > choice[0]:
                choice = (total + own, previous, slot)
        totals.append(choice[0])
        back.append(choice[1])
        ends.append(choice[2])
        for slot in range(choice[2], len(best)):
            if best[slot][0] < choice[0]:
                best[slot] = (choice[0], position)
    if not candidates:
        return set()
    top = max(totals)
    position = totals.index(top)
    kept: set[int] = set()
    while position >= 0:
        kept.add(candidates[position].index)
        position = back[position]
    return kept
