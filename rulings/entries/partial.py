"""Entries cut off where a file, or a page of it, ends: marked partial and warned.

An excerpt or a page may stop mid-word (``... if its condit``) or mid-sentence. The entry that
holds the last line (of the file, or of a page that a page-number gap ends) and whose text does
not end a sentence is `rulings.model.Entry.partial`, with a warning naming it, so that no one
reads the cut text as the whole ruling.
"""

from __future__ import annotations

import re

from rulings.model import Entry, ParseResult

_ENDED = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$|^$")
_LAST_WORD = re.compile(r"(\S+)$")
STRUCTURE = frozenset({"heading", "note", "card list", "table row"})
"""Entry kinds with no prose of their own to cut (a list or a table row ends with no period)."""


def mark_cut(result: ParseResult, last_lines: list[int] | None = None) -> None:
    """Mark partial the entry holding each of ``last_lines`` (the file's last non-blank line by default)
    whose text does not end a sentence, and warn."""
    ends = last_lines if last_lines is not None else result.nonblank[-1:]
    for line in ends:
        holding = [e for e in result.entries if line in e.lines and e.kind not in STRUCTURE]
        if not holding:
            continue
        entry = holding[-1]
        text = entry.text.rstrip()
        if entry.partial or _ENDED.search(text):
            continue
        entry.partial = True
        last = _LAST_WORD.search(text)
        tail = last.group(1) if last else ""
        where = "the file" if line == (result.nonblank[-1] if result.nonblank else line) else "its page"
        result.warnings.append(
            f"{result.document.path}:{line}: {entry.headword!r} is cut off where {where} ends (...{tail!r}); "
            "kept as a partial entry"
        )


def cut_entries(entries: list[Entry]) -> list[str]:
    """The headwords of the entries marked partial."""
    return [e.headword for e in entries if e.partial]
