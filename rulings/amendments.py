"""Amendment instructions in ruling text, read by a small grammar built from parts.

An instruction is ``action x (ordinal x unit | whole entry) x target``: "Replace the
third paragraph of the Glossary entry with the following:", "Delete the last sentence of
the existing Current Rulings entry.", "Add the following to the Glossary entry:", "The
existing Glossary entry is cancelled upon release of X.", "The first bullet in the
section on X should read:", "Errata: ...". Each part is one small pattern below, so a new
ordinal, unit or target needs no new sentence pattern. Text that starts like an
instruction but does not parse is returned as unreadable (the caller warns), never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1,
}  # fmt: skip
"""Ordinal words and their positions (``last`` is -1)."""
UNITS = ("paragraph", "sentence", "bullet")
"""Parts of an entry an instruction can name; ``entry`` is the whole, ``list`` a list in it."""

_ORDINAL = "(?P<ordinal>" + "|".join(ORDINALS) + ")"
_UNIT = "(?P<unit>" + "|".join(UNITS) + ")"
_PART = rf"(?:(?:the )?{_ORDINAL} {_UNIT} (?:of|in) )"
_TARGET = (
    r"(?P<target>(?:the|this) (?:entire |existing )*(?:glossary|current rulings) entry"
    r"|the section on (?P<section>[^:]+?)|(?:the|this) entry)"
)
_WHOLE = r"(?P<target>(?:The|This) (?:existing )?(?:glossary|current rulings) entry)"
_ASIDE = r"(?: \((?P<aside>[^()]*)\))?"
_FOLLOWING = r"(?:with the following|as follows)"
_RELEASE = r"(?: upon (?:the )?release of (?P<release>[^.]+?))?"

GRAMMAR: list[tuple[str, re.Pattern[str]]] = [
    ("replace", re.compile(rf"^Replace {_PART}?{_TARGET} {_FOLLOWING}{_ASIDE}:\s*", re.I)),
    ("replace", re.compile(rf"^The {_ORDINAL} {_UNIT} (?:of|in) {_TARGET} should read:\s*", re.I)),
    ("delete", re.compile(rf"^Delete {_PART}?{_TARGET}\.\s*", re.I)),
    ("add", re.compile(rf"^Add (?:the following )?to {_TARGET}:\s*", re.I)),
    ("add-list", re.compile(r"^Add to the list of (?P<section>[^:]+?):\s*", re.I)),
    ("add-list", re.compile(r"^Add (?P<items>.+?) to the list of (?P<section>[^.:]+?)\.\s*", re.I)),
    ("cancel", re.compile(rf"^{_WHOLE} is (?:cancell?ed|canceled|rescinded){_RELEASE}\.\s*", re.I)),
    ("errata", re.compile(r"^Errata:\s*", re.I)),
]
"""The instruction shapes, each composed from the parts above, tried in order."""

_LOOKS_LIKE = re.compile(
    r"^(?:Replace|Delete|Add|Remove|Insert|Change|Amend)\b|^The (?:existing|\w+ (?:paragraph|sentence|bullet))\b"
    r"|\bshould read:",
    re.I,
)
_EFFECTIVE = re.compile(r"\beffective (?:upon|on) (?:the )?release of (?P<release>[^.,;)]+)", re.I)
_MISPRINT = re.compile(
    r"The (?P<version>[^.]*?) version is misprinted\b.*?should be treated as though it has the same text as "
    r"the (?P<original>[^.]+?)\.",
    re.I | re.S,
)


@dataclass(frozen=True)
class Amendment:
    """One instruction about another entry, and the text that goes with it."""

    action: str
    """replace, delete, add, cancel, errata or errata-by-reference."""
    target: str
    """glossary, current-rulings, section, or this (the entry named by the headword)."""
    instruction: str
    """The instruction as printed."""
    text: str
    """Replacement or added text; for delete and cancel, the ruling text that follows."""
    unit: str = "entry"
    """entry, paragraph, sentence, bullet, or list (a list the entry holds)."""
    ordinal: int | None = None
    """Which unit (1-based; -1 is the last); None for the whole entry."""
    section: str | None = None
    """For ``the section on X`` and ``the list of X``: X."""
    release: str | None = None
    """For "upon release of X": the expansion X whose release date makes it effective."""
    aside: str | None = None
    """A parenthetical note in the instruction ("this also corrects ...")."""

    def describe(self) -> str:
        """The operation in words, e.g. "replaces the first paragraph of the Glossary entry"."""
        names = {
            "glossary": "the Glossary entry",
            "current-rulings": "the Current Rulings entry",
            "this": "the entry",
            "section": f"the section on {self.section}",
        }
        where = names[self.target]
        if self.unit == "list":
            where = f"the list of {self.section} in the Glossary entry"
        elif self.ordinal is not None:
            position = next(word for word, n in ORDINALS.items() if n == self.ordinal)
            where = f"the {position} {self.unit} of {where}"
        verbs = {
            "replace": "replaces",
            "delete": "deletes",
            "add": "adds to",
            "cancel": "cancels",
            "errata": "gives errata for",
            "errata-by-reference": "gives errata for",
        }
        return f"{verbs[self.action]} {where}"


def _target(match: re.Match[str], action: str) -> str:
    if action == "errata":
        return "this"
    if action == "add-list":
        return "glossary"
    words = match.group("target").lower()
    if "glossary" in words:
        return "glossary"
    if "current rulings" in words:
        return "current-rulings"
    return "section" if words.startswith("the section on") else "this"


def parse_amendment(text: str) -> tuple[Amendment | None, bool]:
    """Read the instruction ``text`` starts with: (amendment, unreadable).

    Returns (None, False) for ordinary ruling text, (None, True) for text that starts like
    an instruction the grammar cannot read.
    """
    body = text.strip()
    for action, pattern in GRAMMAR:
        match = pattern.match(body)
        if not match:
            continue
        groups = match.groupdict()
        rest = body[match.end() :].strip()
        if groups.get("items"):
            rest = match.group(0).strip() + (f"\n\n{rest}" if rest else "")
        effective = _EFFECTIVE.search(body)
        return (
            Amendment(
                action="add" if action == "add-list" else action,
                target=_target(match, action),
                instruction=match.group(0).strip(),
                text=rest,
                unit=groups.get("unit") or ("list" if action == "add-list" else "entry"),
                ordinal=ORDINALS[groups["ordinal"].lower()] if groups.get("ordinal") else None,
                section=groups.get("section"),
                release=groups.get("release") or (effective.group("release").strip() if effective else None),
                aside=groups.get("aside"),
            ),
            False,
        )
    misprint = _MISPRINT.search(body)
    if misprint:
        return Amendment("errata-by-reference", "this", misprint.group(0), body), False
    return None, bool(_LOOKS_LIKE.search(body.split("\n\n")[0]))


def effective_release(text: str) -> str | None:
    """The expansion named by "effective upon release of X" in ``text``, if any."""
    match = _EFFECTIVE.search(text)
    return match.group("release").strip() if match else None
