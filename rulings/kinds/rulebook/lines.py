"""What each line of a rulebook is: an ordered, named chain of small line rules.

Like a markdown block parser, each rule looks at one line (and its neighbours) and
either claims it, saying what it is, or passes. The chain is plain data (`RULES`), so a
rule can be added or removed by name. The first rule that claims a line wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

DECK_GROUP_TYPES = {
    "OUTPOST": "Facility", "OUTPOSTS": "Facility", "SHIPS": "Ship", "MISSIONS": "Mission", "PERSONNEL": "Personnel",
    "DILEMMAS": "Dilemma", "EQUIPMENT": "Equipment", "EVENTS": "Event", "INTERRUPTS": "Interrupt",
    "ARTIFACTS": "Artifact", "OBJECTIVES": "Objective", "DOORWAYS": "Doorway", "FACILITIES": "Facility",
}  # fmt: skip
"""The all-caps card-type words that head the groups of a deck list, and the card type each group holds."""
DECK_GROUPS = tuple(DECK_GROUP_TYPES)
"""The group words alone."""

_GROUP_WORD = re.compile(r"\b(" + "|".join(DECK_GROUPS) + r")\b")
_NUMBERED = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
_PHASE = re.compile(r"^Phase (?:One|Two|Three|Four|Five|Six|\d+):\s*\S")
_ICON = re.compile(r"\[[^\]]*\]")
_CAPS_WORD = r"[A-Z][A-Z'&-]+"
_LABEL = re.compile(rf"^({_CAPS_WORD}(?: {_CAPS_WORD})*)(:\s+|\s+(?=[A-Z][a-z]))(\S.*)$")
_OPEN_ENDED = frozenset(
    {"a", "an", "the", "of", "to", "and", "or", "with", "for", "in", "on", "at", "by", "from", "against"}
)
_VERSION = re.compile(r"^Version \d+(?:\.\d+)*\b", re.IGNORECASE)
_CONTENTS = re.compile(r"^(?:table of )?contents:?$", re.IGNORECASE)
_ANCHOR = re.compile(r"^back to top(?: of (?:the )?page)?\s+(?P<heading>\S.*)$", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^\w]+")
_SOURCE_NOTE = re.compile(r"^(Source note|Note|Editor's note):\s", re.IGNORECASE)


@dataclass(frozen=True)
class Line:
    """A source line in context, as the rules see it."""

    number: int
    """1-based line number."""
    text: str
    """The line as printed (tabs kept)."""
    blank_before: bool
    """The previous line is blank (or this is the first line)."""
    blank_after: bool
    """The next line is blank (or this is the last line)."""


def card_list(line: Line) -> str | None:
    """A deck list: three or more card-type group words on one line."""
    return "card list" if len(_GROUP_WORD.findall(line.text)) >= 3 else None


def numbered_heading(line: Line) -> str | None:
    """``02. Quick-Start Rules``, ``1. Creating the Spaceline``: a numbered section."""
    match = _NUMBERED.match(line.text.strip())
    if not match or len(match.group(2)) > 60 or match.group(2).rstrip()[-1] in ".;,":
        return None
    return "numbered heading"


def phase(line: Line) -> str | None:
    """``Phase One: Customizing a 60-card deck;``: one of the game's phases."""
    return "phase" if _PHASE.match(line.text.strip()) else None


def caps_heading(line: Line) -> str | None:
    """``SHIP VS. SHIP``, ``REMEMBER, IT'S STAR TREK [R] !``: an all-caps sub-heading."""
    text = line.text.strip()
    if len(text) > 4 * 60:  # checked before the icons are cut, which costs the square of a long line's length
        return None
    text = _ICON.sub("", text)
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2 or len(text) > 60:
        return None
    return "caps heading" if all(c.isupper() for c in letters) else None


def table_row(line: Line) -> str | None:
    """A tab-separated line of two or more cells (a table's header or row)."""
    cells = [c for c in line.text.strip().split("\t") if c.strip()]
    return "table row" if len(cells) >= 2 else None


def source_note(line: Line) -> str | None:
    """``Source note: ...``: a transcriber's note about the document itself."""
    return "note" if _SOURCE_NOTE.match(line.text.strip()) else None


def labelled_item(line: Line) -> str | None:
    """``REASSIGN: Pick up ...``, ``MISSIONS Mission cards define ...``: a labelled item."""
    return "item" if _LABEL.match(line.text.strip()) else None


def _title_case(text: str) -> bool:
    """``Classification And Skills: Super Personnel``: two or more words, each capitalised but the short ones."""
    words = [w for w in re.split(r"[\s:]+", text) if w]
    return len(words) >= 2 and all(w[:1].isupper() or w.lower() in _OPEN_ENDED for w in words)


def title_heading(line: Line) -> str | None:
    """``Setup``, ``Ship Card Anatomy``, ``Federation:``: a short title between blanks, or in title case
    with its text on the very next line (``Classification And Skills: Super Personnel``)."""
    text = line.text.strip()
    if not line.blank_before or not text[0].isupper() or not (line.blank_after or _title_case(text)):
        return None
    if len(text) > 60 or len(text.split()) > 8 or text[-1] in '.;,?!"':
        return None
    if text.endswith(":") and len(text) > 30:
        return None
    if _VERSION.match(text) or text.split()[-1] in _OPEN_ENDED:
        return None  # a version line under the document's title; a sentence cut off (``... even greater against``)
    return "title heading"


RULES: list[tuple[str, Callable[[Line], str | None]]] = [
    ("card_list", card_list),
    ("numbered_heading", numbered_heading),
    ("phase", phase),
    ("caps_heading", caps_heading),
    ("table_row", table_row),
    ("source_note", source_note),
    ("labelled_item", labelled_item),
    ("title_heading", title_heading),
]
"""The chain, in the order the rules are tried."""


def classify(line: Line) -> str:
    """What ``line`` is: the first rule's answer, else ``paragraph``."""
    for _name, rule in RULES:
        kind = rule(line)
        if kind:
            return kind
    return "paragraph"


def label_of(text: str) -> tuple[str, str]:
    """Split a labelled item into its label and text."""
    match = _LABEL.match(text.strip())
    if not match:
        return text.strip(), ""
    return match.group(1), match.group(3)


def numbered_parts(text: str) -> tuple[str, str]:
    """Split a numbered heading into its number and title."""
    match = _NUMBERED.match(text.strip())
    if not match:
        raise ValueError(f"not a numbered heading: {text!r}")
    return match.group(1), match.group(2).strip()


def anchored_heading(text: str) -> str | None:
    """``back to top of page INTRODUCTION`` (an HTML copy's link before each section): the heading it carries."""
    match = _ANCHOR.match(text.strip())
    return match["heading"].strip() if match else None


_FURNITURE = re.compile(
    r"^.{1,100}?(?:\s*\.){4,}\s*\d+$"  # a contents line with dot leaders, spaced or not
    r"|^VERSION \d+(?:\.\d+)*$"  # a print header
    r"|(?i:^.{0,80}\bpage \d+ of \d+$)"  # an uploaded PDF's running header
)


def furniture(lines: list[Line]) -> list[int]:
    """Lines of print furniture: contents lines with dot leaders (``INTRODUCTION . . . . 1``), a version
    header in capitals (``VERSION 4``), a running header ending ``page 2 of 9``; and the contents heading over
    dot-leader lines."""
    found = [k for k, line in enumerate(lines) if _FURNITURE.match(line.text.strip())]
    headed = [k - 1 for k in found if k and _CONTENTS.match(lines[k - 1].text.strip())]
    return sorted(lines[k].number for k in {*found, *headed})


def contents(lines: list[Line]) -> list[int]:
    """The lines of a table of contents without dot leaders: its heading (``Table of Contents``) and
    the titles under it, up to a section's own anchor (`anchored_heading`), a title met twice (the
    section itself), or text (whose heading is then the last title, not a contents line)."""
    for k, line in enumerate(lines):
        if not _CONTENTS.match(line.text.strip()):
            continue
        run: list[int] = []
        seen: set[str] = set()
        for following in lines[k + 1 :]:
            text = following.text.strip()
            key = _NOT_WORD.sub(" ", text.lower()).strip()
            if anchored_heading(text) is not None or key in seen:
                break
            if len(text) > 60 or text[-1] in ".;,?!" or not (following.blank_before and following.blank_after):
                run = run[:-1]
                break
            run.append(following.number)
            seen.add(key)
        return [line.number, *run] if run else []
    return []
