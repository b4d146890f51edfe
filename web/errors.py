"""The errors of the presentation side: an export that could not be written (`ExportError`)
and a command line whose arguments could not be read (`BadArguments`, exit status 2)."""

from __future__ import annotations


class ExportError(Exception):
    """The export could not be written (one line, naming the folder or the page)."""


class BadArguments(ValueError):
    """The command line's arguments could not be read."""
