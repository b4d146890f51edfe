"""The ledger a build writes versions into (`Ledger`): every topic and version made so far,
the version in force in each topic's series, the warnings, and the actions deferred until an
expansion's release date (`Ledger.when`, `Ledger.catch_up`); with the stable id of the topic an
entry belongs to (`topic_id`). How documents are applied into it is `kb.ingest.ledger`."""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Callable

from kb.model import Topic, Version, lines
from rulings.model import Entry
from rulings.normalize import headword_key


def topic_id(game: str, entry: Entry) -> str:
    """The stable id of the topic an entry belongs to (``stccg:conundrum``)."""
    slug = headword_key(entry.headword).replace(" ", "-")
    if entry.parent and entry.kind not in ("section", "preamble"):
        slug = f"{headword_key(entry.parent).replace(' ', '-')}.{slug}"
    return f"{game}:{slug}"


class Ledger:
    """Versions being built, with the version in force per (topic, series)."""

    def __init__(self, releases: dict[str, dt.date]) -> None:
        self.releases = {release_key(k): v for k, v in releases.items()}
        self.versions: list[Version] = []
        self.topics: dict[str, Topic] = {}
        self.in_force: dict[tuple[str, str], Version] = {}
        self.warnings: list[str] = []
        self._deferred: list[tuple[dt.date, int, Callable[[dt.date], None]]] = []
        self.latest_deferred: dt.date | None = None
        """The date of the latest deferred action run so far (a release after the documents)."""

    def new(self, entry: Entry, game: str, series: str, document_id: str, **fields: object) -> Version:
        """A version (not yet started) made from ``entry``."""
        ident = topic_id(game, entry)
        topic = self.topics.setdefault(ident, Topic(ident, game, entry.headword, entry.kind))
        topic.headword = entry.headword
        values: dict[str, object] = {"text": entry.text, "operation": "original", "references": list(entry.references)}
        values.update(fields)
        return Version(
            id=len(self.versions) + 1,
            topic=ident,
            series=series,
            headword=entry.headword,
            valid_from=None,
            document_id=document_id,
            line_start=entry.span.start,
            line_end=entry.span.end,
            summary=entry.summary,
            fields=dict(entry.fields),
            authority=entry.authority,
            **values,  # type: ignore[arg-type]
        )

    def start(self, version: Version, on: dt.date) -> None:
        """Put ``version`` in force from ``on``, superseding the one before (if changed)."""
        key = (version.topic, version.series)
        previous = self.in_force.get(key)
        if previous and (previous.text, previous.references, previous.note) == (
            version.text,
            version.references,
            version.note,
        ):
            return
        if previous:
            previous.valid_to, previous.end = on, "superseded"
            previous.ended_by = {"document": version.document_id, "lines": lines(version.line_start, version.line_end)}
            version.supersedes = previous.id
            if version.operation == "original":
                version.operation = "replace"
        version.valid_from = on
        self.versions.append(version)
        self.in_force[key] = version

    def pending(self, version: Version, condition: str) -> None:
        """Record a version waiting on a condition with no known date."""
        version.condition = condition
        previous = self.in_force.get((version.topic, version.series))
        version.supersedes = previous.id if previous else None
        self.versions.append(version)

    def stop(self, key: tuple[str, str], on: dt.date, reason: str, by: dict[str, str]) -> None:
        """End the version in force for ``key`` on ``on``, for ``reason``, by the document ``by`` names."""
        version = self.in_force.pop(key, None)
        if version:
            version.valid_to, version.end, version.ended_by = on, reason, by

    def when(self, release: str | None, on: dt.date, order: int, action: Callable[[dt.date], None]) -> str | None:
        """Run ``action`` on ``on``, or on the release date of ``release``; else return the condition."""
        if release is None:
            action(on)
            return None
        date = self.releases.get(release_key(release))
        if date is None:
            return f"upon release of {release}"
        if date <= on:
            action(on)
        else:
            heapq.heappush(self._deferred, (date, order, action))
        return None

    def catch_up(self, until: dt.date | None) -> None:
        """Run deferred actions dated on or before ``until`` (all when None)."""
        while self._deferred and (until is None or self._deferred[0][0] <= until):
            date, _, action = heapq.heappop(self._deferred)
            self.latest_deferred = max(date, self.latest_deferred or date)
            action(date)


def release_key(name: str) -> str:
    """An expansion's name as releases are looked up: "the Blaze of Glory expansion set" is "Blaze of Glory"."""
    key = headword_key(name).removesuffix(" expansion set").removesuffix(" expansion")
    return key[4:] if key.startswith("the ") else key
