"""The search page (``/``): results as you type, autocomplete, filters, "did you mean", pages of
results (``?page=2``, 20 a page, 200 results at most)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, g, request, url_for

from kb.answers import SearchAnswer
from kb.asking import EXAMPLES, KINDS, LIMIT, MAX_LIMIT, pages
from kb.vocabulary import kind_filter
from web.views import as_of, int_arg, page, route

bp = Blueprint("search", __name__)
GAME_COOKIE = "game"
"""The cookie keeping the game a judge chose to search."""
GAME_KEPT = 365 * 24 * 3600
"""How long (seconds) the choice is kept."""


@route(bp, "/")
def index(json_wanted: bool) -> Any:
    text = request.args.get("q", "")[:500]
    game = g.kb.game_filter(_chosen_game())
    kind = kind_filter(request.args["kind"]) if request.args.get("kind") else None
    on = as_of()  # a bad date is a 400 with or without a query
    answer: SearchAnswer | Mapping[str, Any] = {
        "query": text,
        "results": [],
        "suggestion": None,
        "corrected": None,
        "meant": [],
        "start": 0,
        "more": False,
    }
    limit = int_arg("limit", LIMIT, 1, MAX_LIMIT)
    number = int_arg("page", 1, 1, pages(limit))
    if text.strip():
        answer = g.kb.search(
            text,
            on,
            game,
            kind,
            limit=limit,
            exact=request.args.get("exact") == "1",
            live=request.args.get("live") == "1",
            start=(number - 1) * limit,
        )
    games = g.kb.games()
    response = page(
        "search/index.html",
        {**answer, "game": game, "kind": kind, "games": games, "kinds": KINDS, "page": number, "examples": EXAMPLES},
        json_wanted,
    )
    if "game" in request.args:  # the judge's choice, remembered for the next searches
        response.set_cookie(GAME_COOKIE, game or "", max_age=GAME_KEPT, samesite="Lax", httponly=True)
    return response


def _chosen_game() -> str | None:
    """The game searched: ``?game=`` (empty: any), else the one chosen before (a cookie), if this
    knowledge base has it."""
    if "game" in request.args:
        return request.args["game"] or None
    remembered = request.cookies.get(GAME_COOKIE, "")
    return remembered if remembered in g.kb.games() else None


@bp.route("/complete.json")
def completions() -> Any:
    items = g.kb.complete(request.args.get("q", "")[:100])
    for item in items:
        if item["kind"] == "entry":
            item["url"] = url_for("entries.entry", topic=item["target"])
        else:
            item["url"] = url_for("cards.card_page", name=item["target"])
    return {"query": request.args.get("q", ""), "completions": items}
