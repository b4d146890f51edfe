"""Where a hit's lead sentence is cut (the search page's `web.search.lead`; the offline copy's
``gist`` in ``static/offline.js`` cuts the same way): a sentence of more than `GIST_WORDS` words
keeps its clauses that hold the words searched, cut at clause boundaries (a comma, semicolon or
colon, a parenthesis, a dash standing alone; in a clause too long alone, before a
conjunction), never inside the title of a card the hit names; an
ellipsis stands only where words were left out. A clause too long on its own is cut between
words around the first word searched, a card's title kept whole."""

from __future__ import annotations

import bisect
import html
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from kb.asking import paragraphs, sentences

GIST_WORDS = 15
"""The most words of its text a hit shows before "Whole text" (about three lines on a phone)."""
_CLAUSE_END = re.compile(r"[,;:)][\"'\u2019\u201d\]]*$")
_COUNT = re.compile(r"^\(\d+\)")
_DASHES = frozenset({"-", "\u2013", "\u2014"})
CONJUNCTIONS = frozenset({"and", "but", "or", "because", "unless", "which"})
"""The words a clause too long to show whole is split before, besides its punctuation."""
_TRAILING = re.compile(r"[,;:]+$")
ELLIPSIS = "\u2026"
_MARKED = re.compile(r'<mark class="match[^"]*">(.*?)</mark>', re.S)
_EDGE = re.compile(r"^\W+|\W+$")


class Lead(NamedTuple):
    """What a hit shows first (`lead_of`)."""

    text: str
    """Its sentence that matched best, cut (`cut`)."""
    found: re.Pattern[str] | None
    """The words its snippet marks, to mark in ``text`` (None when it marks none)."""
    whole: bool
    """Whether ``text`` is the hit's whole text."""
    paragraphs: int
    """How many paragraphs the hit's text has."""


def lead_of(hit: Mapping[str, Any], most: int = GIST_WORDS) -> Lead:
    """A search hit's sentence holding the most of the words its snippet marks (the first
    sentence when none does), `cut` to ``most`` words; the search page shows it (`web.search`),
    and so does ``rulings search`` (with more words)."""
    text = hit.get("text") or ""
    parts = paragraphs(text)
    words = {w for m in _MARKED.findall(hit.get("snippet") or "") if (w := _EDGE.sub("", html.unescape(m)))}
    found = re.compile(r"\b(" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + r")\b", re.I)
    every = [s for p in parts for s in whole_sentences(p)]
    scores = [(len({m.lower() for m in found.findall(s)}) if words else 0, -i) for i, s in enumerate(every)]
    best = every[max(range(len(every)), key=lambda i: scores[i])] if every else ""
    split = best.split()
    hits = [frozenset(m.lower() for m in found.findall(w)) if words else frozenset() for w in split]
    best = cut(split, hits, hit.get("cards") or [], most)
    whole = " ".join(text.split()) == " ".join(best.split())
    return Lead(best, found if words else None, whole, len(parts))


ABBREVIATIONS = frozenset({"mr.", "mrs.", "ms.", "dr.", "st.", "lt.", "jr.", "sr.", "vs.", "no.", "e.g.", "i.e."})
"""Words ending in a full stop that end no sentence ("Mr. Quark", "Away Team vs. Away Team")."""
_INITIALS = re.compile(r"^(?:[A-Za-z]\.){2,}$")


def whole_sentences(paragraph: str) -> list[str]:
    """The sentences of ``paragraph`` (`kb.asking.sentences`), one that ends with one of the
    `ABBREVIATIONS` or initials ("U.S.S.") joined to the next: a lead is never "… personnel
    Mr." of "Mr. Quark"."""
    found: list[str] = []
    for sentence in sentences(paragraph):
        last = found[-1].split()[-1:] if found else []
        if last and (last[0].lower() in ABBREVIATIONS or _INITIALS.match(last[0])):
            found[-1] += " " + sentence
        else:
            found.append(sentence)
    return found


def cut(words: Sequence[str], hits: Sequence[frozenset[str]], titles: Sequence[str], most: int = GIST_WORDS) -> str:
    """The sentence of ``words`` (split at white space) as a hit's lead: whole when it has at
    most ``most`` words, else its clauses holding the most of the words searched (``hits``:
    those each word holds, folded to lower case), then the clauses after them, between them, and
    before them, as many as fit; a clause too long alone cut between words (`_within`). The
    cards' ``titles`` are never cut."""
    count = len(words)
    if count <= most:
        return " ".join(words)
    joined = _joined(words, titles)
    pieces = _clauses(words, joined, most)
    found = [frozenset().union(*hits[a:b]) for a, b in pieces]
    order = sorted(range(len(pieces)), key=lambda p: (-len(found[p]), p))
    best = pieces[order[0]]
    if best[1] - best[0] > most:
        return _within(words, hits, joined, best, most)
    chosen: set[int] = set()
    seen: set[str] = set()
    size = 0

    def fits(p: int) -> bool:
        return size + pieces[p][1] - pieces[p][0] <= most

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
        if gap and size + pieces[b][0] - pieces[a][1] <= most:
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


def _clauses(words: Sequence[str], joined: Sequence[bool], most: int) -> list[tuple[int, int]]:
    """The clauses of the sentence, as (first word, word after the last); a parenthesis is one
    clause, never cut at its commas or colons ("(e.g., Chula: The Dice)")."""
    pieces = []
    start = 0
    depth = 0
    for i in range(len(words) - 1):
        word, after = words[i], words[i + 1]
        depth = max(0, depth + word.count("(") - word.count(")"))
        opens = after.startswith("(") and not _COUNT.match(after)  # "Torin (2)": a count stays with its name
        ends = _CLAUSE_END.search(word) or opens or word in _DASHES or after in _DASHES
        if ends and not joined[i] and not depth:
            pieces.append((start, i + 1))
            start = i + 1
    pieces.append((start, len(words)))
    return [part for piece in pieces for part in _at_conjunctions(words, joined, piece, most)]


def _at_conjunctions(
    words: Sequence[str], joined: Sequence[bool], piece: tuple[int, int], most: int
) -> list[tuple[int, int]]:
    """A clause of more than ``most`` words split before each of its `CONJUNCTIONS`."""
    a, b = piece
    if b - a <= most:
        return [piece]
    starts = [a] + [i for i in range(a + 1, b) if words[i].lower() in CONJUNCTIONS and not joined[i - 1]]
    return list(itertools.pairwise([*starts, b]))


def _within(
    words: Sequence[str], hits: Sequence[frozenset[str]], joined: Sequence[bool], piece: tuple[int, int], most: int
) -> str:
    """A clause of more than ``most`` words cut between words: from about four words before
    its first word searched, as many words as fit, a card's title kept whole."""
    a, b = piece
    atoms: list[tuple[int, int]] = []  # (first word, word after the last): a word, or a card's title
    for i in range(a, b):
        if atoms and joined[i - 1] and i > a:
            atoms[-1] = (atoms[-1][0], i + 1)
        else:
            atoms.append((i, i + 1))
    first = next((i for i in range(a, b) if hits[i]), a)
    target = max(a, min(first - 4, b - most))
    at = next(n for n, (s, e) in enumerate(atoms) if s <= target < e)
    end = at + 1
    while end < len(atoms) and atoms[end][1] - atoms[at][0] <= most:
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
