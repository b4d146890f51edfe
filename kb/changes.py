"""What each document of the library changed: the topics it added, changed, rescinded (or
cancelled, or consolidated) and left pending — the Atom feed's entries."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

CHANGE_KINDS = ("added", "changed", "rescinded", "pending")
"""The kinds of change, in the order a reader sees them."""


def by_document(kb: KnowledgeBase, limit: int = 200) -> dict[str, dict[str, Any]]:
    """Document id -> ``count`` per change kind and up to ``limit`` items of each (headword,
    topic, operation, the publisher's summary, and why it ended or what it waits for)."""
    found: dict[str, dict[str, Any]] = {
        ident: {"counts": dict.fromkeys(CHANGE_KINDS, 0), **{k: [] for k in CHANGE_KINDS}} for ident in kb.documents
    }

    def record(document: str, kind: str, item: dict[str, Any]) -> None:
        changes = found[document]
        changes["counts"][kind] += 1
        if len(changes[kind]) < limit:
            changes[kind].append(item)

    for version in kb.versions:
        item = {"headword": version.headword, "topic": version.topic, "operation": version.operation,
                "summary": version.summary, "label": kb.series_label(version.series)}  # fmt: skip
        dated = kb.documents[version.document_id]["date"]
        issued = dt.date.fromisoformat(dated) if dated else dt.date.min
        if version.valid_from is None or version.valid_from > issued:
            waits = version.condition or f"in force from {version.valid_from}"
            record(version.document_id, "pending", {**item, "why": waits})
        else:
            record(version.document_id, "changed" if version.supersedes else "added", {**item, "why": ""})
        ending = kb.ending(version)
        if ending and ending["reason"] != "superseded":
            record(ending["document"], "rescinded", {**item, "operation": ending["reason"], "why": ending["why"]})
    return found
