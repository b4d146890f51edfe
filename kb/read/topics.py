"""What a topic says: its text in force on a date (`show`), every version it has had, each with a
word diff against the one it superseded (`history`, followed back along the numbers its text
moved from), and the whole knowledge base in force on a date (`as_of`). Each takes the
`kb.read.parts.Parts` of a reader as an argument, as `kb.read.changes` does."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from kb.answers import AsOfAnswer, Entry, HistoryAnswer, HistoryVersion, ShowAnswer
from kb.errors import UnknownTopic
from kb.model import Version, history_order, status
from kb.paging import FIRST, Paging, page_of
from kb.read import rules, standing
from kb.read.worddiff import word_diff
from kb.vocabulary import moved_from
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts

MAX_MOVES = 50
"""How many moves a history follows back (a text that moved back and forth stops there)."""


def show(parts: Parts, query: str, as_of: dt.date | None = None, game: str | None = None) -> ShowAnswer:
    """Every series' text in force for a topic on a date, with citations."""
    on = as_of or dt.date.today()
    topic = parts.find(query, game)
    shown = standing.govern([parts.part(v, on) for v in parts.in_force(topic, on)], parts.reader)
    waiting = [parts.part(v, on) for v in parts.reader.versions_of(topic) if status(v, on) == "pending"]
    row = parts.reader.topic(topic) or {}
    dated = [d["date"] for d in parts.reader.documents().values() if d["date"] and d["game"] == row["game"]]
    starts = min(dated) if dated else None
    firsts = [v.valid_from for v in parts.reader.versions_of(topic) if v.valid_from is not None]
    return {
        "topic": topic,
        "headword": row["headword"],
        "game": row["game"],
        "as_of": on.isoformat(),
        "text": "\n\n".join(p["text"] for p in shown if p["text"]),
        "parts": shown,
        "ended": parts.ended(topic, on),
        "pending": waiting,
        "backrefs": parts.backrefs(topic),
        "cards": parts.cards_of(parts.in_force(topic, on)),
        "cites": rules.cited(parts, topic, on),
        "rules": rules.tree(parts, topic, on),
        "library_starts": starts if starts and on.isoformat() < starts else None,
        "first_in_force": min(firsts).isoformat() if firsts and on < min(firsts) else None,
    }


def history(parts: Parts, query: str, game: str | None = None, diffs: bool = True) -> HistoryAnswer:
    """All versions of a topic, oldest first, each with a word diff against the one it supersedes
    (``diffs``; without, an empty one: the entry page lists the versions and shows no word diff,
    and a topic of a hundred versions spent a quarter of a second of CPU making them)."""
    topic = parts.find(query, game)
    today = dt.date.today()
    followed = _followed(parts, topic)
    by_id = {v.id: v for v in followed}
    versions: list[HistoryVersion] = []
    for version in sorted(followed, key=history_order):
        previous = by_id.get(version.supersedes) if version.supersedes else None
        diff = word_diff(previous.text if previous else "", version.text) if diffs else []
        versions.append({**parts.part(version, today), "supersedes": version.supersedes, "diff": diff})
    return {"topic": topic, "headword": (parts.reader.topic(topic) or {})["headword"], "versions": versions}


def _followed(parts: Parts, topic: str, depth: int = 0) -> list[Version]:
    """The versions of ``topic``, after those of the number its text moved from
    (`kb.ingest.restatement`: "moved from 702.137"), back to where that text began."""
    own = parts.reader.versions_of(topic)
    dated = [v for v in own if v.valid_from is not None]
    first = min(dated, key=history_order) if dated else None
    origin = moved_from(first.note) if first else None
    if first is None or origin is None or depth >= MAX_MOVES:
        return own
    try:
        earlier = _followed(parts, parts.find(origin, topic.split(":")[0]), depth + 1)
    except UnknownTopic:
        return own
    start = first.valid_from or dt.date.max
    return [v for v in earlier if v.valid_from is not None and v.valid_from < start] + own


def as_of(parts: Parts, on: dt.date, game: str | None = None, paging: Paging = FIRST) -> AsOfAnswer:
    """The whole knowledge base in force on a date: the topics of the page ``paging`` asks
    (`kb.paging`), by headword."""
    game = parts.game_filter(game)
    in_force: dict[str, list[Version]] = {}
    for version in parts.reader.versions_in_force(on):
        in_force.setdefault(version.topic, []).append(version)
    listed = [
        t
        for t in sorted(parts.reader.topics(), key=lambda t: headword_key(t["headword"]))
        if in_force.get(t["id"]) and game in (None, t["game"])
    ]
    topics, page = page_of(listed, paging, lambda topic: entry(parts, topic, in_force[topic["id"]], on))
    return {"as_of": on.isoformat(), "topics": topics, "page": page}


def entry(parts: Parts, topic: dict[str, Any], versions: list[Version], on: dt.date) -> Entry:
    """A topic (its row) as an entry of `as_of`: its ``versions`` in force on ``on``, as parts."""
    return {"topic": topic["id"], "headword": topic["headword"], "parts": [parts.part(v, on) for v in versions]}
