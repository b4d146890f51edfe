"""What changed: the diff between two dates, the knowledge base as of a date, the Atom feed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, abort, g, make_response, render_template, request

from kb.cardquery import deck_keys
from kb.query import BadDate, parse_date
from web.views import date_arg, page, route, wants_json

bp = Blueprint("changes", __name__)


@route(bp, "/diff")
def diff(json_wanted: bool) -> Any:
    dates = sorted(d["date"] for d in g.kb.documents.values() if d["date"])
    start = date_arg("from") or dt.date.fromisoformat(dates[0]) - dt.timedelta(days=1)
    end = date_arg("to") or dt.date.today()
    kinds = [k for k in request.args.getlist("kind") if k] or None
    game = request.args.get("game") or None
    deck_text = request.args.get("deck", "")[:20_000]
    cards = deck_keys(g.kb, deck_text, game) if deck_text.strip() else None
    answer = g.kb.diff(start, end, game, kinds, cards)
    dates_known = sorted(set(dates))
    return page("changes/diff.html", {**answer, "dates": dates_known, "deck": deck_text, "kinds": kinds or []},
                json_wanted)  # fmt: skip


@bp.route("/asof/<when>")
def as_of_page(when: str) -> Any:
    when, json_wanted = wants_json(when)
    try:
        on = parse_date(when)
    except BadDate as err:
        abort(400, str(err))
    answer = g.kb.as_of(on, request.args.get("game") or None)
    return page("changes/asof.html", answer, json_wanted)


@bp.route("/changes.atom")
def feed() -> Any:
    documents = sorted(g.kb.documents.values(), key=lambda d: d["date"] or "", reverse=True)
    items = []
    for document in documents:
        versions = [v for v in g.kb.versions if v.document_id == document["id"]]
        items.append({"document": document, "versions": versions[:200], "count": len(versions)})
    response = make_response(render_template("changes/feed.atom", items=items, root=request.url_root.rstrip("/")))
    response.headers["Content-Type"] = "application/atom+xml; charset=utf-8"
    return response
