"""How a version becomes a part of an answer, for every answer of the read side: its citation,
its series' name, why it ended, the cards it names, the games filter and the lookup of a topic
as typed. The answer modules (`kb.read.changes`, `kb.read.cards`, `kb.search.in_force`) take a
`Parts` as an argument; `kb.query.KnowledgeBase` makes one over its reader."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.answers import Citation, Ending, Part, Restated, TopicRef, iso
from kb.errors import UnknownFilter, UnknownTopic
from kb.kept import Kept, sized
from kb.model import Version, history_order, lines, placed, status
from kb.read import sources, standing
from kb.read.reader import Reader
from kb.vocabulary import close_matches
from rulings import kinds
from rulings.normalize import headword_key

DIFFS = 16 << 20
"""What the diffs' changes kept weigh at most, in bytes, within the process's pool of the pages'
caches (`kb.read.reader.PAGES`)."""


VERSION_BYTES = 1200
"""What a version held by a diff kept weighs beyond its text, in bytes (its fields, the change
holding it): weighing each by `kb.kept.size` took 0.4 s for a diff of 800 changes."""


def _diff_weight(kept: Any) -> int:
    """What a diff kept weighs: a page made, by its parts (`kb.kept.sized`); what a diff found, by
    its versions' texts and a fixed share for the rest (`VERSION_BYTES`)."""
    if isinstance(kept, tuple) and len(kept) == 4:  # found: (changes, counts, starts, typography)
        versions = [v for change in kept[0] for v in (*change.before, *change.after)]
        return sized(kept[1:]) + sum(VERSION_BYTES + 2 * len(v.text or "") for v in versions)
    return sized(kept)


class Parts:
    """Answer parts made from the rows of one reader."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self._games: list[str] | None = None
        self._labels: dict[str, str] | None = None
        self.diffs: Kept[Any] = Kept(DIFFS, _diff_weight, reader.pool, largest=DIFFS // 2)
        """What diffs found and made, by their dates and filters (`kb.read.changes.diff`): a diff
        asked again, or its next page, reads nothing again."""

    def find(self, query: str, game: str | None = None) -> str:
        """The topic id for a headword (or topic id) as a person types it."""
        game = self.game_filter(game)
        if self.reader.topic(query) is not None:
            return query
        key = headword_key(query)
        matches = [t for t in self.reader.topics_keyed(key) if game in (None, t["game"])]
        if matches:
            return str(sorted(matches, key=lambda t: (t["game"] != "stccg", len(t["id"])))[0]["id"])
        elsewhere = sorted({str(t["game"]) for t in self.reader.topics_keyed(key)})
        if elsewhere:  # the name is of another game: say which, not "did you mean" the very name
            raise UnknownTopic(query, [], elsewhere)
        topics = [t for t in self.reader.topics() if game in (None, t["game"])]
        headwords = {headword_key(t["headword"]): t["headword"] for t in topics}
        close = close_matches(key, headwords, n=5, cutoff=0.6)
        raise UnknownTopic(query, [headwords[c] for c in close])

    def games(self) -> list[str]:
        """The games this knowledge base has topics or cards of."""
        if self._games is None:  # read whole, then published
            sql = "SELECT game FROM topics UNION SELECT game FROM cards"
            self._games = sorted(r[0] for r in self.reader.rows(sql))
        return self._games

    def game_filter(self, value: str | None) -> str | None:
        """``value`` if it names a game of this knowledge base (None: any game); else an
        `UnknownFilter` listing the games."""
        if value is None or value in self.games():
            return value
        raise UnknownFilter(f"unknown game {value[:40]!r}; the games are {', '.join(self.games())}")

    def citation(self, version: Version) -> Citation:
        """Where a version's text comes from."""
        document = self.reader.documents()[version.document_id]
        return {
            "document": document["id"],
            "title": document["title"],
            "version": document["version"],
            "date": document["date"],
            "lines": lines(version.line_start, version.line_end),
            "sources": sources.cited(self.reader, version),
        }

    def restatement(self, version: Version, on: dt.date) -> list[str] | None:
        """The latest release dated on or before ``on`` that restated ``version``'s text
        (`Version.restated`: ``[document id, lines, text]``, the text empty when the same), or None."""
        documents = self.reader.documents()
        found = None
        for restated in version.restated:
            date = documents[restated[0]]["date"]
            if date is not None and dt.date.fromisoformat(date) <= on:
                found = restated
        return found

    def restated(self, version: Version, on: dt.date) -> Restated | None:
        """The latest release on or before ``on`` that restated ``version``'s text with the same
        words, as a citation names it (None: none did, its own document is the one to cite)."""
        found = self.restatement(version, on)
        if found is None:
            return None
        return {**sources.source(self.reader, found[:2]), "typography": bool(found[2])}

    def printed(self, version: Version, on: dt.date) -> str:
        """``version``'s text as the latest release on or before ``on`` prints it (its typography
        may differ from the text's first printing: `kb.typography`)."""
        found = self.restatement(version, on)
        return found[2] if found and found[2] else version.text

    def series_label(self, series: str) -> str:
        """A reader's name for a series."""
        if series.startswith("rulebook:"):
            return f"Rulebook: {self.reader.documents()[series.split(':', 1)[1]]['title']}"
        if self._labels is None:  # the kinds' labels walk the kinds package: read once, then published
            self._labels = kinds.labels()
        return self._labels.get(series, series)

    def part(self, version: Version, on: dt.date, cards: list[str] | None = None) -> Part:
        """One version as an answer part: text, status, operation, dates, note, citation, cards
        (``cards``, when its card names were read already: `parts`), and what `kb.read.standing`
        tells of it (its number in its series, whether it is partial)."""
        number, of, partial, sections = standing.facts(self.reader, version)
        return {
            "version": version.id,
            "key": version.key,
            "topic": version.topic,
            "game": version.topic.split(":")[0],
            "series": version.series,
            "label": self.series_label(version.series),
            "headword": version.headword,
            "text": self.printed(version, on),
            "status": status(version, on),
            "authority": version.authority,
            "operation": version.operation,
            "valid_from": iso(version.valid_from),
            "valid_to": iso(version.valid_to),
            "ended": version.end,
            "note": version.note,
            "condition": version.condition,
            "references": version.references,
            "summary": version.summary,
            "citation": self.citation(version),
            "restated": self.restated(version, on),
            "ended_by": self.ending(version),
            "cards": self.cards_of([version]) if cards is None else cards,
            "number": number,
            "of": of,
            "partial": partial,
            "sections": sections,
            "gives_way": None,
            "governs": None,
            "paragraphs": sources.paragraphs(self.reader, version),
        }

    def parts(self, versions: list[Version], on: dt.date) -> list[Part]:
        """`part` of each of ``versions``, their cards read in one query."""
        cards = self.reader.card_names_each(versions)
        return [self.part(version, on, cards[version.id]) for version in versions]

    def cards_of(self, versions: list[Version]) -> list[str]:
        """The names of the cards ``versions`` mention or are headed by, in first-mention order."""
        return self.reader.card_names(versions)

    def in_force(self, topic: str, on: dt.date) -> list[Version]:
        """The versions of ``topic`` in force on ``on``, one per series."""
        return [v for v in self.reader.versions_of(topic) if status(v, on) == "active"]

    def backrefs(self, topic: str) -> list[TopicRef]:
        """Topics whose text in force refers to ``topic`` ("See X")."""
        row = self.reader.topic(topic) or {}
        found = self.reader.referring(row["game"], headword_key(row["headword"]))
        return [{"topic": t, "headword": (self.reader.topic(t) or {})["headword"]} for t in found]

    def ending(self, version: Version) -> Ending | None:
        """When, by which document (cited) and why a version stopped being in force; None while it is."""
        if version.valid_to is None or version.end is None:
            return None
        by = version.ended_by or {"document": version.document_id, "lines": ""}
        document = self.reader.documents()[by["document"]]
        place = placed(version)
        after = place.successor
        superseded = f"superseded by version {place.successor_number}" if after else "superseded"
        return {
            "date": version.valid_to.isoformat(),
            "reason": version.end,
            "why": self.why_ended(version, superseded),
            "document": document["id"],
            "title": document["title"],
            "version": document["version"],
            "lines": by["lines"],
            "successor": after,
        }

    def why_ended(self, version: Version, superseded: str = "superseded") -> str:
        """Why an ended version stopped being in force, in words (``superseded``: what to say of a
        superseded one, which names its successor); reads nothing of its topic's history."""
        by = version.ended_by or {"document": version.document_id, "lines": ""}
        document = self.reader.documents()[by["document"]]
        name = f"{document['title']} ({document['version']})"
        return {
            "superseded": superseded,
            "rescinded": f"omitted from the full {document['title']} of {document['date']}",
            "consolidated": f"consolidated into {document['title']} {document['version']}",
            "cancelled": f"cancelled upon release of {by['release']}" if by.get("release") else f"cancelled by {name}",
        }.get(version.end or "", version.end or "")

    def ended(self, topic: str, on: dt.date) -> list[Part]:
        """For each series of ``topic`` with nothing in force on ``on``, its last version that had
        ended by then (rescinded, cancelled or consolidated: it says when, by what and why)."""
        last: dict[str, Version] = {}
        history = self.reader.versions_of(topic)
        for version in sorted(history, key=history_order):
            if version.valid_to is not None and version.valid_to <= on:
                last[version.series] = version
        live = {v.series for v in history if status(v, on) in ("active", "pending")}
        return [self.part(v, on) for series, v in last.items() if series not in live]
