"""Every error the parsers raise: a document that cannot be read or parsed, naming its file and
line (`ParseError`), a date not written as one (`BadDate`), a manifest that cannot be used
(`ManifestError`). The command line prints each in one line (exit status 1, 2 for a date)."""

from __future__ import annotations


class ParseError(Exception):
    """A document that cannot be read or parsed; names the file and line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        """The file the problem is in."""
        self.line = line
        """The 1-based line the problem is on (1 when it concerns the whole file)."""
        self.message = message
        """What is wrong, in one line."""

    def __reduce__(self) -> tuple[type[ParseError], tuple[str, int, str]]:
        return ParseError, (
            self.path,
            self.line,
            self.message,
        )  # pickled whole, as a parse in another process raises it


class BadDate(ValueError):
    """A date that is not YYYY-MM-DD (or M/D/YY)."""


class ManifestError(Exception):
    """A manifest that cannot be used; the message is one line naming table and key."""
