"""The search page (``/``): results as you type, autocomplete, filters, "did you mean", pages of
results (``?page=2``, 20 a page, 200 results at most). Each hit shows its sentence that matches
best, cut short, the words its snippet marks marked there (`lead`), its whole text one tap away:
three hits fit a phone's first screen."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, g, request, url_for
from markupsafe import Markup

from kb.answers import SearchAnswer
from kb.asking import EXAMPLES, KINDS, LIMIT, MAX_LIMIT, pages
from kb.vocabulary import kind_filter
from web.gate import searching
from web.leads import lead_of
from web.views import as_of, chosen_game, int_arg, keep_game, page, rich_text, route

bp = Blueprint("search", __name__)
ELSEWHERE = 5
"""Hits of other games shown below the divider of a search within one game."""


@bp.app_template_filter("lead")
def lead(hit: Mapping[str, Any]) -> Mapping[str, Any]:
    """What a hit shows first, so that three fit a phone's first screen: its sentence holding the
    most of the words its snippet marks (the first sentence when none does), cut at clause
    boundaries, never inside a card's title (`web.leads.cut`), those words marked; whether that
    is its whole text, and how many paragraphs its text has (``{"html": Markup, "whole": bool, "paragraphs": int}``)."""
    first = lead_of(hit)
    shown = str(rich_text(first.text))
    if first.found:  # mark the words in the text of the HTML, never inside a tag
        found = first.found
        shown = re.sub(r"(?<=>)([^<]+)", lambda t: found.sub(r"<mark>\1</mark>", t.group(1)), shown)
    return {"html": Markup(shown), "whole": first.whole, "paragraphs": first.paragraphs}


@route(bp, "/")
@searching
def index(json_wanted: bool) -> Any:
    text = request.args.get("q", "")[:500]
    game = g.kb.game_filter(chosen_game())
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
        "unmatched_note": None,
        "also_searched": {},
        "by_meaning": False,
        "weak": False,
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
    dated = [] if text.strip() else g.kb.dated_documents(game or g.kb.default_game())
    other_games = len(games) > 1  # a library of one game has no other games' hits to look for
    elsewhere = _elsewhere(text, on, game, kind) if text.strip() and game and number == 1 and other_games else []
    response = page(
        "search/index.html",
        {
            **answer,
            "game": game,
            "default_game": g.kb.default_game(),
            "elsewhere": elsewhere,
            "kind": kind,
            "games": games,
            "kinds": KINDS,
            "page": number,
            "examples": EXAMPLES,
            "current": dated[-1] if dated else None,
        },
        json_wanted,
    )
    return keep_game(response, game)


def _elsewhere(text: str, on: Any, game: str, kind: str | None) -> list[dict[str, Any]]:
    """The best hits of other games than ``game`` for ``text``, shown below a divider (headword,
    game, label, topic), at most `ELSEWHERE`."""
    found = g.kb.search(text, on, None, kind, limit=ELSEWHERE * 4)["results"]
    other = [r for r in found if r["game"] != game][:ELSEWHERE]
    return [{"topic": r["topic"], "headword": r["headword"], "game": r["game"], "label": r["label"]} for r in other]


@bp.route("/complete.json")
@searching
def completions() -> Any:
    items = g.kb.complete(request.args.get("q", "")[:100])
    for item in items:
        if item["kind"] == "entry":
            item["url"] = url_for("entries.entry", topic=item["target"])
        else:
            item["url"] = url_for("cards.card_page", name=item["target"])
    return {"query": request.args.get("q", ""), "completions": items}
