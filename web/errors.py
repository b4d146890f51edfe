"""The errors of the presentation side: an export that could not be written (`ExportError`),
a command line whose arguments could not be read (`BadArguments`, exit status 2) and an address
the server cannot listen on (`PortInUse`, raised by `web.cli.serving`)."""

from __future__ import annotations


class ExportError(Exception):
    """The export could not be written (one line, naming the folder or the page)."""


class BadArguments(ValueError):
    """The command line's arguments could not be read."""


class PortInUse(OSError):
    """The address to serve cannot be listened on; the message says which, and what to pass instead."""
