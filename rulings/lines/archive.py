"""The web archive's toolbar at the top of a captured page, read as text.

A Wayback Machine capture saved as text starts with its toolbar: ``Nov DEC Jul`` (the months
around the capture), ``Previous capture 03 Next capture``, ``1997 1998 2000`` (the years),
``3 captures``, ``3 Dec 1998 - 15 Jul 2001`` (the first and last capture), ``About this
capture``. Each of these lines alone could be ordinary text; together, at the top of a file
and with a line that names the captures, they are chrome.
"""

from __future__ import annotations

import re

TOP = 15
"""How many non-blank lines from the top the toolbar may span."""
_MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
_MARKER = re.compile(
    r"(?i:^(?:Previous capture\b.*|.*\bNext capture|\d[\d,]* captures?\b.*|About this capture|"
    r".*\bWayback Machine\b.*|.*web\.archive\.org.*)$)"
)
"""A line only the toolbar writes."""
_TOOLBAR = re.compile(
    "|".join(
        (
            rf"(?i:^(?:Go\s+)?{_MONTH}(?:\s+{_MONTH}){{2}}$)",  # the months around the capture
            r"^(?:\d{4}\s+){2}\d{4}$",  # the years around it
            rf"(?i:^\d\d? {_MONTH}\w* \d{{4}} - \d\d? {_MONTH}\w* \d{{4}}$)",  # first and last capture
            r"(?i:^(?:Go|Close|Help|COLLECTED BY|TIMESTAMPS|success|fail)$)",
        )
    )
)


def toolbar(lines: list[str]) -> list[int]:
    """The 0-based indexes of the toolbar lines at the top of ``lines`` (none without a marker)."""
    top = [i for i, t in enumerate(lines) if t.strip()][:TOP]
    if not any(_MARKER.match(lines[i].strip()) for i in top):
        return []
    return [i for i in top if _MARKER.match(lines[i].strip()) or _TOOLBAR.match(lines[i].strip())]
