"""Entry pages: the text in force per series, the timeline, a diff between any two versions, and
the sources of each sentence (``/sources/<topic>``)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from flask import Blueprint, abort, g, request, url_for
from markupsafe import Markup, escape

from kb.answers import BlameAnswer, Comparison, HistoryAnswer, HistoryVersion, ShowAnswer, TopicRef, VersionPage
from kb.errors import UnknownTopic
from web.gate import heavy
from web.views import as_of, error_page, page, rich_text, route

bp = Blueprint("entries", __name__)
_TAG = re.compile(r"(<[^>]*>)")


@bp.app_template_filter("linked")
def linked(text: str, links: list[TopicRef], on: str | None = None) -> Markup:
    """Entry text as safe HTML (`web.views.rich_text`) with the words naming each topic it cites
    (``rule 510``, ``Trample``) linked to that topic's page as of ``on``."""
    rendered = str(rich_text(text))
    if not links:
        return Markup(rendered)
    target = {str(escape(link["headword"])).casefold(): link["topic"] for link in links}
    words = "|".join(re.escape(w) for w in sorted(target, key=len, reverse=True))
    named = re.compile(rf"(?<![\w.])({words})(?!\w|\.\w)", re.IGNORECASE)  # not 509 of 509.1a

    def link(found: re.Match[str]) -> str:
        href = url_for("entries.entry", topic=target[found[1].casefold()], as_of=on or None)
        return f'<a href="{escape(href)}">{found[1]}</a>'

    pieces = _TAG.split(rendered)
    inside = 0  # how deep within a link a piece stands: never a link in a link
    for n, piece in enumerate(pieces):
        if piece.startswith("<a "):
            inside += 1
        elif piece == "</a>":
            inside -= 1
        elif n % 2 == 0 and not inside:
            pieces[n] = named.sub(link, piece)
    return Markup("".join(pieces))


@route(bp, "/entry/<path:topic>")
@heavy
def entry(topic: str, json_wanted: bool) -> Any:
    try:
        shown: ShowAnswer = g.kb.show(topic, as_of())
    except UnknownTopic as err:
        found = [{"name": s, "url": url_for("search.index", q=s)} for s in err.suggestions]
        found += [{"name": f"{topic} ({o})", "url": url_for("search.index", q=topic, game=o)} for o in err.elsewhere]
        return error_page(404, err.bare, found, search=topic)
    history: HistoryAnswer = g.kb.history(shown["topic"], diffs=json_wanted)  # the page shows none
    on = dt.date.fromisoformat(shown["as_of"])
    data = {
        **shown,
        "versions": history["versions"],
        "compare": _compare(history["versions"]),
        "subrules": g.kb.subrules(shown["topic"], on),
        "cited": shown["cites"],
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


_URL = re.compile(r"https?://[^\s<>\"';]+[^\s<>\"';.,:!?)]")


@bp.app_template_filter("urls")
def urls(text: str) -> Markup:
    """A note as safe HTML, each ``http(s)://`` address in it a link (a VTES ruling's provenance names
    each reference's URL): the rest escaped, never raw HTML."""
    out, at = [], 0
    for found in _URL.finditer(text or ""):
        out += [str(escape(text[at : found.start()])), f'<a href="{escape(found[0])}">{escape(found[0])}</a>']
        at = found.end()
    out.append(str(escape((text or "")[at:])))
    return Markup("".join(out))
