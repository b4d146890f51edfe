"""What changed: between two dates (`diff`), in each document (`by_document`, the Atom feed's
entries: the topics it added, changed, rescinded or left pending), and how each version
ended (`ending`: when, by which document and lines, and why)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from kb.answers import Added, Changed, DiffAnswer, Ending, Pending, Rescinded
from kb.model import Version, status
from kb.read.documents import document_day
from kb.read.worddiff import word_diff
from kb.vocabulary import kind_filter, series_of_kind
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts

CHANGE_KINDS = ("added", "changed", "rescinded", "pending")
"""The kinds of change, in the order a reader sees them."""


def by_document(parts: Parts, limit: int = 200) -> dict[str, dict[str, Any]]:
    """Document id -> ``count`` per change kind and up to ``limit`` items of each (headword,
    topic, operation, the publisher's summary, and why it ended or what it waits for)."""
    documents = parts.reader.documents()
    found: dict[str, dict[str, Any]] = {
        ident: {"counts": dict.fromkeys(CHANGE_KINDS, 0), **{k: [] for k in CHANGE_KINDS}} for ident in documents
    }

    def record(document: str, kind: str, item: dict[str, Any]) -> None:
        changes = found[document]
        changes["counts"][kind] += 1
        if len(changes[kind]) < limit:
            changes[kind].append(item)

    events: list[tuple[int, str, str, dict[str, Any]]] = []
    """(version id, document, kind of change, item): what each version did, topic after topic."""
    for history in parts.reader.histories():
        for version in history:
            item = {"headword": version.headword, "topic": version.topic, "operation": version.operation,
                    "summary": version.summary, "label": parts.series_label(version.series)}  # fmt: skip
            issued = document_day(documents[version.document_id])
            if version.valid_from is None or version.valid_from > issued:
                waits = version.condition or f"in force from {version.valid_from}"
                events.append((version.id, version.document_id, "pending", {**item, "why": waits}))
            else:
                kind = "changed" if version.supersedes else "added"
                events.append((version.id, version.document_id, kind, {**item, "why": ""}))
            end = parts.ending(version, history)
            if end and end["reason"] != "superseded":
                events.append((version.id, end["document"], "rescinded",
                               {**item, "operation": end["reason"], "why": end["why"]}))  # fmt: skip
    events.sort(key=lambda e: e[0])  # stable: a version's own change before its ending
    for _, document, kind, item in events:
        record(document, kind, item)
    return found


def diff(
    parts: Parts, start: dt.date, end: dt.date, game: str | None = None, kinds: list[str] | None = None,
    cards: set[str] | None = None,
) -> DiffAnswer:  # fmt: skip
    """Topics added, changed, rescinded and pending between two dates; ``cards`` (catalog
    keys) limits it to versions naming one of those cards. A start after the end is a
    an unknown kind or game an `UnknownFilter` (a reversed range is refused before)."""
    wanted = {kind_filter(k) for k in kinds} if kinds else None
    game = parts.game_filter(game)

    def keep(version: Version) -> bool:
        kind = series_of_kind(version.series)
        named = cards is None or any(key in cards for key, _ in parts.reader.card_links(version))
        return (wanted is None or kind in wanted) and named

    answer: DiffAnswer = {"from": start.isoformat(), "to": end.isoformat(),
                              "added": [], "changed": [], "rescinded": [], "pending": []}  # fmt: skip
    documents = parts.reader.documents()
    touched = parts.reader.topics_changed(start, end)
    for topic in sorted(parts.reader.topics(), key=lambda t: headword_key(t["headword"])):
        ident = topic["id"]
        if game not in (None, topic["game"]) or ident not in touched:
            continue
        history = parts.reader.versions_of(ident)
        before = [v for v in history if status(v, start) == "active" and keep(v)]
        after = [v for v in history if status(v, end) == "active" and keep(v)]
        old, new = _joined(before), _joined(after)
        headword = topic["headword"]
        if not before and after:
            shown = [parts.part(v, end) for v in after]
            added: Added = {"topic": ident, "headword": headword, "text": new, "parts": shown}
            answer["added"].append(added)
        elif before and not after:
            ended_by = _endings(parts, ident, before, end)
            gone: Rescinded = {"topic": ident, "headword": headword, "text": old, "ended": [v.end for v in before],
                               "ended_by": ended_by}  # fmt: skip
            answer["rescinded"].append(gone)
        elif old != new or [v.note for v in before] != [v.note for v in after]:
            shown = [parts.part(v, end) for v in after]
            changed: Changed = {"topic": ident, "headword": headword, "diff": word_diff(old, new), "parts": shown}
            answer["changed"].append(changed)
        for version in history:
            document_date = document_day(documents[version.document_id])
            if keep(version) and status(version, end) == "pending" and start < document_date <= end:
                # the topic's headword keeps its place, the version's replaces it
                pending: Pending = {"topic": ident, "headword": headword, **parts.part(version, end)}
                answer["pending"].append(pending)
    return answer


def _endings(parts: Parts, topic: str, before: list[Version], on: dt.date) -> list[Ending | None]:
    """How the series of ``before`` came to have nothing in force by ``on``: the last ending of each."""
    series = {v.series for v in before}
    return [p["ended_by"] for p in parts.ended(topic, on) if p["series"] in series]


def _joined(versions: list[Version]) -> str:
    return "\n\n".join(v.text for v in versions if v.text)
