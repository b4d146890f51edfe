"""Writing the indexes fast: each word analysed once per build, not once per occurrence.

The analysers of the indexes' schemas (`kb.analysis`, `kb.history`) are chains of Whoosh
filters that fold, split, lowercase and stem every occurrence of every word anew: about half
of a build's time, as the history index restates each topic's text once per version. A
`FusedAnalyzer` tokenizes with the same expression, then looks each distinct raw word up in
its own table of the terms the chain makes of it (with their position offsets), so it yields
exactly the tokens (text, position, characters, boost) the chain yields, at a fraction of the
cost. `tests/test_fused.py` holds it to that, token by token.

Only a writer uses it (`fused_writing`): the schema stored in an index keeps the chains, so
readers, highlighting and incremental adds see the index exactly as before.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Token
from whoosh.lang.porter import stem

from kb.analysis import WORD, fold_word
from rulings.normalize import fold_quotes

Terms = tuple[tuple[tuple[str, int], ...], int]
"""The terms one raw word gives (text, position offset from the word's first position), and
how many positions the word takes."""


class FusedAnalyzer:
    """``RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter()`` (``| StemFilter()`` when
    ``stemmed``) in one pass; with a ``mark``, the history index's chain (`kb.history`): the
    mark also a token, and dropped, the k-th version's words moved to ``k * stride`` on."""

    def __init__(self, joined: bool = True, stemmed: bool = False, mark: str = "", stride: int = 0) -> None:
        self.joined, self.stemmed, self.mark, self.stride = joined, stemmed, mark, stride
        self.expression = re.compile(f"{WORD}|{re.escape(mark)}" if mark else WORD)
        self.terms: dict[str, Terms] = {}

    def analysed(self, raw: str) -> Terms:
        """What the chain makes of the raw word ``raw`` (as `kb.analysis.FoldFilter` does, then
        lowercase, then stem)."""
        parts = [p for p in (fold_word(w) for w in fold_quotes(raw).split("-")) if p]
        folded = fold_word(raw)
        if not folded:
            found: list[tuple[str, int]] = []
        elif len(parts) < 2:
            found = [(folded, 0)]
        else:
            found = [(folded, 0)] if self.joined else []
            found += [(part, offset) for offset, part in enumerate(parts)]
        words = [(text.lower(), offset) for text, offset in found]
        if self.stemmed:
            words = [(stem(text), offset) for text, offset in words]
        return tuple(words), len(parts) if folded and len(parts) >= 2 else 1

    def __call__(
        self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
        removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
        mode: str = "", no_morph: bool = False, **kwargs: Any,
    ) -> Iterator[Token]:  # fmt: skip
        if keeporiginal or not tokenize or no_morph:
            raise ValueError("a fused analyser only writes indexes")
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        table, mark, stride = self.terms, self.mark, self.stride
        pos, version, start = start_pos, 0, 0
        for match in self.expression.finditer(value):
            raw = match.group(0)
            if mark and raw == mark:
                version += 1
                start = pos + 1 if positions else 0
                pos += 1
                continue
            entry = table.get(raw)
            if entry is None:
                entry = table[raw] = self.analysed(raw)
            words, width = entry
            base = version * stride + pos - start if mark else pos
            if chars:
                token.startchar = start_char + match.start()
                token.endchar = start_char + match.end()
            for text, offset in words:
                token.text = text
                token.boost = 1.0
                token.stopped = False
                if positions:
                    token.pos = base + offset
                yield token
            pos += width


@contextlib.contextmanager
def fused_writing(writer: Any, analysers: dict[str, FusedAnalyzer]) -> Iterator[None]:
    """Within the block, ``writer`` analyses the fields named in ``analysers`` with them; the
    schema's own analysers are back before the block ends (a commit stores the schema)."""
    schema = writer.schema
    kept = {name: schema[name].analyzer for name in analysers}
    try:
        for name, analyser in analysers.items():
            schema[name].analyzer = analyser
        yield
    finally:
        for name, analyser in kept.items():
            schema[name].analyzer = analyser
