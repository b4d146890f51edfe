"""Analysing text fast: each word analysed once, not once per occurrence.

The analysers of the indexes' schemas (`kb.engine.analysers`) are chains of Whoosh
filters that fold, split, lowercase and stem every occurrence of every word anew: about half
of a build's time, as the history index restates each topic's text once per version. A
`FusedAnalyzer` tokenizes with the same expression, then looks each distinct raw word up in
its own table of the terms the chain makes of it (with their position offsets), so it yields
exactly the tokens (text, position, characters, boost) the chain yields, at a fraction of the
cost. `tests/test_engine_fused.py` holds it to that, token by token.

The index writers use it (`kb.engine.writing.fused_writing`, one for each kind of word field:
`kb.engine.indexes.fused_analysers`), and so do the history search's snippets
(`kb.search.history.MARKING`); the schema stored in an index keeps the chains, so
readers, Whoosh's own highlighting and incremental adds see the index exactly as before.
`positions` repeats the walk of `__call__` on purpose: it is the build's innermost loop, and
makes no `Token`.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Token

from kb.analysis import WORD, fold_word
from kb.analysis import inflection_stem as stem
from kb.kept import ENTRY, Kept, sized
from rulings.normalize import fold_quotes

Terms = tuple[tuple[tuple[str, int], ...], int]
"""The terms one raw word gives (text, position offset from the word's first position), and
how many positions the word takes."""


TERMS = 32 << 20
"""What the raw words' terms each analyser keeps weigh at most, in bytes (about 300 bytes a word:
a library's words, and each new word of the questions a server is asked)."""
LAYOUTS = 16 << 20
"""What the texts' tokens each analyser keeps weigh at most, in bytes (8 to 11 KB a text shown
on the 90k stress knowledge base: as many texts as the 2,048 kept before, counted): a text is
split into words once, not each time an answer shows it; the threads share them."""


def _layout_bytes(kept: tuple[str, Any]) -> int:
    """What a text's tokens kept for snippets weigh (`kb.engine.passages`): the text, and five
    tuples of as many numbers as tokens (at most 28 bytes each, and 8 for its place); the terms'
    texts are the analyser's own, counted in `FusedAnalyzer.weighs`."""
    text, layout = kept
    tokens = len(layout[0]) + 1 if layout else 0
    return ENTRY + sys.getsizeof(text) + 5 * (sys.getsizeof(()) + 36 * tokens)


class FusedAnalyzer:
    """``RegexTokenizer(WORD) | FoldFilter(joined) | LowercaseFilter()`` (``| StemFilter()`` when
    ``stemmed``) in one pass; with a ``mark``, the history index's chain
    (`kb.engine.analysers.layered_analyzer`): the mark also a token, and dropped, the k-th
    version's words moved to ``k * stride`` on."""

    def __init__(self, joined: bool = True, stemmed: bool = False, mark: str = "", stride: int = 0) -> None:
        self.joined, self.stemmed, self.mark, self.stride = joined, stemmed, mark, stride
        self.expression = re.compile(f"{WORD}|{re.escape(mark)}" if mark else WORD)
        self.splitter = re.compile(f"({self.expression.pattern})")
        """The expression as one group: ``splitter.split(text)`` gives the gaps and raw words in turn."""
        self.terms: dict[str, Terms] = {}
        """Raw word -> what the chain makes of it (`analysed`), filled by `_entry`."""
        self.single: dict[str, str | None] = {}
        """Raw word -> its one term (None: it gives none or several), filled by `term`."""
        self.weighs = 0
        """What `terms` and `single` weigh, in bytes: both start afresh beyond `TERMS`."""
        self._lock = threading.Lock()
        self.layouts: Kept[tuple[str, Any]] = Kept(LAYOUTS, _layout_bytes)
        """(text, merged) -> the text and its tokens, as a snippet measures them (`kb.engine.passages`)."""

    def analysed(self, raw: str) -> Terms:
        """What the chain makes of the raw word ``raw`` (as `kb.engine.analysers.FoldFilter` does, then
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

    def _entry(self, raw: str) -> Terms:
        """`analysed`, kept in `terms`; a word's entries (in `terms` and `single`) counted in
        `weighs`, and both tables started afresh when that passes `TERMS` (the lookups are the
        inner loop of indexing and of analysing a text: no order of use is kept)."""
        entry = self.analysed(raw)
        with self._lock:
            self.weighs += sized((raw, entry)) + ENTRY
            if self.weighs > TERMS:
                self.terms, self.single, self.weighs = {}, {}, 0
            self.terms[raw] = entry
        return entry

    def term(self, raw: str) -> str | None:
        """The one term the raw word ``raw`` gives; None when it gives none or several (a
        hyphenated word's parts). Kept in `single`, which threads share: a raw word only ever
        gets its one possible entry (a dict's get and set are atomic)."""
        entry = self.terms.get(raw) or self._entry(raw)
        found = entry[0][0][0] if len(entry[0]) == 1 else None
        self.single[raw] = found
        return found

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        no_morph: bool = False,
        **kwargs: Any,
    ) -> Iterator[Token]:
        if keeporiginal or not tokenize or no_morph:
            raise ValueError("a fused analyser neither keeps the original text nor skips tokenizing or stemming")
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
            entry = table.get(raw) or self._entry(raw)
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

    def positions(self, value: str) -> dict[str, list[int]]:
        """Each term of ``value`` with its positions, in the order it first occurs: what
        Whoosh's ``Positions.word_values`` gathers from the tokens of `__call__` (positions on)."""
        found: dict[str, list[int]] = {}
        table, mark, stride = self.terms, self.mark, self.stride
        pos, version, start = 0, 0, 0
        for raw in self.expression.findall(value):
            if mark and raw == mark:
                version += 1
                start = pos + 1
                pos += 1
                continue
            entry = table.get(raw) or self._entry(raw)
            words, width = entry
            base = version * stride + pos - start if mark else pos
            for text, offset in words:
                at = found.get(text)
                if at is None:
                    found[text] = [base + offset]
                else:
                    at.append(base + offset)
            pos += width
        return found

    def index(self, field: Any, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        """What ``field.index(value)`` gives (Whoosh's ``FieldType.index`` of a field with positions
        analysed by the chain this stands for): each term with its frequency, weight and positions."""
        if not isinstance(value, str):
            yield from type(field).index(field, value, **kwargs)
            return
        boost, encode = field.format.field_boost, field.format.encode
        for text, at in self.positions(value).items():
            yield text.encode("utf-8"), len(at), float(len(at)) * boost, encode(at)
