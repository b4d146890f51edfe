"""Card pages and the deck view: everything that touches a card, or every card of a deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, g, request, url_for

from kb.answers import CardAnswer, DeckAnswer
from kb.errors import UnknownCard
from web.gate import costly
from web.views import as_of, error_page, page, paging, route

bp = Blueprint("cards", __name__)


@route(bp, "/card/<path:name>")
def card_page(name: str, json_wanted: bool) -> Any:
    try:
        answer: CardAnswer = g.kb.card(name, as_of(), request.args.get("game") or None)
    except UnknownCard as err:
        found = [{"name": s, "url": url_for("cards.card_page", name=s)} for s in err.suggestions]
        return error_page(404, str(err), found)
    return page("cards/card.html", answer, json_wanted)


@route(bp, "/deck")
@costly
def deck_page(json_wanted: bool) -> Any:
    text = request.args.get("list", "")[:20_000]
    answer: DeckAnswer | Mapping[str, Any] = {"cards": [], "unknown": [], "total": 0}
    if text.strip():
        answer = g.kb.deck(text, as_of(), request.args.get("game") or None, paging())
    return page("cards/deck.html", {**answer, "list": text}, json_wanted)
