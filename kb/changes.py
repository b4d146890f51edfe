"""What changed: between two dates (`diff`), in each document (`by_document`, the Atom feed's
entries: the topics it added, changed, rescinded or left pending), and how each version
ended (`ending`: when, by which document and lines, and why)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.answers import Added, Changed, DiffAnswer, Ending, Part, Pending, Rescinded
from kb.documents import document_day
from kb.paging import FIRST, Paging, page_of
from kb.versions import Version, history_order, status
from kb.vocabulary import kind_filter, series_of_kind
from kb.worddiff import word_diff
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

CHANGE_KINDS = ("added", "changed", "rescinded", "pending")
"""The kinds of change, in the order a reader sees them."""


def by_document(kb: KnowledgeBase, limit: int = 200, only: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Document id -> ``count`` per change kind and up to ``limit`` items of each (headword,
    topic, operation, the publisher's summary, and why it ended or what it waits for); for
    the documents ``only`` (default: all), the others not looked at."""
    documents = kb.documents()
    chosen = set(documents) if only is None else only & set(documents)
    found: dict[str, dict[str, Any]] = {
        ident: {"counts": dict.fromkeys(CHANGE_KINDS, 0), **{k: [] for k in CHANGE_KINDS}} for ident in chosen
    }

    def record(document: str, kind: str, item: dict[str, Any]) -> None:
        changes = found[document]
        changes["counts"][kind] += 1
        if len(changes[kind]) < limit:
            changes[kind].append(item)

    events: list[tuple[int, str, str, dict[str, Any]]] = []
    """(version id, document, kind of change, item): what each version did, topic after topic."""
    for history in kb.histories():
        for version in history:
            ends = version.valid_to is not None and version.end not in (None, "superseded")
            ended_in = (version.ended_by or {"document": version.document_id})["document"] if ends else None
            if version.document_id not in chosen and ended_in not in chosen:
                continue  # neither made nor ended by a document asked for
            item = {"headword": version.headword, "topic": version.topic, "operation": version.operation,
                    "summary": version.summary, "label": kb.series_label(version.series)}  # fmt: skip
            issued = document_day(documents[version.document_id])
            if version.valid_from is None or version.valid_from > issued:
                waits = version.condition or f"in force from {version.valid_from}"
                events.append((version.id, version.document_id, "pending", {**item, "why": waits}))
            else:
                kind = "changed" if version.supersedes else "added"
                events.append((version.id, version.document_id, kind, {**item, "why": ""}))
            end = ending(kb, version, history) if ends else None
            if end and end["reason"] != "superseded":
                events.append((version.id, end["document"], "rescinded",
                               {**item, "operation": end["reason"], "why": end["why"]}))  # fmt: skip
    events.sort(key=lambda e: e[0])  # stable: a version's own change before its ending
    for _, document, kind, item in events:
        if document in chosen:
            record(document, kind, item)
    return found


def diff(
    kb: KnowledgeBase, start: dt.date, end: dt.date, game: str | None = None, kinds: list[str] | None = None,
    cards: set[str] | None = None, paging: Paging = FIRST,
) -> DiffAnswer:  # fmt: skip
    """Topics added, changed, rescinded and pending between two dates; ``cards`` (catalog
    keys) limits it to versions naming one of those cards. An unknown kind or game is an
    `UnknownFilter` (a reversed range is refused before). Every change is found, but only
    those of the page ``paging`` asks are made (text, parts, word diff; `kb.paging`): the
    kinds in the order added, changed, rescinded, pending, each by headword; ``counts`` has
    each kind's number in all."""
    wanted = {kind_filter(k) for k in kinds} if kinds else None
    game = kb.game_filter(game)

    def keep(version: Version) -> bool:
        kind = series_of_kind(version.series)
        named = cards is None or any(key in cards for key, _ in kb.card_links(version))
        return (wanted is None or kind in wanted) and named

    found: dict[str, list[_Change]] = {kind: [] for kind in CHANGE_KINDS}
    documents = kb.documents()
    touched = kb.topics_changed(start, end)
    for topic in sorted(kb.topics(), key=lambda t: headword_key(t["headword"])):
        ident = topic["id"]
        if game not in (None, topic["game"]) or ident not in touched:
            continue
        history = kb.versions_of(ident)
        before = [v for v in history if status(v, start) == "active" and keep(v)]
        after = [v for v in history if status(v, end) == "active" and keep(v)]
        if not before and after:
            found["added"].append(_Change("added", topic, before, after))
        elif before and not after:
            found["rescinded"].append(_Change("rescinded", topic, before, after))
        elif _joined(before) != _joined(after) or [v.note for v in before] != [v.note for v in after]:
            found["changed"].append(_Change("changed", topic, before, after))
        for version in history:
            document_date = document_day(documents[version.document_id])
            if keep(version) and status(version, end) == "pending" and start < document_date <= end:
                found["pending"].append(_Change("pending", topic, [], [version]))
    every = [change for kind in CHANGE_KINDS for change in found[kind]]
    made, page = page_of(every, paging, lambda change: change.made(kb, end))
    answer: DiffAnswer = {"from": start.isoformat(), "to": end.isoformat(),
                          "added": [], "changed": [], "rescinded": [], "pending": [],
                          "counts": {kind: len(found[kind]) for kind in CHANGE_KINDS}, "page": page}  # fmt: skip
    for change, item in zip(every[page["offset"] :], made, strict=False):
        answer[change.kind].append(item)  # type: ignore[literal-required]
    return answer


@dataclass
class _Change:
    """A change found between two dates, made into its answer item only when its page is asked."""

    kind: str
    topic: dict[str, Any]
    before: list[Version]
    after: list[Version]

    def made(self, kb: KnowledgeBase, end: dt.date) -> Any:
        ident, headword = self.topic["id"], self.topic["headword"]
        if self.kind == "pending":  # the topic's headword keeps its place, the version's replaces it
            pending: Pending = {"topic": ident, "headword": headword, **kb.part(self.after[0], end)}
            return pending
        if self.kind == "added":
            parts = [kb.part(v, end) for v in self.after]
            added: Added = {"topic": ident, "headword": headword, "text": _joined(self.after), "parts": parts}
            return added
        if self.kind == "rescinded":
            gone: Rescinded = {"topic": ident, "headword": headword, "text": _joined(self.before),
                               "ended": [v.end for v in self.before],
                               "ended_by": _endings(kb, ident, self.before, end)}  # fmt: skip
            return gone
        parts = [kb.part(v, end) for v in self.after]
        diff = word_diff(_joined(self.before), _joined(self.after))
        changed: Changed = {"topic": ident, "headword": headword, "diff": diff, "parts": parts}
        return changed


def ending(kb: KnowledgeBase, version: Version, history: list[Version] | None = None) -> Ending | None:
    """When, by which document (cited) and why a version stopped being in force; None while it is.
    ``history``: the versions of its topic, when at hand."""
    if version.valid_to is None or version.end is None:
        return None
    by = version.ended_by or {"document": version.document_id, "lines": ""}
    document = kb.documents()[by["document"]]
    name = f"{document['title']} ({document['version']})"
    after = kb.successor(version, history)
    why = {
        "superseded": f"superseded by version {kb.number(after, history)}" if after else "superseded",
        "rescinded": f"omitted from the full {document['title']} of {document['date']}",
        "consolidated": f"consolidated into {document['title']} {document['version']}",
        "cancelled": f"cancelled upon release of {by['release']}" if by.get("release") else f"cancelled by {name}",
    }.get(version.end, version.end)
    return {"date": version.valid_to.isoformat(), "reason": version.end, "why": why, "document": document["id"],
            "title": document["title"], "version": document["version"], "lines": by["lines"],
            "successor": after.key if after else None}  # fmt: skip


def ended(kb: KnowledgeBase, topic: str, on: dt.date) -> list[Part]:
    """For each series of ``topic`` with nothing in force on ``on``, its last version that had
    ended by then (rescinded, cancelled or consolidated: it says when, by what and why)."""
    last: dict[str, Version] = {}
    history = kb.versions_of(topic)
    for version in sorted(history, key=history_order):
        if version.valid_to is not None and version.valid_to <= on:
            last[version.series] = version
    live = {v.series for v in history if status(v, on) in ("active", "pending")}
    return [kb.part(v, on) for series, v in last.items() if series not in live]


def _endings(kb: KnowledgeBase, topic: str, before: list[Version], on: dt.date) -> list[Ending | None]:
    """How the series of ``before`` came to have nothing in force by ``on``: the last ending of each."""
    series = {v.series for v in before}
    return [p["ended_by"] for p in ended(kb, topic, on) if p["series"] in series]


def _joined(versions: list[Version]) -> str:
    return "\n\n".join(v.text for v in versions if v.text)
