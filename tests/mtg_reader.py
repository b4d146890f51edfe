"""A small reader of Comprehensive Rules releases for the tests, independent of the parser: it finds
rules by their indentation and number alone, and Glossary terms as blocks between blank lines.
What it reads is what the knowledge base built from the same files must answer."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

_CHAPTER = re.compile(r"^(\d)\. (.+)$")
_SECTION = re.compile(r"^(\d\d\d)\. (.+)$")
_RULE = re.compile(r"^ +(\d\d\d\.\d+)\. ?(.*)$")
_SUBRULE = re.compile(r"^ *(\d\d\d\.\d+[a-z]+)\.? (.*)$")
_DATE = re.compile(r"effective as of (\w+) (\d+), (\d{4})")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]  # fmt: skip


@dataclass
class Release:
    """One release as the reader sees it: its date, rule number -> text, Glossary term -> definition."""

    date: dt.date
    rules: dict[str, str]
    terms: dict[str, str]

    def texts(self) -> dict[str, str]:
        """Every rule and term by a key the knowledge base's headwords fold to (rules as printed, terms folded)."""
        return {**self.rules, **{term.casefold(): text for term, text in self.terms.items()}}


def read_release(path: Path) -> Release:
    """The rules and terms of the release at ``path``."""
    lines = path.read_bytes().decode("utf-8-sig").split("\n")
    found = _DATE.search("\n".join(lines[:10]))
    assert found, path
    date = dt.date(int(found[3]), _MONTHS.index(found[1]) + 1, int(found[2]))
    glossary = max(i for i, line in enumerate(lines) if line == "Glossary")
    credits = max(i for i, line in enumerate(lines) if line == "Credits")
    start = lines.index("Credits") + 1  # the Contents list ends with Credits
    rules: dict[str, list[str]] = {}
    last: list[str] | None = None
    for line in lines[start:glossary]:
        if not line.strip():
            continue
        match = _CHAPTER.match(line) or _SECTION.match(line) or _RULE.match(line) or _SUBRULE.match(line)
        if match:
            last = rules.setdefault(match[1], [])
            last.append(match[2].strip())
        else:
            assert last is not None, line
            last.append(line.strip())
    blocks = "\n".join(lines[glossary + 1 : credits]).strip().split("\n\n")
    terms = {b.split("\n")[0].strip(): "\n\n".join(x.strip() for x in b.split("\n")[1:]) for b in blocks}
    return Release(date, {n: "\n\n".join(p for p in parts if p) for n, parts in rules.items()}, terms)


def changes(before: Release, after: Release) -> dict[str, set[str]]:
    """What changed between two releases: keys added, changed (text differs) and removed."""
    old, new = before.texts(), after.texts()
    return {
        "added": set(new) - set(old),
        "changed": {k for k in set(old) & set(new) if old[k] != new[k]},
        "rescinded": set(old) - set(new),
    }


def moves(before: Release, after: Release) -> set[tuple[str, str]]:
    """(old key, new key) for each text found once in each release, at another key, that is no
    longer at its old key unchanged (rules and terms apart); then, among the others, each text
    found so once its cited rule numbers are all read alike (renumbered with the rules it cites)."""
    found: set[tuple[str, str]] = set()
    for old, new in ((before.rules, after.rules), (_folded(before.terms), _folded(after.terms))):
        origins: set[str] = set()
        targets: set[str] = set()
        for shape in (_as_printed, _numbers_alike):
            seen = Counter(shape(t) for t in old.values())
            once_old = {shape(t): k for k, t in old.items() if seen[shape(t)] == 1}
            counts = Counter(shape(t) for t in new.values())
            for key, text in new.items():
                origin = once_old.get(shape(text))
                if not origin or origin == key or counts[shape(text)] != 1 or old.get(key) == text:
                    continue
                if new.get(origin) == old[origin] or origin in origins or key in targets:
                    continue
                found.add((origin, key))
                origins.add(origin)
                targets.add(key)
    return found


def _as_printed(text: str) -> str:
    return text


def _numbers_alike(text: str) -> str:
    return re.sub(r"\b\d+(?:\.\d+)+[a-z]?\b", "#", text)


def _folded(terms: dict[str, str]) -> dict[str, str]:
    return {term.casefold(): text for term, text in terms.items()}
