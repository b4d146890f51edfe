"""How a game numbers its Comprehensive Rules, and the check a numbered document carries in itself.

Two numberings are known, each named for the game that prints it:

- ``magic`` (`MAGIC`): chapters ``1.``, sections ``100.``, rules ``100.1.`` and subrules
  ``100.1a`` (the letters skip ``l`` and ``o``); one paragraph a line.
- ``dotted`` (`DOTTED`, Disney Lorcana): ``1.``, ``1.1.``, ``1.1.1.``, ``6.1.2.2.``, a period after
  every number, at any depth; a rule's lines wrap, so a line that is not numbered continues the
  paragraph before (a new paragraph starts at ``Example:`` or a bullet).

A game names its numbering in `GAMES`; a game not named there gets the one whose numbers start
more of its lines (`detect`). A number printed without its period (``606.5 If ...``) starts a rule
only where the sequence expects it (`Numbering.expected`): a cited number at the start of a
wrapped line (``6.1.2.2 to be a character``) does not.

`sequence` is the self-check: the numbers of a numbered document run in order (606.4, 606.5,
606.6; 702.19a, b, c), so a gap, a number out of order or a number read twice is a warning naming
the number and the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

LETTERS = "abcdefghijkmnpqrstuvwxyz"
"""Magic's subrule letters, in order (``l`` and ``o`` are never used)."""

_MAGIC = (
    ("chapter", re.compile(r"^(?P<number>[1-9])(?P<dot>\.)\s+(?P<text>\S.*)$")),
    ("section", re.compile(r"^(?P<number>[1-9]\d\d)(?:(?P<dot>\.)\s+(?P<text>\S.*)|\s+(?P<bare>[A-Z].*))$")),
    ("rule", re.compile(r"^(?P<number>[1-9]\d\d\.\d+)(?:(?P<dot>\.)\s*(?P<text>.*)|\s+(?P<bare>\S.*))$")),
    ("subrule", re.compile(r"^(?P<number>[1-9]\d\d\.\d+[a-z]+)(?P<dot>\.)?(?:\s+(?P<text>.*)|$)")),
)
_DOTTED = re.compile(
    r"^(?P<number>[1-9]\d?(?:\.\d{1,3}){0,5})(?:(?P<dot>\.)(?!\d)(?:\s*(?P<text>\S.*))?$|(?<=\d\.\d)\s+(?P<bare>\S.*))"
)
_DOTTED_KINDS = ("chapter", "section", "rule")


@dataclass(frozen=True)
class Numbered:
    """A line that starts a numbered rule."""

    kind: str
    """``chapter``, ``section``, ``rule`` or ``subrule``."""
    number: str
    """The number without its trailing period (``1.1.1``, ``702.19b``)."""
    text: str
    """What follows the number on the line."""
    dotted: bool
    """Whether the number was printed as the numbering prints it, with its period (Magic's subrules
    may go without); one without starts a rule only in sequence."""


@dataclass(frozen=True)
class Numbering:
    """One way of numbering rules: how a line starts a rule, and where each number stands."""

    name: str
    wrapped: bool
    """Whether a rule's lines wrap (an unnumbered line continues the paragraph before) rather
    than each line being a paragraph of its own."""

    def numbered(self, line: str) -> Numbered | None:
        """The numbered rule ``line`` (indent stripped) starts, if it starts one."""
        if self.name == "magic":
            for kind, pattern in _MAGIC:
                match = pattern.match(line)
                if match:
                    bare = match.groupdict().get("bare")
                    text = match["text"] if bare is None else bare
                    return Numbered(kind, match["number"], (text or "").strip(), bare is None)
            return None
        match = _DOTTED.match(line)
        if not match:
            return None
        number = match["number"]
        depth = number.count(".")
        kind = _DOTTED_KINDS[depth] if depth < len(_DOTTED_KINDS) else "subrule"
        bare = match["bare"]
        if bare is None and match["dot"] is None:
            return None
        return Numbered(kind, number, (match["text"] if bare is None else bare or "").strip(), bare is None)

    def place(self, number: str) -> tuple[str, int]:
        """(parent, ordinal): where ``number`` stands among its siblings (``702.19b`` is the 2nd of
        ``702.19``; section ``702`` the 2nd of chapter ``7``, whose first is ``700``: ordinal 2)."""
        if self.name == "magic":
            letters = re.fullmatch(r"(\d{3}\.\d+)([a-z]+)", number)
            if letters:
                return letters[1], _letter(letters[2])
            if "." in number:
                section, rule = number.split(".")
                return section, int(rule)
            if len(number) == 3:
                return number[0], int(number[1:])
            return "", int(number)
        parent, _, last = number.rpartition(".")
        return parent, int(last)

    def first(self, number: str) -> int:
        """The ordinal of the first of ``number``'s siblings (a Magic section ``100``: 0; else 1)."""
        return 0 if self.name == "magic" and re.fullmatch(r"\d{3}", number) else 1

    def expected(self, number: str, last: dict[str, int], seen: set[str]) -> bool:
        """Whether ``number`` is the next one after those read (``last``: parent -> last ordinal
        read under it; ``seen``: the numbers read), its parent read."""
        parent, ordinal = self.place(number)
        if parent and parent not in seen:
            return False
        before = last.get(parent)
        return ordinal == (before + 1 if before is not None else self.first(number))

    def next_of(self, number: str, ordinal: int) -> str:
        """The number of ``number``'s sibling at ``ordinal``."""
        parent, _ = self.place(number)
        if self.name == "magic" and re.fullmatch(r"\d{3}\.\d+[a-z]+", number):
            return f"{parent}{_letters(ordinal)}"
        if self.name == "magic" and len(number) == 3 and "." not in number:
            return f"{parent}{ordinal:02d}"
        return f"{parent}.{ordinal}" if parent else str(ordinal)


def _letter(letters: str) -> int:
    value = 0
    for char in letters:
        value = value * len(LETTERS) + (LETTERS.index(char) + 1 if char in LETTERS else 0)
    return value


def _letters(ordinal: int) -> str:
    found = ""
    while ordinal > 0:
        ordinal, rest = divmod(ordinal - 1, len(LETTERS))
        found = LETTERS[rest] + found
    return found


MAGIC = Numbering("magic", wrapped=False)
DOTTED = Numbering("dotted", wrapped=True)
GAMES = {"mtg": MAGIC, "lorcana": DOTTED}
"""The numbering each game's Comprehensive Rules are known to use."""
_MAGIC_LINE = re.compile(r"^\s*[1-9]\d\d\.\d+[a-z]?\.?\s")
_DOTTED_LINE = re.compile(r"^\s*[1-9]\d?(?:\.\d{1,3}){2,}\.\s")


def detect(lines: Sequence[str]) -> Numbering:
    """The numbering whose rule numbers start more of ``lines`` (Magic's on a tie)."""
    magic = sum(1 for line in lines if _MAGIC_LINE.match(line))
    dotted = sum(1 for line in lines if _DOTTED_LINE.match(line))
    return DOTTED if dotted > magic else MAGIC


def numbering_for(game: str, lines: Sequence[str]) -> Numbering:
    """The numbering of a release of ``game``'s rules: the one `GAMES` names, else the one detected."""
    return GAMES.get(game) or detect(lines)


def sequence(numbering: Numbering, numbers: Sequence[tuple[str, int]], path: str) -> list[str]:
    """Warnings for numbers (``(number, line)`` in document order) that do not run in sequence:
    a number missing before the one read, one out of order, one read twice."""
    warnings: list[str] = []
    last: dict[str, tuple[int, str]] = {}
    seen: dict[str, int] = {}
    for number, line in numbers:
        if number in seen:
            warnings.append(f"{path}:{line}: rule {number} is numbered twice (also line {seen[number]})")
            continue
        seen[number] = line
        parent, ordinal = numbering.place(number)
        before = last.get(parent)
        start = before[0] + 1 if before else numbering.first(number)
        if ordinal < start:
            warnings.append(f"{path}:{line}: rule {number} is out of order (after {before[1] if before else parent})")
            continue
        if ordinal > start:
            missing = [numbering.next_of(number, o) for o in range(start, ordinal)]
            gone = missing[0] if len(missing) == 1 else f"{missing[0]} to {missing[-1]}"
            warnings.append(
                f"{path}:{line}: rule {gone} is missing: the numbers go from "
                f"{before[1] if before else parent or 'the start'} to {number}"
            )
        last[parent] = (ordinal, number)
    return warnings


_RULE_LINE = re.compile(r"^\s*(?:[1-9]\d?(?:\.\d{1,3}){1,5}\.?|[1-9]\d\d\.\d+[a-z]?\.?)\s+\S")
NUMBERED_SHARE = 0.25
"""From this share of its text lines starting with a rule number (``1.1.1.``, ``702.19b``), a text is numbered rules."""
GIANT = 4000
"""An entry of more characters than this, in a text of numbered rules, is the rules read as one entry."""


def numbered_rules(lines: Sequence[str]) -> str | None:
    """``N of M lines start with a rule number`` when enough of ``lines`` do for the text to be
    numbered rules (a Comprehensive Rules document), else None."""
    text = [line for line in lines if line.strip()]
    found = sum(1 for line in text if _RULE_LINE.match(line))
    if not text or found < NUMBERED_SHARE * len(text):
        return None
    return f"{found} of {len(text)} lines start with a rule number"
