"""A version's permalink page: the version found by its stable key (``topic@document@series``)
or a build's number, as an answer part, beside its series' text in force on the date asked."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from kb.answers import Part, VersionPage
from kb.model import Version, status
from kb.read.parts import Parts

_NUMBER = re.compile(r"[0-9]{1,18}")


def version_page(parts: Parts, key: str, on: dt.date) -> VersionPage | None:
    """The version ``key`` names (a stable key, or a build's number) on ``on``; None if none."""
    reader = parts.reader
    number = int(key) if _NUMBER.fullmatch(key) else None
    found = reader.version_at(key) or (reader.version(number) if number is not None else None)
    if found is None:
        return None
    return {**parts.part(found, on), "topic": found.topic, "as_of": on.isoformat(), "now": _now(parts, found, on)}


def _now(parts: Parts, found: Version, on: dt.date) -> dict[str, Any] | None:
    """For a version no longer in force on ``on``: its series' text in force then (key, dates,
    citation), or, when nothing is, ``{"key": None}``; None while the version is in force."""
    if status(found, on) not in ("superseded", "rescinded"):
        return None
    for version in parts.in_force(found.topic, on):
        if version.series == found.series:
            part: Part = parts.part(version, on)
            return {
                "key": part["key"],
                "valid_from": part["valid_from"],
                "label": part["label"],
                "citation": part["citation"],
            }
    return {"key": None}
