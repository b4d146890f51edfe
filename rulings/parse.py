"""Parse one document of any kind, and account for every one of its lines.

`parse_document` picks the parser of the document's kind from the registry (`rulings.kinds`). `coverage` checks the
promise that nothing is lost: each non-blank line is in exactly one entry (as its text
or as a merged duplicate), in the chrome, or in the reported unparsed remainder.
A line split into glued entries is in each of them and counted once. Entry-looking lines
that do not start an entry (`rulings.model.NotEntry`) are counted apart, so that a merge
shows in the report even when every line is accounted for.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rulings import kinds
from rulings.entries.partial import mark_cut
from rulings.lines.flowed import read_into
from rulings.lines.noise import clean
from rulings.model import Document, ParseError, ParseResult
from rulings.source import SourceText, read_source


@dataclass(frozen=True)
class Coverage:
    """How a document's non-blank lines were accounted for."""

    nonblank: int
    """Non-blank lines in the source."""
    in_entries: int
    """Lines that are an entry's text."""
    duplicates: int
    """Lines that repeat another line and were merged into its entry."""
    chrome: int
    """Lines of forum chrome."""
    unparsed: int
    """Lines no rule accounted for (reported)."""
    split: int
    """Lines split into several glued entries (each counted once, in ``in_entries``)."""
    missing: tuple[int, ...]
    """Non-blank lines accounted for nowhere: must be empty."""
    twice: tuple[int, ...]
    """Lines accounted for more than once: must be empty."""
    not_entries: int = 0
    """Entry-looking lines that do not start an entry (in an entry's text, each warned): possible merges."""

    @property
    def complete(self) -> bool:
        """Every line accounted for exactly once."""
        return not self.missing and not self.twice

    @property
    def percent(self) -> float:
        """Share of non-blank lines accounted for, in percent."""
        found = self.nonblank - len(self.missing)
        return 100.0 * found / self.nonblank if self.nonblank else 100.0


def coverage(result: ParseResult) -> Coverage:
    """Count where each line of ``result``'s source went."""
    seen: Counter[int] = Counter()
    own = [n for e in result.entries for n in e.lines]
    owned, split = set(own), set(result.split)
    once = [n for n in own if n not in split] + [n for n in split if n in owned]
    dups = [n for e in result.entries for n in e.duplicate_lines]
    for numbers in (once, dups, result.chrome, result.unparsed):
        seen.update(numbers)
    nonblank = set(result.nonblank)
    return Coverage(
        nonblank=len(nonblank),
        in_entries=len(owned),
        duplicates=len(set(dups)),
        chrome=len(set(result.chrome)),
        unparsed=len(set(result.unparsed)),
        split=len(split),
        missing=tuple(sorted(nonblank - set(seen))),
        twice=tuple(sorted(n for n, c in seen.items() if c > 1)),
        not_entries=len({n.line for n in result.not_entries}),
    )


def parse_document(document: Document, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Read and parse ``document.path`` with the parser for ``document.kind``."""
    if document.kind not in kinds.names():
        known = ", ".join(kinds.names())
        raise ParseError(document.path, 1, f"unknown kind {document.kind!r}; expected one of {known}")
    return parse_source(document, read_source(document.path), titles)


def parse_source(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse already-decoded text with the parser for ``document.kind``."""
    document.encoding = source.encoding
    kind = kinds.kind(document.kind)
    if not kind.cleaned:
        result = kind.parse(document, source, titles)
    else:
        cleaned = clean(source)
        result = kind.parse(document, cleaned.source, titles)
        result.chrome = sorted(result.chrome + cleaned.chrome)
        result.unparsed = sorted(result.unparsed + cleaned.unparsed)
        result.nonblank = [i + 1 for i, t in enumerate(source.lines) if t.strip()]
        result.warnings += cleaned.warnings
        read_into(result, source.lines, cleaned.flowed)
        mark_cut(result, [n for n in cleaned.page_ends if n not in result.nonblank[-1:]])
    result.lines = source.lines
    result.warnings[:0] = source.warnings
    return result


def parse_file(path: str | Path, kind: str, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a file outside any library (its id and title from the file name)."""
    name = Path(path).stem
    return parse_document(Document(id=name, path=str(path), game="", kind=kind, title=name), titles)
