"""How a citation names the lines it cites, worded once for the pages and the command line:
``line 84`` for one line, ``lines 84-86`` (or ``lines 3, 7``) for more."""

from __future__ import annotations


def lines_cited(lines: str) -> str:
    """``line 84`` or ``lines 84-86``."""
    return f"{'lines' if '-' in lines or ',' in lines else 'line'} {lines}"
