"""Merge repeated copies of one section into a single, fullest text.

Reposted rulebooks repeat whole sections, and the copies drift: a sentence here, a full
stop there, a bullet list only one copy kept. Merging keeps every line that is in any
copy, picks the fuller of two near-identical lines, and reports each difference.

The work is bounded so that a long document parses in time linear in its size: each
line's compared text is computed once, identical copies are folded together line by line
(`fold_identical`) without a diff, and two lines are compared character by character only
when both are short (`SHORT`); longer lines are compared by their words.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from rulings.normalize import clean_line

SIMILAR = 0.9
"""Two lines this alike (difflib ratio) are one line copied with a small change."""
SHORT = 200
"""Lines up to this many characters are compared character by character (cost grows with the square
of the length); longer ones by the words they share, in linear time."""


@dataclass
class Piece:
    """A non-blank body line of a section, with the copies merged into it."""

    number: int
    """The source line kept."""
    text: str
    """That line as printed."""
    blank_before: bool
    """A blank line preceded it in its copy (a paragraph or list boundary)."""
    duplicates: list[int] = field(default_factory=list)
    """Lines of other copies that repeat it."""

    @cached_property
    def clean(self) -> str:
        """The text compared across copies (computed once: ``text`` never changes)."""
        return clean_line(self.text)


def _alike(a: str, b: str) -> bool:
    if a.startswith(b) or b.startswith(a):
        return True
    shorter, longer = sorted((len(a), len(b)))
    if 2 * shorter < SIMILAR * (shorter + longer):
        return False  # even if every character of the shorter line matched, the ratio would stay under SIMILAR
    if longer <= SHORT:
        return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= SIMILAR
    words_a, words_b = Counter(a.split()), Counter(b.split())
    shared = sum((words_a & words_b).values())
    return 2 * shared >= SIMILAR * (words_a.total() + words_b.total())


def _describe(kept: Piece, dropped: Piece) -> str:
    a, b = kept.clean, dropped.clean
    if a.startswith(b):
        return f"line {dropped.number} lacks the ending {a[len(b) :]!r} of line {kept.number}"
    return f"lines {kept.number} and {dropped.number} differ; kept line {kept.number}, the fuller"


def merge(primary: list[Piece], other: list[Piece], label: str) -> tuple[list[Piece], list[str]]:
    """Merge ``other`` into ``primary``; return the merged pieces and what differed."""
    notes: list[str] = []
    merged: list[Piece] = []
    a = [p.clean for p in primary]
    b = [p.clean for p in other]
    # autojunk (difflib's heuristic: in sequences of 200+ lines, a line making up over 1% of them is
    # matched only next to other matches) keeps a section of one line repeated thousands of times
    # from costing the square of its length; real sections are shorter and unaffected.
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=True)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        mine, theirs = primary[i1:i2], other[j1:j2]
        if tag == "equal":
            for kept, dup in zip(mine, theirs, strict=True):
                kept.duplicates += [dup.number, *dup.duplicates]
            merged += mine
        elif tag == "delete":
            merged += mine
            span = _lines(mine)
            notes.append(f"{label}: lines {span} appear in one copy only; kept")
        elif tag == "insert":
            merged += theirs
            notes.append(f"{label}: lines {_lines(theirs)} appear in one copy only; kept")
        else:
            merged += _merge_replaced(mine, theirs, label, notes)
    return merged, notes


def _merge_replaced(mine: list[Piece], theirs: list[Piece], label: str, notes: list[str]) -> list[Piece]:
    out: list[Piece] = []
    for index in range(max(len(mine), len(theirs))):
        a = mine[index] if index < len(mine) else None
        b = theirs[index] if index < len(theirs) else None
        if a and b and _alike(a.clean, b.clean):
            kept, dropped = (a, b) if len(a.clean) >= len(b.clean) else (b, a)
            kept.duplicates += [dropped.number, *dropped.duplicates]
            out.append(kept)
            if kept.clean != dropped.clean:
                notes.append(f"{label}: {_describe(kept, dropped)}")
            continue
        for piece in (a, b):
            if piece:
                out.append(piece)
                notes.append(f"{label}: line {piece.number} appears in one copy only; kept")
    return out


def _lines(pieces: list[Piece]) -> str:
    numbers = [p.number for p in pieces]
    return f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"{numbers[0]}"


def signature(pieces: list[Piece]) -> tuple[str, ...]:
    """What makes two copies identical: their compared lines, in order."""
    return tuple(p.clean for p in pieces)


def fold_identical(kept: list[Piece], copy: list[Piece]) -> None:
    """Record ``copy``, identical to ``kept`` (same `signature`), as duplicates of ``kept``'s lines."""
    for mine, theirs in zip(kept, copy, strict=True):
        mine.duplicates += [theirs.number, *theirs.duplicates]


def contained(block: list[Piece], pieces: list[Piece]) -> bool:
    """Whether every line of ``block`` is repeated somewhere in ``pieces``."""
    texts = {p.clean for p in pieces}
    return bool(block) and all(p.clean in texts for p in block)
