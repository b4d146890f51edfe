"""A small reader of Disney Lorcana Comprehensive Rules releases for the tests, sharing no code with
the parser: a rule is a line that, its indent stripped, begins with a number of dots and digits
ending in a period, then its text (``1.``, ``1.1.``, ``6.1.2.2.``; ``10.11.Song`` too), between
the first chapter before the first three-part number and the last line that says ``Glossary``.
Each number counts once. A PDF's lines are pypdf's plain text, page after page."""

from __future__ import annotations

import re
from pathlib import Path

_RULE = re.compile(r"^(\d+(?:\.\d+)*)\.(?:\s+\S|[A-Z])")
_DEEP = re.compile(r"^\d+\.\d+\.\d+\.\s")
_CHAPTER = re.compile(r"^\d+\.\s+[A-Z]")
_DATE = re.compile(r"Effective (\w+ \d+, \d{4})")


def lines_of(path: Path) -> list[str]:
    """The text lines of a release (a ``.txt`` as it is, a ``.pdf`` through pypdf)."""
    if path.suffix == ".pdf":
        import pypdf

        pages = pypdf.PdfReader(str(path)).pages
        return [line for page in pages for line in (page.extract_text() or "").split("\n")]
    return path.read_text(encoding="utf-8").split("\n")


def rule_numbers(path: Path) -> list[str]:
    """Every rule number of the release at ``path``, once each, in the order printed."""
    stripped = [line.strip() for line in lines_of(path)]
    first = next(i for i, line in enumerate(stripped) if _DEEP.match(line))
    start = max(i for i in range(first) if _CHAPTER.match(stripped[i]))
    end = max(i for i, line in enumerate(stripped) if line.upper() == "GLOSSARY")
    found: dict[str, None] = {}
    for line in stripped[start:end]:
        match = _RULE.match(line)
        if match:
            found.setdefault(match[1], None)
    return list(found)


def stated_date(path: Path) -> str:
    """The ``Effective <Month> <D>, <YYYY>`` the release states, as printed."""
    for line in lines_of(path)[:60]:
        match = _DATE.search(line)
        if match:
            return match[1]
    raise AssertionError(f"{path}: no effective date")
