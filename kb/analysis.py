"""How text becomes index words, for writing the indexes and for reading queries alike.

Analysers keep card-game words findable however they are typed: ``Cha'Joh``/``Cha’Joh``/
``chajoh``, ``U.S.S.``/``USS``, ``I.K.S.``, ``Mr. Quark``, ``[MQ]``/``MQ``, ``2E``; a compound
(``Bio-ship``) is indexed joined and in its parts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token

from rulings.normalize import fold_quotes

WORD = r"\[\w+\]|\w+(?:['\u2019.\-]\w+)*\.?"
"""A word as the index sees it: ``[MQ]``, ``Cha'Joh``, ``U.S.S.``, ``Bio-ship``."""


_WORD = re.compile(WORD)


class FoldFilter(Filter):  # type: ignore[misc]
    """Fold a word to its comparable form: no quotes, periods, brackets or hyphens.

    A hyphenated compound is also split into its parts, at consecutive positions, so it is
    found however it is typed: ``multi-affiliation`` gives ``multiaffiliation`` (when
    ``joined``), ``multi`` and ``affiliation``. The index keeps the joined form too
    (``bioship`` finds ``Bio-ship``); a query does not need it.
    """

    def __init__(self, joined: bool = True) -> None:
        self.joined = joined

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        shift = 0
        for token in tokens:
            parts = [p for p in (fold_word(w) for w in fold_quotes(token.text).split("-")) if p]
            token.text = fold_word(token.text)
            if not token.text:
                continue
            if token.positions:
                token.pos += shift
            if len(parts) < 2:
                yield token
                continue
            first = token.pos if token.positions else 0
            if self.joined:
                yield token
            for offset, part in enumerate(parts):
                piece = token.copy()
                piece.text = part
                if token.positions:
                    piece.pos = first + offset
                yield piece
            shift += len(parts) - 1


def fold_word(word: str) -> str:
    """``Cha’Joh`` -> ``chajoh``, ``U.S.S.`` -> ``uss``, ``[MQ]`` -> ``mq``, ``Bio-ship`` -> ``bioship``."""
    return re.sub(r"[\[\]'.\-]", "", fold_quotes(word)).lower()


def name_analyzer(joined: bool = True) -> Any:
    """Headwords and card names: folded, not stemmed (``joined``: keep a compound's joined form)."""
    return RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter()


def text_analyzer(joined: bool = True) -> Any:
    """Entry text: folded and stemmed (``joined``: keep a compound's joined form)."""
    return RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter() | StemFilter()


def folded_words(text: str) -> list[str]:
    """The folded words of ``text``, compounds also split (``Bio-ship`` -> bioship, bio, ship)."""
    words = []
    for word in _WORD.findall(text):
        words += _forms(word)
    return words


def _forms(word: str) -> list[str]:
    """The folded words of one word: itself, and a compound's parts."""
    parts = [fold_word(p) for p in word.split("-")] if "-" in word else []
    return [w for w in [fold_word(word), *parts] if w]


def folded_counts(texts: Iterable[str]) -> Counter[str]:
    """How many times each folded word occurs in ``texts`` (`folded_words` of each, counted),
    each distinct word folded once."""
    raw: Counter[str] = Counter()
    for text in texts:
        raw.update(_WORD.findall(text))
    counts: Counter[str] = Counter()
    for word, times in raw.items():
        for form in _forms(word):
            counts[form] += times
    return counts
