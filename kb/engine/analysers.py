"""The analysers' chains: how the indexes' schemas and the query reader make index words of
text, as chains of Whoosh's tokenizer and filters with our own steps in them.

The words themselves are ours (`kb.analysis`: what a word is, how it folds and stems); here
they are put into Whoosh's form. `FoldFilter` folds each word and splits a compound into its
parts; `Strata` places the k-th version of a history document's field from ``k * STRIDE`` on
(`kb.layout`). `name_analyzer` and `text_analyzer` are the chains of the in-force index's
fields and of a query's words; `layered_analyzer` and `label_analyzer`, those of the history
index's. `kb.engine.fused` does what each chain does in one pass per distinct word.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token

from kb.analysis import WORD, fold_word, inflection_stem
from kb.layout import MARK, STRIDE
from rulings.normalize import fold_quotes


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


class Strata(Filter):  # type: ignore[misc]
    """Drop the marks between versions and move the k-th version's words to ``k * STRIDE`` on."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        version, start = 0, 0
        for token in tokens:
            if token.text == MARK:
                version += 1
                start = token.pos + 1 if token.positions else 0
                continue
            if token.positions:
                token.pos = version * STRIDE + token.pos - start
            yield token


def name_analyzer(joined: bool = True) -> Any:
    """Headwords and card names: folded, not stemmed (``joined``: keep a compound's joined form)."""
    return RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter()


def text_analyzer(joined: bool = True) -> Any:
    """Entry text: folded and stemmed (``joined``: keep a compound's joined form)."""
    return RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter() | StemFilter(inflection_stem)


def layered_analyzer(stemmed: bool) -> Any:
    """A history document's words (its versions' texts joined by `MARK`): folded, each
    version's from ``k * STRIDE`` on, stemmed when ``stemmed``."""
    chain = RegexTokenizer(f"{WORD}|{MARK}") | FoldFilter() | Strata() | LowercaseFilter()
    return chain | StemFilter(inflection_stem) if stemmed else chain


def label_analyzer() -> Any:
    """A history document's labels (one whole value per version, joined by `MARK`), each
    version's from ``k * STRIDE`` on."""
    return RegexTokenizer(rf"[^\s{MARK}]+|{MARK}") | Strata()
