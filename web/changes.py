"""What changed: the diff between two dates, the knowledge base as of a date, the Atom feed."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request

from kb.answers import AsOfAnswer, DiffAnswer, DocumentFacts
from kb.errors import ReversedRange
from kb.vocabulary import CHANGE_KINDS, SERIES_KINDS, kind_filter
from rulings.dates import parse_date
from rulings.errors import BadDate
from web.gate import costly
from web.views import BadDateArg, chosen_game, date_arg, encoded_url, keep_game, kept_args, page, paging, route

bp = Blueprint("changes", __name__)
FEED_DOCUMENTS = 20
"""Documents in the feed, newest first (what each changed is read from the store for these alone)."""
FEED_ITEMS = 50
"""Changes of each kind listed per document (the counts are of all)."""


@route(bp, "/diff")
@costly
def diff(json_wanted: bool) -> Any:
    dates: list[str] = g.kb.document_dates()
    game = g.kb.game_filter(chosen_game())
    start, end = date_arg("from"), date_arg("to")
    latest = None
    if start is None and end is None:  # what the latest document changed
        start, end, latest = g.kb.latest_range(game)
    shown = game  # the game of the diff: a document's own when it is what one document changed
    if request.args.get("document"):  # what one document changed (a link of "What each document changed")
        start, end, latest = _document_range(request.args["document"])
        shown = latest["game"]
    start = start or _day_before(dates[0] if dates else None)
    end = end or dt.date.today()
    kinds = [k for k in request.args.getlist("kind") if k] or None
    deck_text = request.args.get("deck", "")[:20_000]
    cards = g.kb.deck_keys(deck_text, shown) if deck_text.strip() else None
    try:
        answer: DiffAnswer = g.kb.diff(start, end, shown, kinds, cards, paging())
    except ReversedRange as err:
        abort(400, str(err))
    chosen = [kind_filter(k) for k in kinds or []]
    return keep_game(
        page(
            "changes/diff.html",
            {
                **answer,
                "game": shown,
                "games": g.kb.games(),
                "dates": dates,
                "deck": deck_text,
                "kinds": chosen,
                "all_kinds": SERIES_KINDS,
                "latest": latest,
                "documents_dated": g.kb.dated_documents(game),
            },
            json_wanted,
        ),
        game,
    )


def _document_range(document: str) -> tuple[dt.date, dt.date, DocumentFacts]:
    """The range of ``?document=``: what that document changed (404 when no such document is dated)."""
    found: tuple[dt.date, dt.date, DocumentFacts] | None = g.kb.document_range(document)
    if found is None:
        abort(404, f"no dated document {document[:80]!r}")
    return found


def _day_before(first: str | None) -> dt.date:
    """The day before the library's first document (the first date there is, if that is it)."""
    day = dt.date.fromisoformat(first) if first else dt.date.today()
    return day - dt.timedelta(days=1) if day > dt.date.min else day


@route(bp, "/asof/<when>")
@costly
def as_of_page(when: str, json_wanted: bool) -> Any:
    try:
        on = parse_date(when)
    except BadDate as err:
        raise BadDateArg("as_of", when, err) from None
    game = g.kb.game_filter(chosen_game())
    answer: AsOfAnswer = g.kb.as_of(on, game, paging())
    return keep_game(page("changes/asof.html", answer, json_wanted), game)


@bp.route("/asof")
def as_of_form() -> Any:
    """What the as-of page's date control asks: ``/asof?as_of=D`` is the page ``/asof/D`` (today
    without a date), its other query parameters kept."""
    on = date_arg("as_of") or dt.date.today()
    return redirect(encoded_url(f"/asof/{on.isoformat()}", kept_args("as_of")))


@bp.route("/changes.atom")
@costly
def feed() -> Any:
    """The Atom feed, one entry per document. Links are relative unless the app is configured
    with a ``BASE_URL`` (`web.app.create_app`: ``RULINGS_BASE_URL`` by default); nothing in it comes from the request,
    not even the Host header. It carries the newest `FEED_DOCUMENTS` documents, each with its
    counts of every kind of change and up to `FEED_ITEMS` changes of each kind."""
    documents: list[DocumentFacts] = g.kb.latest_documents(FEED_DOCUMENTS)
    changes = g.kb.document_changes(FEED_ITEMS, [d["id"] for d in documents])
    items = []
    for document in documents:
        updated = document["date"] or g.kb.built_on
        items.append(
            {
                "document": document,
                "changes": changes[document["id"]],
                "kinds": CHANGE_KINDS,
                "id": _feed_id(f"docs/{document['id']}"),
                "updated": updated,
            }
        )
    updated = max((d["date"] for d in documents if d["date"]), default=None) or g.kb.built_on
    root = str(current_app.config["BASE_URL"]).rstrip("/")
    body = render_template("changes/feed.atom", items=items, root=root, id=_feed_id("changes"), updated=updated)
    response = make_response(body)
    response.headers["Content-Type"] = "application/atom+xml; charset=utf-8"
    return response


def _feed_id(name: str) -> str:
    """A permanent ``urn:uuid:`` IRI for the feed or one of its entries, the same on every host."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"rulings:{name}").urn
