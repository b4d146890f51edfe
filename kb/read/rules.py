"""Numbered rules (a game's Comprehensive Rules): a rule's subrules and the rules it cites, as of a date.

A rule's subrules are the numbered topics of its game whose number it begins, one level down:
under ``702.19`` stand ``702.19a``...``702.19e``, under ``702`` the rules ``702.1``, ``702.2``...,
under a chapter ``7`` its sections ``700``...``799``, and under Lorcana's ``6.1.`` its ``6.1.1.``.
A number stands under the longest number of the same game it begins at a boundary (a period, a
letter after a digit, or one all-digit number beginning another: a chapter's section), so the
tree is read from the numbers themselves, whatever their format, and a number whose parent is
missing hangs from the nearest one present. Each is listed in number order (`listing_order`: a
diff lists rules so too) and only when in force on the date. `tree` gives a rule as printed:
each subrule with its text and its own subrules, down to `MAX_TREE` rules (a section or a
chapter deeper than that lists its rules one level down). The rules a text cites (``See rule
702.19b``: its references) are resolved to topics of the same game, shown as of the same date.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from kb.answers import RuleNode, TopicRef
from kb.numbering import bare, number_order, numbered, under
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts

MAX_TREE = 400
"""How many rules a rule's tree holds at most below it; past that, only the rules directly under it."""


def listing_order(headword: str) -> tuple[int, tuple[tuple[int, str], ...], str]:
    """How a list of topics is ordered: rule numbers first in number order, then by headword key."""
    if numbered(headword):
        return 0, number_order(headword), ""
    return 1, (), headword_key(headword)


def _below(parts: Parts, topic: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The row of the numbered rule ``topic`` and every numbered topic of its game below it (any depth)."""
    row = parts.reader.topic(topic)
    number = bare(str(row["headword"])) if row else None
    if row is None or number is None:
        return None, []
    sql = "SELECT id, headword FROM topics WHERE game = ? AND headword > ? AND headword < ?"
    rows = parts.reader.records(sql, row["game"], number, number + "\uffff")
    return row, [r for r in rows if (b := bare(r["headword"])) is not None and under(b, number)]


def _parents(number: str, rows: list[dict[str, Any]]) -> dict[str, str]:
    """Each row's id -> the id of the row it stands directly under ("": directly under ``number``)."""
    by_number = {bare(r["headword"]) or "": r["id"] for r in rows}
    found: dict[str, str] = {}
    for r in rows:
        mine = bare(r["headword"]) or ""
        found[r["id"]] = next(
            (by_number[mine[:i]] for i in range(len(mine) - 1, len(number), -1)
             if mine[:i] in by_number and under(mine, mine[:i])),
            "",
        )  # fmt: skip
    return found


def subrules(parts: Parts, topic: str, on: dt.date) -> list[TopicRef]:
    """The rules directly under the numbered rule ``topic`` that are in force on ``on``, in number order."""
    return [{"topic": n["topic"], "headword": n["number"]} for n in _nodes(parts, topic, on, deep=False)]


def tree(parts: Parts, topic: str, on: dt.date) -> list[RuleNode]:
    """The rules under the numbered rule ``topic`` in force on ``on``, as printed: each with its
    text, the rules and terms its text cites (``links``) and its own subrules, in number order."""
    return _nodes(parts, topic, on, deep=True)  # deep: with their text, links and subrules


def _nodes(parts: Parts, topic: str, on: dt.date, deep: bool) -> list[RuleNode]:
    row, rows = _below(parts, topic)
    if row is None:
        return []
    number = bare(row["headword"]) or ""
    if not deep or len(rows) > MAX_TREE:  # one level down: its rules (each read only if directly under)
        parent = _parents(number, rows)
        rows = [r for r in rows if not parent[r["id"]]]
    live = [r for r in rows if parts.in_force(r["id"], on)]
    parent = _parents(number, live)
    live.sort(key=lambda r: number_order(r["headword"]))
    nodes: dict[str, RuleNode] = {
        r["id"]: {"number": r["headword"], "topic": r["id"], "text": "", "links": [], "children": []} for r in live
    }
    top: list[RuleNode] = []
    for r in live:
        node = nodes[r["id"]]
        if deep:
            node["text"] = "\n\n".join(v.text for v in parts.in_force(r["id"], on) if v.text)
            node["links"] = cited(parts, r["id"], on)
        holder = nodes.get(parent[r["id"]])
        (holder["children"] if holder else top).append(node)
    return top


def cited(parts: Parts, topic: str, on: dt.date) -> list[TopicRef]:
    """The topics the texts of ``topic`` in force on ``on`` refer to, in order, once each, each
    with the words its text names it by (those the knowledge base holds: a reference to no topic
    is left out)."""
    row = parts.reader.topic(topic)
    if row is None:
        return []
    found: list[TopicRef] = []
    for version in parts.in_force(topic, on):
        for target in version.references:
            ident = resolved(parts, target, row["game"])
            if ident is not None and all(f["topic"] != ident for f in found):
                found.append({"topic": ident, "headword": target})
    return found


def resolved(parts: Parts, target: str, game: str) -> str | None:
    """The topic of ``game`` a reference (``702.19``, ``Trample``) names, or None."""
    matches = [t for t in parts.reader.topics_keyed(headword_key(target)) if t["game"] == game]
    return str(sorted(matches, key=lambda t: len(t["id"]))[0]["id"]) if matches else None
