"""Names the knowledge base does not know: a topic or a card, each with the closest names.

The command line prints such an error with its suggestions (exit status 1), the pages answer
it with a 404 whose suggestions are links.
"""

from __future__ import annotations


class UnknownName(LookupError):
    """No `what` has that name; carries the closest names (``suggestions``)."""

    what = "name"

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no {self.what} {name!r}{hint}")
        self.suggestions = suggestions
        self.bare = f"no {self.what} {name!r}"
        """The message without its suggestions (a page shows them apart, as links)."""


class UnknownTopic(UnknownName):
    """No topic has that headword."""

    what = "entry"


class UnknownCard(UnknownName):
    """No card has that name."""

    what = "card"
