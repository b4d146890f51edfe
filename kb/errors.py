"""Every error the knowledge base raises, for both sides: no knowledge base to answer from
(`BuildError`; `Damaged` when a file of it cannot be read), names it does not know, each with
the closest names (`UnknownTopic`, `UnknownCard`), a filter value that names nothing
(`UnknownFilter`), a diff asked backwards (`ReversedRange`), two cards that are not a pair
(`NotAPair`), a Whoosh the engine cannot read with (`EngineMismatch`); and those the build
and the engine raise and catch themselves: a lock held too long (`Busy`), an amendment naming a
part its entry lacks (`MissingPart`), a query shape the bulk evaluation leaves to Whoosh's
matchers (`Unsupported`). The parsers' errors are in `rulings.errors`, the presentation's in
`web.errors`. (An unknown name of a deck list, an answer and no error, is `kb.answers.UnknownDeckName`.)

The command line prints such an error in one line (exit status 1; an unknown name with its
suggestions), the pages answer with a 404 (suggestions as links), a 400 or a 503.
"""

from __future__ import annotations

from rulings.errors import BadDate


class BuildError(Exception):
    """No knowledge base to answer from: none built yet, one that could not be built (the previous
    knowledge base is untouched), or one made by an older version of rulings."""


class Damaged(BuildError):
    """A file of the knowledge base in service cannot be read (damaged, cut short): a rebuild makes it anew."""

    def __init__(self, path: object, error: BaseException | str) -> None:
        detail = (
            error
            if isinstance(error, str)
            else f"{type(error).__name__}: {error}"
            if str(error)
            else type(error).__name__
        )
        super().__init__(f"{path}: damaged, cannot be read ({str(detail).splitlines()[0][:200]}); run 'rulings build'")


class EngineMismatch(BuildError):
    """The installed Whoosh lacks a name the engine reads (`kb.engine.privates`): refused as the
    engine is imported, in one line naming the release, before any search runs."""


class FetchError(BuildError):
    """A download of ``rulings update`` that failed (`kb.ingest.fetching`): one line, ``URL: reason``."""


class UnknownFilter(ValueError):
    """A filter value (kind, game) that names nothing; the message lists the valid ones."""


class ReversedRange(BadDate):
    """A diff asked from a later date to an earlier one."""


class UnknownName(LookupError):
    """No `what` has that name; carries the closest names (``suggestions``)."""

    what = "name"
    otherwise = ""
    """What to pass instead, said when there are no suggestions."""

    def __init__(self, name: str, suggestions: list[str], elsewhere: list[str] | None = None) -> None:
        games = elsewhere or []
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else self.otherwise.format(name=name)
        where = f" in this game; it is {_an(self.what)} of {', '.join(games)} (--game {games[0]})" if games else ""
        super().__init__(f"no {self.what} {name!r}{where}{'' if games else hint}")
        self.suggestions = [] if games else suggestions
        self.elsewhere = games
        """The games that do have an entry of that name (none asked: it is not in the game asked)."""
        self.name = name
        self.bare = f"no {self.what} {name!r}{where}"
        """The message without its suggestions (a page shows them apart, as links)."""


def _an(what: str) -> str:
    return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"


class UnknownTopic(UnknownName):
    """No topic has that headword."""

    what = "entry"
    otherwise = '; rulings search "{name}" searches the texts for it'


class UnknownCard(UnknownName):
    """No card has that name."""

    what = "card"
    otherwise = '; no card is named like it: rulings search "{name}" searches the rulings for the name'


class UnknownDocument(UnknownName):
    """No document of the library has that id (`rulings docs` lists them)."""

    what = "document"
    otherwise = " ('rulings docs' lists the documents and their ids)"


class UnknownVersion(UnknownName):
    """No version has that key (``topic@document@series``, or a build's number)."""

    what = "version"
    otherwise = " (a version's key is TOPIC@DOCUMENT@SERIES, as 'rulings history TOPIC --json' gives it)"


class NotAPair(ValueError):
    """A question about two cards together naming other than two different cards."""


class Unsupported(Exception):
    """A query (or a segment) of a shape `evaluate` leaves to Whoosh's matchers."""


class Busy(Exception):
    """Another process held a lock for longer than we were willing to wait."""


class MissingPart(Exception):
    """The text has no such part (e.g. a third paragraph in a two-paragraph entry)."""


class DamagedCache(Exception):
    """A kept build cache (a sealed pickle, `kb.ingest.sealed`) that does not load; the message
    names the file and why. The build discards it and reads again, with one warning."""
