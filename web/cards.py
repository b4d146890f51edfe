"""Card pages and the deck view: everything that touches a card, or every card of a deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, g, request, url_for

from kb.answers import CardAnswer, DeckAnswer, PairAnswer
from kb.errors import NotAPair, UnknownCard
from web.gate import costly
from web.views import as_of, error_page, page, paging, route

bp = Blueprint("cards", __name__)


@route(bp, "/card/<path:name>")
def card_page(name: str, json_wanted: bool) -> Any:
    try:
        answer: CardAnswer = g.kb.card(name, as_of(), request.args.get("game") or None)
    except UnknownCard as err:
        found = [{"name": s, "url": url_for("cards.card_page", name=s)} for s in err.suggestions]
        return error_page(404, err.bare, found)
    return page("cards/card.html", answer, json_wanted)


@route(bp, "/deck")
@costly
def deck_page(json_wanted: bool) -> Any:
    text = request.args.get("list", "")[:20_000]
    answer: DeckAnswer | Mapping[str, Any] = {"cards": [], "unknown": [], "total": 0}
    if text.strip():
        answer = g.kb.deck(text, as_of(), request.args.get("game") or None, paging())
    return page("cards/deck.html", {**answer, "list": text}, json_wanted)


@route(bp, "/cards")
def pair_page(json_wanted: bool) -> Any:
    """Two cards together: ``?names=A,B`` (or ``names`` twice), the rulings bearing on both."""
    names = [n for value in request.args.getlist("names") for n in value.split(",")][:10]
    answer: PairAnswer | Mapping[str, Any] = {"cards": [], "entries": []}
    if any(n.strip() for n in names):
        try:
            answer = g.kb.together(names, as_of(), request.args.get("game") or None)
        except UnknownCard as err:  # each suggestion asks again with the name put right
            fixed = [[s if n.strip() == err.name else n.strip() for n in names if n.strip()] for s in err.suggestions]
            found = [
                {"name": s, "url": url_for("cards.pair_page", names=",".join(f))}
                for s, f in zip(err.suggestions, fixed, strict=True)
            ]
            return error_page(404, err.bare, found)
        except NotAPair as err:
            abort(400, str(err))
    typed = [n.strip() for n in names if n.strip()] + ["", ""]
    return page("cards/pair.html", {**answer, "names": typed[:2]}, json_wanted)
