"""Numbered rules (Magic's Comprehensive Rules): a rule's subrules and the rules it cites, as of a date.

A chapter's subrules are its sections (``7``: ``700`` ... ``799``), a section's its rules
(``702``: ``702.1``, ``702.2``...), a rule's its lettered subrules (``702.9``: ``702.9a``...),
each in number order (`listing_order`: a diff lists rules so too) and only those in force on
the date. The rules a text cites (``See rule 702.19b``: its references) are resolved to topics
of the same game, shown as of the same date.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from kb.answers import TopicRef
from kb.errors import UnknownTopic
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts

_CHAPTER = re.compile(r"^\d$")
_SECTION = re.compile(r"^\d{3}$")
_RULE = re.compile(r"^\d{3}\.\d+$")
_PIECE = re.compile(r"\d+|[a-z]+")
_NUMBERED = re.compile(r"^\d+(?:\.\d+[a-z]*)?$")


def number_order(number: str) -> tuple[tuple[int, str], ...]:
    """How rule numbers sort: ``702.9b`` before ``702.10``."""
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in _PIECE.findall(number))


def listing_order(headword: str) -> tuple[int, tuple[tuple[int, str], ...], str]:
    """How a list of topics is ordered: rule numbers first in number order, then by headword key."""
    if _NUMBERED.match(headword):
        return 0, number_order(headword), ""
    return 1, (), headword_key(headword)


def _children(number: str) -> re.Pattern[str] | None:
    """The pattern of the numbers directly under ``number`` (None: it has none)."""
    if _CHAPTER.match(number):
        return re.compile(rf"^{number}\d\d$")
    if _SECTION.match(number):
        return re.compile(rf"^{number}\.\d+$")
    if _RULE.match(number):
        return re.compile(rf"^{re.escape(number)}[a-z]+$")
    return None


def subrules(parts: Parts, topic: str, on: dt.date) -> list[TopicRef]:
    """The rules directly under the numbered rule ``topic`` that are in force on ``on``, in number order."""
    row = parts.reader.topic(topic)
    pattern = _children(str(row["headword"])) if row else None
    if row is None or pattern is None:
        return []
    sql = "SELECT id, headword FROM topics WHERE game = ? AND id >= ? AND id < ?"  # ids begin with the topic's
    rows = parts.reader.records(sql, row["game"], topic, topic + "\uffff")
    under = [r for r in rows if pattern.match(r["headword"]) and parts.in_force(r["id"], on)]
    under.sort(key=lambda r: number_order(r["headword"]))
    return [{"topic": r["id"], "headword": r["headword"]} for r in under]


def cited(parts: Parts, topic: str, on: dt.date) -> list[TopicRef]:
    """The topics the texts of ``topic`` in force on ``on`` refer to, in order, once each (those the
    knowledge base holds: a reference to no topic is left out)."""
    row = parts.reader.topic(topic)
    if row is None:
        return []
    found: list[TopicRef] = []
    for version in parts.in_force(topic, on):
        for target in version.references:
            try:
                ident = parts.find(target, row["game"])
            except UnknownTopic:
                continue
            if all(f["topic"] != ident for f in found):
                found.append({"topic": ident, "headword": target})
    return found
