"""A snippet's passages in one pass: what Whoosh's highlighting makes of a text, made without
its chain of generators.

A snippet (`kb.engine.highlighting`, `kb.search.history.mark`) is Whoosh's highlighting of a hit's
text: its tokens (`kb.engine.fused.FusedAnalyzer`) marked when their term is one the query matched,
consecutive overlapping marks merged for a hit of the index in force (``Highlighter``'s
``_merge_matched_tokens``; Whoosh's ``highlight`` function, used over every version, does not), cut into
passages around the marks (``ContextFragmenter``: ``MAXCHARS`` at most, ``SURROUND`` of context,
nothing past ``CHARLIMIT``), the best `PASSAGES` by Whoosh's score with ties to the earlier
passage (`kb.engine.highlighting.EarlierOnTies`), in text order, formatted as ``HtmlFormatter``
formats them (``<mark class="match termN">``, at most five term classes, " … " between).
That is four generators and a copied ``Token`` for each word of the text; `marked` walks the
text's words once, as plain values, and gives the same string, character for character
(`tests/test_engine_passages.py` compares it with Whoosh's on every text of the test libraries).
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable
from heapq import nlargest
from itertools import accumulate, compress, count
from operator import sub
from typing import cast

from kb.engine.fused import FusedAnalyzer

MAXCHARS = 240
SURROUND = 60
CHARLIMIT = 2**15
"""Whoosh's ``DEFAULT_CHARLIMIT``: words ending past it are not looked at."""
PASSAGES = 2
"""Passages per snippet."""
CLASSES = 5
"""Term classes of ``HtmlFormatter`` before they repeat."""
_SPECIAL = re.compile("[&<>]")
"""What escaping a text changes (without quotes)."""

Layout = tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]]
"""A text's tokens (`_layout`): tuples of plain values, which the cyclic collector stops
walking the first time it sees them (arrays it would walk at every full collection)."""
Mark = tuple[int, int, str]
"""A marked word (or merged words): start and end characters, and its term text."""
Passage = tuple[int, int, list[Mark]]
"""A passage: its start and end characters, and its marks."""


def marked(text: str, words: frozenset[str], analyzer: FusedAnalyzer, merge: bool) -> str:
    """The snippet of ``text`` with the terms ``words`` marked, as Whoosh's highlighting makes it:
    with ``merge``, as its ``Highlighter.highlight_hit`` (overlapping marks merged), else as its
    ``highlight`` function (each mark apart)."""
    if not words:
        return ""  # no token can be marked (a search of card names alone): nothing to read
    passages = _leaping(text, words, analyzer, merge)
    if passages is None:
        tokens = _tokens(text, words, analyzer)
        passages = _passages(text, _merged(tokens) if merge else tokens)
    if not passages:
        return ""  # no passage can score (Whoosh's walk finds none either)
    end = len(text) + 1
    scored = [(_score(marks) - start / end, start, stop, marks) for start, stop, marks in passages]
    if len(scored) > PASSAGES:  # else all of them, in text order as they are
        scored = sorted(nlargest(PASSAGES, scored, key=lambda p: p[0]), key=lambda p: p[1])
    escape = _escaped if _SPECIAL.search(text) else _as_is
    seen: dict[str, int] = {}
    return " … ".join(_formatted(text, start, stop, marks, seen, escape) for s, start, stop, marks in scored if s >= 1)


def _leaping(text: str, words: frozenset[str], analyzer: FusedAnalyzer, merge: bool) -> list[Passage] | None:
    """`_passages` of the text's tokens (``merge``: `_merged` first), found from the marks alone:
    the tokens between them are not walked one by one, the passage around a mark is measured
    on the running sum of the tokens' lengths (the text's tokens measured once, `_layout`, and
    kept: `kb.engine.fused.LAYOUTS`). The passages no mark is in (they never score) are left out. None for a
    text this cannot measure so, whose tokens `_passages` walks: a
    word longer than `SURROUND`, or reaching past `CHARLIMIT`, or, to be merged, a word of
    several terms (a hyphenated word's parts) or two words with nothing between them."""
    kept = analyzer.layouts.get((text, merge))
    if kept is None:
        kept = analyzer.layouts.put((text, merge), (text, _layout(text, analyzer, merge)))
    layout = kept[1]
    if layout is None:
        return None
    starts, ends, terms, sizes, before = layout
    if not terms:
        return []
    marks = list(compress(count(), map(words.__contains__, terms)))
    found: list[Passage] = []
    idle, zero, at = 0, False, 0  # the first token after the last passage; its countdown at 0; the next mark
    while at < len(marks):
        mark = marks[at]
        if zero and idle < mark:
            idle += 1  # a countdown left at 0: the token after a passage closes an empty one
        countdown = SURROUND
        if idle < mark:  # the earliest of the tokens since within SURROUND of the last one's end
            first = starts[bisect_left(starts, ends[mark - 1] - SURROUND, idle, mark)]
        else:
            first, countdown = starts[mark], 2 * SURROUND
        held = [(starts[mark], ends[mark], terms[mark])]
        countdown -= sizes[mark]
        token, at = mark, at + 1
        while countdown > 0:  # the next token that changes the countdown: a mark, or the last one counted
            run_out = bisect_left(before, before[token + 1] + countdown) - 1
            too_long = bisect_right(before, before[mark] + MAXCHARS) - 1
            following = marks[at] if at < len(marks) else len(terms)
            if min(run_out, too_long, following) >= len(terms):
                token = len(terms) - 1
                break  # the text ends inside the passage
            spent = before[token + 1]
            token = min(run_out, too_long, following)
            if token == too_long:  # counted whole, and the passage ends there (a mark there unmarked)
                countdown = -sizes[token]
                at += token == following
            elif token == following:
                held.append((starts[token], ends[token], terms[token]))
                countdown = SURROUND - sizes[token]
                at += 1
            else:
                countdown -= before[token + 1] - spent
        found.append(_passage(text, held, first, ends[token]))
        idle, zero = token + 1, countdown == 0
    return found


def _layout(text: str, analyzer: FusedAnalyzer, merge: bool) -> Layout | None:
    """The text's tokens (``merge``: to be merged), each as its start and end characters, its
    term, its length and the lengths of those before it summed; None for a text `_leaping`
    cannot measure."""
    parts = analyzer.splitter.split(text)
    raws = parts[1::2]
    single = analyzer.single
    known = list(map(single.get, raws))
    bounds = list(accumulate(map(len, parts)))
    starts, ends = bounds[0:-1:2], bounds[1::2]
    if None in known:
        for raw in {raw for raw, term in zip(raws, known, strict=True) if term is None and raw not in single}:
            analyzer.term(raw)
        known = list(map(single.get, raws))
        if None in known:
            if merge:
                return None  # a word of several terms, whose marks `_merged` may join
            starts, ends, known = _spread(raws, starts, ends, known, analyzer)
    terms = cast("list[str]", known)  # each token's term
    if not terms:
        return (), (), (), (), ()
    sizes = list(map(sub, ends, starts))
    if ends[-1] > CHARLIMIT or max(sizes) > SURROUND:
        return None
    if merge and "" in parts[2:-1:2]:
        return None  # a word right after another: `_merged` may join their marks
    before = list(accumulate(sizes, initial=0))  # the tokens' lengths summed before each
    return tuple(starts), tuple(ends), tuple(terms), tuple(sizes), tuple(before)


def _spread(
    raws: list[str], starts: list[int], ends: list[int], known: list[str | None], analyzer: FusedAnalyzer
) -> tuple[list[int], list[int], list[str | None]]:
    """The tokens of the raw words (start and end characters, and term, each a list) when some
    give other than one term (``known`` None there): a hyphenated word gives one token per
    part, each over the word's characters, as the analyser yields them; a word of no term, none."""
    firsts: list[int] = []
    lasts: list[int] = []
    terms: list[str | None] = []
    done = 0
    for place in [place for place, term in enumerate(known) if term is None]:
        entry = analyzer.terms[raws[place]][0]
        firsts += starts[done:place] + [starts[place]] * len(entry)
        lasts += ends[done:place] + [ends[place]] * len(entry)
        terms += known[done:place] + [term for term, _ in entry]
        done = place + 1
    return firsts + starts[done:], lasts + ends[done:], terms + known[done:]


def _tokens(text: str, words: frozenset[str], analyzer: FusedAnalyzer) -> list[tuple[int, int, str, bool]]:
    """The text's tokens as the analyser yields them: start, end, term, whether it is marked."""
    table, analysed = analyzer.terms, analyzer.analysed
    found = []
    for match in analyzer.expression.finditer(text):
        raw = match.group(0)
        entry = table.get(raw)
        if entry is None:
            entry = table[raw] = analysed(raw)
        start, end = match.start(), match.end()
        for term, _ in entry[0]:
            found.append((start, end, term, term in words))
    return found


def _merged(tokens: list[tuple[int, int, str, bool]]) -> list[tuple[int, int, str, bool]]:
    """Whoosh's ``_merge_matched_tokens``: a marked token overlapping the marked one before it
    extends it; a marked token after a gap is given as it is and the next starts anew."""
    out: list[tuple[int, int, str, bool]] = []
    holding, begin, until, held = False, 0, 0, ""  # the marks being merged: start, end, text
    for start, end, term, matched in tokens:
        if not matched:
            if holding:
                out.append((begin, until, held, True))
                holding = False
            out.append((start, end, term, False))
        elif not holding:
            holding, begin, until, held = True, start, end, term
        elif start <= until:
            if end > until:
                held += term[until - end :]
                until = end
        else:
            out.append((begin, until, held, True))
            holding = False
            out.append((start, end, term, True))
    if holding:
        out.append((begin, until, held, True))
    return out


def _passages(text: str, tokens: list[tuple[int, int, str, bool]]) -> list[tuple[int, int, list[Mark]]]:
    """``ContextFragmenter.fragment_tokens``: each passage's start and end characters and marks."""
    found: list[tuple[int, int, list[Mark]]] = []
    first: int | None = None
    firsts: deque[int] = deque()
    countdown, length = -1, 0
    marks: list[Mark] = []
    endchar = 0
    for start, endchar, term, matched in tokens:
        size = endchar - start
        if endchar > CHARLIMIT:
            break
        if countdown < 0 and not matched:
            firsts.append(start)
            while firsts and endchar - firsts[0] > SURROUND:
                firsts.popleft()
        elif length + size > MAXCHARS:
            countdown = 0
        elif matched:
            countdown = SURROUND
            if first is None:
                if firsts:
                    first = firsts[0]
                else:
                    first = start
                    countdown += SURROUND
            marks.append((start, endchar, term))
        if countdown >= 0:
            length += size
            countdown -= size
            if countdown <= 0:
                found.append(_passage(text, marks, first, endchar))
                marks, firsts, first, length = [], deque(), None, 0
    if marks:
        found.append(_passage(text, marks, first, endchar))
    return found


def _passage(text: str, marks: list[Mark], first: int | None, endchar: int) -> tuple[int, int, list[Mark]]:
    """Whoosh's ``mkfrag``: a passage from its first character (its first mark's when none) to ``endchar``."""
    start = first if first is not None else (marks[0][0] if marks else 0)
    return max(0, start), min(len(text), endchar), marks


def _score(marks: list[Mark]) -> float:
    """``BasicFragmentScorer``: the marks (each of boost 1) times a hundred times the distinct terms marked."""
    return float(len(marks)) * ((len({term for _, _, term in marks}) * 100) or 1)


def _formatted(
    text: str, start: int, stop: int, marks: list[Mark], seen: dict[str, int], escape: Callable[[str], str]
) -> str:
    """``HtmlFormatter.format_fragment``: the passage's text escaped (``escape``: `_as_is` for a
    text with nothing to escape), its marks in ``<mark>``, each distinct marked text given a term
    class in the order first seen (``seen``: across the passages)."""
    out = []
    index = start
    for begin, end, _ in marks:
        if begin < index:
            continue
        if begin > index:
            out.append(escape(text[index:begin]))
        shown = escape(text[begin:end])
        number = seen.get(shown)
        if number is None:
            number = seen[shown] = len(seen) % CLASSES
        out.append(f'<mark class="match term{number}">{shown}</mark>')
        index = end
    out.append(escape(text[index:stop]))
    return "".join(out)


def _escaped(piece: str) -> str:
    """A piece of text as ``HtmlFormatter`` escapes it (no quotes)."""
    return html.escape(piece, quote=False)


def _as_is(piece: str) -> str:
    """A piece of a text without ``&``, ``<`` or ``>``: escaped, it is itself."""
    return piece
