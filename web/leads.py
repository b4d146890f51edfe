"""Where a hit's lead sentence is cut (the search page's `web.search.lead`; the offline copy's
``gist`` in ``static/offline.js`` cuts the same way): a sentence of more than `GIST_WORDS` words
keeps its clauses that hold the words searched, cut at clause boundaries (a comma, semicolon or
colon, a parenthesis, a dash standing alone; in a clause too long alone, before a
conjunction), never inside the title of a card the hit names; an
ellipsis stands only where words were left out. A clause too long on its own is cut between
words around the first word searched, a card's title kept whole."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence

GIST_WORDS = 15
"""The most words of its text a hit shows before "Whole text" (about three lines on a phone)."""
_CLAUSE_END = re.compile(r"[,;:)][\"'\u2019\u201d\]]*$")
_DASHES = frozenset({"-", "\u2013", "\u2014"})
CONJUNCTIONS = frozenset({"and", "but", "or", "because", "unless", "which"})
"""The words a clause too long to show whole is split before, besides its punctuation."""
_TRAILING = re.compile(r"[,;:]+$")
ELLIPSIS = "\u2026"


def cut(words: Sequence[str], hits: Sequence[frozenset[str]], titles: Sequence[str]) -> str:
    """The sentence of ``words`` (split at white space) as a hit's lead: whole when it has at
    most `GIST_WORDS` words, else its clauses holding the most of the words searched (``hits``:
    those each word holds, folded to lower case), then the clauses after them, between them, and
    before them, as many as fit; a clause too long alone cut between words (`_within`). The
    cards' ``titles`` are never cut."""
    count = len(words)
    if count <= GIST_WORDS:
        return " ".join(words)
    joined = _joined(words, titles)
    pieces = _clauses(words, joined)
    found = [frozenset().union(*hits[a:b]) for a, b in pieces]
    order = sorted(range(len(pieces)), key=lambda p: (-len(found[p]), p))
    best = pieces[order[0]]
    if best[1] - best[0] > GIST_WORDS:
        return _within(words, hits, joined, best)
    chosen: set[int] = set()
    seen: set[str] = set()
    size = 0

    def fits(p: int) -> bool:
        return size + pieces[p][1] - pieces[p][0] <= GIST_WORDS

    for p in order:
        if (found[p] - seen or not chosen) and fits(p):
            chosen.add(p)
            seen |= found[p]
            size += pieces[p][1] - pieces[p][0]
    after = max(chosen) + 1
    while after < len(pieces) and fits(after):
        chosen.add(after)
        size += pieces[after][1] - pieces[after][0]
        after += 1
    kept = sorted(chosen)
    for a, b in itertools.pairwise(kept):
        gap = range(a + 1, b)
        if gap and size + pieces[b][0] - pieces[a][1] <= GIST_WORDS:
            chosen.update(gap)
            size += pieces[b][0] - pieces[a][1]
    before = min(chosen) - 1
    while before >= 0 and fits(before):
        chosen.add(before)
        size += pieces[before][1] - pieces[before][0]
        before -= 1
    return _shown(words, [pieces[p] for p in sorted(chosen)])


def _joined(words: Sequence[str], titles: Sequence[str]) -> list[bool]:
    """For each word but the last, whether it and the next are in one card's title."""
    text = " ".join(words)
    starts = []
    at = 0
    for word in words:
        starts.append(at)
        at += len(word) + 1
    joined = [False] * max(0, len(words) - 1)
    for title in titles:
        if not title.strip():
            continue
        for m in re.finditer(r"(?<![A-Za-z0-9])" + re.escape(title) + r"(?![A-Za-z0-9])", text, re.I):
            first = bisect.bisect_right(starts, m.start()) - 1
            last = bisect.bisect_right(starts, m.end() - 1) - 1
            for i in range(first, last):
                joined[i] = True
    return joined


def _clauses(words: Sequence[str], joined: Sequence[bool]) -> list[tuple[int, int]]:
    """The clauses of the sentence, as (first word, word after the last)."""
    pieces = []
    start = 0
    for i in range(len(words) - 1):
        word, after = words[i], words[i + 1]
        ends = _CLAUSE_END.search(word) or after.startswith("(") or word in _DASHES or after in _DASHES
        if ends and not joined[i]:
            pieces.append((start, i + 1))
            start = i + 1
    pieces.append((start, len(words)))
    return [part for piece in pieces for part in _at_conjunctions(words, joined, piece)]


def _at_conjunctions(words: Sequence[str], joined: Sequence[bool], piece: tuple[int, int]) -> list[tuple[int, int]]:
    """A clause of more than `GIST_WORDS` words split before each of its `CONJUNCTIONS`."""
    a, b = piece
    if b - a <= GIST_WORDS:
        return [piece]
    starts = [a] + [i for i in range(a + 1, b) if words[i].lower() in CONJUNCTIONS and not joined[i - 1]]
    return list(itertools.pairwise([*starts, b]))


def _within(
    words: Sequence[str], hits: Sequence[frozenset[str]], joined: Sequence[bool], piece: tuple[int, int]
) -> str:
    """A clause of more than `GIST_WORDS` words cut between words: from about four words before
    its first word searched, as many words as fit, a card's title kept whole."""
    a, b = piece
    atoms: list[tuple[int, int]] = []  # (first word, word after the last): a word, or a card's title
    for i in range(a, b):
        if atoms and joined[i - 1] and i > a:
            atoms[-1] = (atoms[-1][0], i + 1)
        else:
            atoms.append((i, i + 1))
    first = next((i for i in range(a, b) if hits[i]), a)
    target = max(a, min(first - 4, b - GIST_WORDS))
    at = next(n for n, (s, e) in enumerate(atoms) if s <= target < e)
    end = at + 1
    while end < len(atoms) and atoms[end][1] - atoms[at][0] <= GIST_WORDS:
        end += 1
    return _shown(words, [(atoms[at][0], atoms[end - 1][1])])


def _shown(words: Sequence[str], kept: Sequence[tuple[int, int]]) -> str:
    """The words of the ``kept`` ranges (in order), an ellipsis wherever words were left out."""
    spans: list[list[int]] = []
    for a, b in kept:
        if spans and spans[-1][1] == a:
            spans[-1][1] = b
        else:
            spans.append([a, b])
    parts = []
    for a, b in spans:
        part = " ".join(words[a:b])
        if b < len(words):
            part = _TRAILING.sub("", part)
        parts.append(part)
    shown = f" {ELLIPSIS} ".join(parts)
    if spans[0][0] > 0:
        shown = f"{ELLIPSIS} " + shown
    if spans[-1][1] < len(words):
        shown += f" {ELLIPSIS}"
    return shown
