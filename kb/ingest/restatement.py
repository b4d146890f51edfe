"""Apply a document that restates a whole series (a release of a game's Comprehensive Rules).

Each release holds every rule and Glossary term in force. A topic gets a new version only
where its text (or the references read from it) changed; a release restating a text unchanged,
or changed in its typography alone (`kb.typography`), is recorded on the version in force
(`Version.restated`: the release, its lines, and its text if its typography differs), which a
citation names as of a later date. One the release leaves out ends on
its date (``rescinded``). A text that stood at one number in the release before and stands,
new or changed, at another in this one (and at no other number in either) moved: the new
number's version says ``moved from <old>``, the old number's last version ``moved to <new>``
(`kb.vocabulary.MOVED_FROM`, `MOVED_TO`; `kb.vocabulary.moved_from` reads them back). A text
that differs only in the rule numbers it cites, renumbered with it (Lorcana's 2.0.0), moved too
when no text moved from or to those numbers as it stood (`cited_as_one`). Each release costs
time in proportion to its own entries and the versions in force, never to the history behind.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable
from typing import Protocol

from kb.model import Version, lines
from kb.typography import typography_only
from kb.vocabulary import MOVED_FROM, MOVED_TO
from rulings.model import Entry, ParseResult


class Ledger(Protocol):
    """What a restatement needs of `kb.ingest.versioning.Ledger` (`kb.ingest.ledger` imports this module)."""

    in_force: dict[tuple[str, str], Version]

    def new(self, entry: Entry, game: str, series: str, document_id: str, **fields: object) -> Version: ...

    def start(self, version: Version, on: dt.date) -> None: ...


def restate(
    ledger: Ledger,
    result: ParseResult,
    series: str,
    entries: list[Entry],
    omitted: Callable[[ParseResult, str, list[Entry]], None],
) -> int:
    """Put ``entries`` (the whole of ``series`` in ``result``) in force on the document's date, end
    what they leave out (``omitted``), and record moves; returns how many versions it made."""
    document = result.document
    game, on = document.game, document.date or dt.date.min
    prefix = f"{game}:"
    before = {key[0]: v for key, v in ledger.in_force.items() if key[1] == series and key[0].startswith(prefix)}
    made: list[Version] = []
    for entry in entries:
        version = ledger.new(entry, game, series, document.id)
        previous = ledger.in_force.get((version.topic, series))
        if previous and _same(previous, version):  # restated unchanged: not a new version, but cited
            same = previous.text == version.text
            previous.restated.append(
                [document.id, lines(version.line_start, version.line_end), "" if same else version.text]
            )
            continue
        ledger.start(version, on)
        made.append(version)
    omitted(result, series, entries)
    origins: set[str] = set()
    targets: set[str] = set()
    for shape in (_as_is, cited_as_one):  # the text as it was, then with the numbers it cites renumbered
        shapes_before = Counter(shape(v.text) for v in before.values())
        where = {shape(v.text): topic for topic, v in before.items() if shapes_before[shape(v.text)] == 1}
        shapes_now = Counter(shape(e.text) for e in entries)
        for version in made:
            origin = where.get(shape(version.text))
            if origin is None or origin == version.topic or shapes_now[shape(version.text)] != 1:
                continue
            old = before[origin]
            if ledger.in_force.get((origin, series)) is old or origin in origins or version.topic in targets:
                continue  # the text is still at its old number too, or a move from or to there is told
            origins.add(origin)
            targets.add(version.topic)
            version.note = _joined(version.note, f"{MOVED_FROM}{old.headword}")
            old.note = _joined(old.note, f"{MOVED_TO}{version.headword}")
            if old.ended_by is not None and old.end == "rescinded":
                old.ended_by = {"document": document.id, "lines": lines(version.line_start, version.line_end)}
    return len(made)


_CITED = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b")


def cited_as_one(text: str) -> str:
    """``text`` with every rule number it cites (``702.19b``, ``4.6.6.1``) alike: a rule renumbered
    with the rules it cites is the same text at its new number."""
    return _CITED.sub("#", text)


def _as_is(text: str) -> str:
    return text


def _same(previous: Version, version: Version) -> bool:
    """Whether ``version`` restates ``previous``: the same references, and the same text or one
    whose typography alone differs (`kb.typography`: quotes, dashes, spaces, line breaks)."""
    if previous.references != version.references:
        return False
    return previous.text == version.text or typography_only(previous.text, version.text)


def _joined(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more
