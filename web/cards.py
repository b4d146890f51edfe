"""Card pages and the deck view: everything that touches a card, or every card of a deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, current_app, g, request, url_for

from kb.answers import CardAnswer, CardPage, DeckAnswer, PairAnswer
from kb.errors import NotAPair, UnknownCard
from kb.paging import EVERYTHING, MAX_SIZE, PageFacts, Paging
from web.gate import costly, heavy
from web.views import as_of, error_page, int_arg, page, paging, route

bp = Blueprint("cards", __name__)

CARD_SIZE = 25
"""Entries (topics) on one page of a card unless ``?size=`` asks another: its rulings, the entries
naming it and their earlier versions come a page of topics at a time (``?offset=``)."""


@route(bp, "/card/<path:name>")
@heavy
def card_page(name: str, json_wanted: bool) -> Any:
    try:
        answer: CardAnswer = g.kb.card(name, as_of(), request.args.get("game") or None)
    except UnknownCard as err:
        found = [{"name": s, "url": url_for("cards.card_page", name=s)} for s in err.suggestions]
        found += [
            {"name": f"{name} ({other})", "url": url_for("cards.card_page", name=name, game=other)}
            for other in err.elsewhere
        ]
        return error_page(404, err.bare, found, search=name)
    return page("cards/card.html", card_page_of(answer, _card_paging()), json_wanted)


def _card_paging() -> Paging:
    if not current_app.config.get("PAGED", True):
        return EVERYTHING
    return Paging(int_arg("offset", 0, 0, 10**9), int_arg("size", CARD_SIZE, 1, MAX_SIZE))


def card_page_of(answer: CardAnswer, paging: Paging) -> CardPage:
    """The page of a card's answer that ``paging`` asks, counted in topics: the entries in force
    naming the card (those it heads first), then the topics only in its history; the rulings,
    entries and history of the page's topics, and the page's facts (``page``)."""
    topics = list(dict.fromkeys([e["topic"] for e in answer["entries"]] + [h["topic"] for h in answer["history"]]))
    start = min(paging.offset, len(topics))
    end = len(topics) if paging.size is None else min(len(topics), start + paging.size)
    shown = set(topics[start:end])
    facts: PageFacts = {
        "offset": start,
        "size": end - start,
        "total": len(topics),
        "next": end if end < len(topics) else None,
    }
    return {
        **answer,
        "headed": [e for e in answer["headed"] if e["topic"] in shown],
        "entries": [e for e in answer["entries"] if e["topic"] in shown],
        "rulings": [r for r in answer["rulings"] if r["topic"] in shown],
        "history": [h for h in answer["history"] if h["topic"] in shown],
        "page": facts,
    }


@route(bp, "/deck")
@costly
def deck_page(json_wanted: bool) -> Any:
    text = request.args.get("list", "")[:20_000]
    answer: DeckAnswer | Mapping[str, Any] = {"cards": [], "unknown": [], "total": 0}
    if text.strip():
        answer = g.kb.deck(text, as_of(), request.args.get("game") or None, paging())
    return page("cards/deck.html", {**answer, "list": text}, json_wanted)


@route(bp, "/cards")
@heavy
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
            return error_page(404, err.bare, found, search=err.name)
        except NotAPair as err:
            abort(400, str(err))
    typed = [n.strip() for n in names if n.strip()] + ["", ""]
    return page("cards/pair.html", {**answer, "names": typed[:2]}, json_wanted)
