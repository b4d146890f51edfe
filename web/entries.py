"""Entry pages: the text in force per series, the timeline, a diff between any two versions, and
the sources of each sentence (``/sources/<topic>``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, abort, g, request, url_for

from kb.answers import BlameAnswer, Comparison, HistoryAnswer, HistoryVersion, ShowAnswer, VersionPage
from kb.errors import UnknownTopic
from web.gate import heavy
from web.views import as_of, error_page, page, route

bp = Blueprint("entries", __name__)


@route(bp, "/entry/<path:topic>")
@heavy
def entry(topic: str, json_wanted: bool) -> Any:
    try:
        shown: ShowAnswer = g.kb.show(topic, as_of())
    except UnknownTopic as err:
        found = [{"name": s, "url": url_for("search.index", q=s)} for s in err.suggestions]
        found += [{"name": f"{topic} ({o})", "url": url_for("search.index", q=topic, game=o)} for o in err.elsewhere]
        return error_page(404, err.bare, found, search=topic)
    history: HistoryAnswer = g.kb.history(shown["topic"])
    on = dt.date.fromisoformat(shown["as_of"])
    data = {
        **shown,
        "versions": history["versions"],
        "compare": _compare(history["versions"]),
        "subrules": g.kb.subrules(shown["topic"], on),
        "cited": g.kb.cited(shown["topic"], on),
    }
    return page("entries/entry.html", data, json_wanted)


@route(bp, "/sources/<path:topic>")
def sources(topic: str, json_wanted: bool) -> Any:
    """Each sentence of a topic's texts in force (``?as_of=``) beside the document that wrote it."""
    try:
        answer: BlameAnswer = g.kb.blame(topic, as_of())
    except UnknownTopic as err:
        found = [{"name": s, "url": url_for("search.index", q=s)} for s in err.suggestions]
        return error_page(404, err.bare, found)
    return page("entries/sources.html", answer, json_wanted)


def _compare(versions: list[HistoryVersion]) -> Comparison | None:
    """The word diff between the versions chosen with ``?a=`` and ``?b=`` (ids)."""
    ids = {str(v["version"]): v for v in versions}
    a, b = request.args.get("a"), request.args.get("b")
    if not a or not b:
        return None
    if a not in ids or b not in ids:
        abort(400, "choose two versions of this entry to compare")
    found: Comparison = g.kb.compared(ids[a], ids[b])
    return found


@route(bp, "/version/<path:key>")
def version(key: str, json_wanted: bool) -> Any:
    """A version's permalink: ``topic@document@series`` (stable across rebuilds), or a build's number."""
    found: VersionPage | None = g.kb.version_page(key, as_of() or dt.date.today())
    if found is None:
        abort(404, f"no version {key[:80]!r}")
    return page("entries/version.html", found, json_wanted)
