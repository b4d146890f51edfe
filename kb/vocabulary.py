"""The words a knowledge base and its questions share: the kinds of series and how a person
names them, the kinds of change (`CHANGE_KINDS`), the topic keys a "See X" reference may
mean, and the notes that record a rule's text moving to another number (`moved_from`). Used both where versions are
made (`kb.ingest.ledger`, `kb.index.writer`) and where they are answered (`kb.query`, `kb.search.in_force`, the web);
and the close matches of a word mistyped among many names.
"""

from __future__ import annotations

import difflib
import math
import re
import sys
from collections import Counter
from collections.abc import Iterable

from kb.errors import UnknownFilter
from rulings.normalize import headword_key

SERIES_KINDS = ("rulebook", "glossary", "current-rulings", "faq", "comprehensive-rules")
"""The kinds of series a search or diff can be limited to."""
KIND_ALIASES = {
    "current-rulings-update": "current-rulings", "ruling": "current-rulings", "rulings": "current-rulings",
    "dated-rulings": "current-rulings", "question": "faq",
}  # fmt: skip
"""Other words a person may give for a series kind (`kind_filter`), listed in help and errors (`kb.asking`)."""

CHANGE_KINDS = ("added", "changed", "rescinded", "pending")
"""The kinds of change a diff or a document makes, in the order a reader sees them."""


MOVED_FROM = "moved from "
"""How a version's note starts when its text stood at another number before (then that number)."""
MOVED_TO = "moved to "
"""How a version's note starts when its text moved on to another number (then that number)."""
_MOVED_FROM = re.compile(r"(?:^|; )moved from (?P<number>[^;]+)")


def moved_from(note: str) -> str | None:
    """The number a version's text moved from, as its note says (None when it did not move)."""
    match = _MOVED_FROM.search(note)
    return match["number"] if match else None


def series_kind(kind: str) -> str:
    """The series kind a document kind (or a word a person types) belongs to:
    ``current-rulings-update`` and ``ruling`` are ``current-rulings``."""
    return KIND_ALIASES.get(kind, kind)


def kinds_text() -> str:
    """The kinds a search or diff may be limited to, and the other words taken for them, for help
    and errors: ``rulebook, glossary, current-rulings, faq (current-rulings-update, ... mean
    current-rulings; question means faq)``."""
    words: dict[str, list[str]] = {}
    for word, kind in KIND_ALIASES.items():
        words.setdefault(kind, []).append(word)
    others = "; ".join(f"{', '.join(w)} {'means' if len(w) == 1 else 'mean'} {k}" for k, w in words.items())
    return f"{', '.join(SERIES_KINDS)} ({others})"


def kind_filter(value: str) -> str:
    """The series kind meant by a kind a person gives (``current-rulings-update`` is
    ``current-rulings``); anything else is an `UnknownFilter` listing the valid kinds."""
    kind = series_kind(value.strip().lower())
    if kind not in SERIES_KINDS:
        raise UnknownFilter(f"unknown kind {value[:40]!r}; the kinds are {kinds_text()}")
    return kind


def series_of_kind(series: str) -> str:
    """The kind of a series: ``rulebook:<id>`` is ``rulebook``."""
    return series.split(":", 1)[0]


def reference_keys(target: str) -> list[str]:
    """The topic keys a "See X" may mean: X itself, or, for "See persona - Mirror versions",
    the entry before the dash (the reference points into it)."""
    keys = [headword_key(target)]
    if " - " in target:
        keys.append(headword_key(target.split(" - ")[0]))
    return keys


def close_matches(word: str, candidates: Iterable[str], n: int, cutoff: float) -> list[str]:
    """`difflib.get_close_matches` (the same answer), for many candidates: a candidate is
    compared only when enough of its characters are characters of ``word``. difflib's ratio
    is at most twice the characters the two share over their lengths together, and the
    characters shared are at most those of the candidate found in ``word`` (a count a
    `str.translate` makes), so a candidate passed over could not have reached ``cutoff``."""
    others = str.maketrans("", "", "".join(set(word)))
    length = len(word)
    reachable = [
        c for c in candidates if 2 * min(len(c) - len(c.translate(others)), length) >= cutoff * (len(c) + length) - 1e-9
    ]
    return difflib.get_close_matches(word, reachable, n=n, cutoff=cutoff)


def lengths_within(length: int, cutoff: float) -> tuple[int, int]:
    """The shortest and longest a candidate may be for difflib's ratio with a word of
    ``length`` characters to reach ``cutoff``: twice the shorter's length over both lengths
    together (difflib's ``real_quick_ratio``) must reach it (any length when ``cutoff`` is 0)."""
    longest = math.floor(length * (2 - cutoff) / cutoff + 1e-9) if cutoff > 0 else sys.maxsize
    return math.ceil(cutoff * length / (2 - cutoff) - 1e-9), longest


class NameTable:
    """Names with the count of each character in each, made once for many "did you mean"s:
    the characters a word shares with every name (difflib's ``quick_ratio`` counts them the
    same way: each character as often as both have it) are an array operation. A build keeps
    its names' table in its store (`packed`, `unpacked`)."""

    def __init__(self, names: Iterable[str]) -> None:
        import numpy as np

        self.names = list(names)
        lengths = np.array([len(name) for name in self.names], dtype=np.int64)
        chars = np.frombuffer("".join(self.names).encode("utf-32-le"), dtype=np.uint32)
        alphabet, columns = np.unique(chars, return_inverse=True)
        rows = np.repeat(np.arange(len(self.names), dtype=np.int64), lengths)
        width = max(1, len(alphabet))
        counted = np.bincount(rows * width + columns.reshape(-1), minlength=len(self.names) * width)
        self.counts = counted.reshape(len(self.names), width).astype(np.int32)
        self.columns = {chr(code): column for column, code in enumerate(alphabet.tolist())}
        self.lengths = lengths.astype(np.float64)

    def packed(self) -> tuple[str, str, bytes, int] | None:
        """The table as a store keeps it: the names a line each, the characters of the columns
        in order, the counts row by row, and the bytes of each count; None when a name holds a
        line break (it is then made again when asked: `unpacked` could not split the names)."""
        if any("\n" in name for name in self.names):
            return None
        alphabet = "".join(sorted(self.columns, key=self.columns.__getitem__))
        most = int(self.counts.max(initial=0))
        size = 1 if most < 1 << 8 else 2 if most < 1 << 16 else 4
        return "\n".join(self.names), alphabet, self.counts.astype(f"<u{size}").tobytes(), size

    @classmethod
    def unpacked(cls, names: str, alphabet: str, counts: bytes, size: int) -> NameTable:
        """The table `packed` gave (a ``ValueError`` when its parts do not fit together)."""
        import numpy as np

        table = cls.__new__(cls)
        table.names = names.split("\n") if names else []
        table.counts = np.frombuffer(counts, dtype=f"<u{size}").reshape(len(table.names), max(1, len(alphabet)))
        table.counts = table.counts.astype(np.int32)
        table.columns = {char: column for column, char in enumerate(alphabet)}
        table.lengths = table.counts.sum(axis=1).astype(np.float64)  # a name's characters, each counted once
        return table

    def reachable(self, word: str, cutoff: float) -> list[str]:
        """The names whose ratio with ``word`` may reach ``cutoff`` (difflib's ``quick_ratio`` does), in order."""
        import numpy as np

        wanted = np.zeros(len(self.columns), dtype=np.int32)
        for char, times in Counter(word).items():
            if char in self.columns:
                wanted[self.columns[char]] = times
        shared = np.minimum(self.counts, wanted).sum(axis=1)
        keep = 2 * shared >= cutoff * (self.lengths + len(word)) - 1e-9
        return [self.names[row] for row in np.flatnonzero(keep).tolist()]
