"""The search page (``/``): results as you type, autocomplete, filters, "did you mean"."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, request

from kb.search import complete, search
from kb.versions import SERIES_KINDS
from web.views import as_of, int_arg, page, route

bp = Blueprint("search", __name__)


@route(bp, "/")
def index(json_wanted: bool) -> Any:
    text = request.args.get("q", "")[:500]
    game = request.args.get("game") or None
    kind = request.args.get("kind") or None
    if kind not in (None, *SERIES_KINDS):
        kind = None
    answer: dict[str, Any] = {"query": text, "results": [], "suggestion": None, "fuzzy": False}
    limit = int_arg("limit", 20, 1, 100)
    if text.strip():
        answer = search(g.kb, text, as_of(), game, kind, limit=limit)
    games = sorted({t["game"] for t in g.kb.topics.values()})
    return page("search/index.html", {**answer, "game": game, "kind": kind, "games": games, "kinds": SERIES_KINDS},
                json_wanted)  # fmt: skip


@bp.route("/complete.json")
def completions() -> Any:
    headwords = {t["headword"]: t["id"] for t in g.kb.topics.values()}
    items = []
    for name in complete(g.kb, request.args.get("q", "")[:100]):
        items.append({"name": name, "url": f"/entry/{headwords[name]}" if name in headwords else f"/card/{name}"})
    return {"query": request.args.get("q", ""), "completions": items}
