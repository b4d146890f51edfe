"""Shared view machinery: one dict per page, rendered as HTML or returned as JSON.

A page is served at ``/path`` (HTML) and ``/path.json`` (the same dict as JSON), with a
``Link: <...json>; rel="alternate"`` header. Entry text is rendered with markdown-it-py
with raw HTML disabled, and icons such as ``[DS9]`` become labelled badges. Query
parameters are read through one reader per type (a bad value is a 400, never a 500), and
every URL built from request data is percent-encoded again before it goes into a header.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from flask import Blueprint, abort, current_app, g, jsonify, make_response, render_template, request, url_for
from markdown_it import MarkdownIt
from markupsafe import Markup
from werkzeug.exceptions import BadRequest

from kb.paging import EVERYTHING, MAX_SIZE, SIZE, Paging
from rulings.dates import parse_date
from rulings.errors import BadDate

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False}).disable(["image", "link", "autolink"])
_ICON = re.compile(r"\[([A-Za-z0-9]{1,8})\]")
_WHOLE = re.compile(r"[0-9]{1,9}")
_PATH_SAFE = "/:@"  # besides letters, digits and -._~: what a path keeps unencoded
LINK_MOST = 2048
"""The longest JSON twin's URL given in a page's ``Link`` header: a longer one (a query of
kilobytes) is not echoed into a header; the twin is still at ``/path.json``."""
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # not in XML 1.0


def rich_text(text: str) -> Markup:
    """Entry text as safe HTML: paragraphs, emphasis, and icon badges; never raw HTML."""
    html = _MARKDOWN.render(text or "")
    return Markup(_ICON.sub(r'<span class="icon" title="\1 icon">\1</span>', html))


class BadDateArg(BadRequest):
    """A date query parameter that is not a date: a 400 whose page gives the form back, the
    typed value kept and the message beside its field (`date_error`)."""

    def __init__(self, name: str, value: str, err: BadDate) -> None:
        super().__init__(f"{name}: {err}")
        self.field = name
        """The parameter (``as_of``, ``from``, ``to``)."""
        self.value = value
        """What was typed, as typed."""
        self.message = str(err)
        """Why it is not a date, to show beside the field."""


def date_arg(name: str) -> dt.date | None:
    """The date query parameter ``name`` of this request, if given (a bad one is a `BadDateArg`)."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    try:
        return parse_date(value)
    except BadDate as err:
        raise BadDateArg(name, value, err) from None


def date_error(error: BadDateArg) -> tuple[Any, int]:
    """The page of a date that is not one: the date form of the page asked for, with the value
    typed and the message beside it (JSON for ``.json`` paths, as every error)."""
    if request.path.endswith(".json"):
        return jsonify({"status": 400, "error": error.description, "field": error.field, "suggestions": []}), 400
    action = encoded_url(request.path, [])
    if request.endpoint == "changes.as_of_page":  # its date is in the path: the form asks /asof?as_of=
        action = "/asof"
    fields = ["from", "to"] if error.field in ("from", "to") else [error.field]
    typed = [(n, error.value if n == error.field else request.args.get(n, "").strip()) for n in fields]
    body = render_template("dates/error.html", error=error, action=action, typed=typed, as_of="", status=400)
    return body, 400


def kept_args(*dropped: str) -> list[tuple[str, str]]:
    """This request's query parameters but ``dropped`` (and the page offset): what a form that
    changes only those keeps as hidden fields."""
    return [(k, v) for k, v in request.args.items(multi=True) if k not in dropped and k != "offset"]


def int_arg(name: str, default: int, low: int, high: int) -> int:
    """The whole-number query parameter ``name`` (``default`` when absent or empty); anything
    but a number from ``low`` to ``high`` is a 400."""
    value = request.args.get(name, "").strip()
    if not value:
        return default
    if not _WHOLE.fullmatch(value) or not low <= int(value) <= high:
        abort(400, f"{name}: expected a whole number from {low} to {high}, got {value[:40]!r}")
    return int(value)


ANY_GAME = "any"
"""``?game=any`` (or empty): every game, not the library's default alone."""
GAME_COOKIE = "game"
"""The cookie keeping the game a judge chose (``any`` for every game)."""
GAME_KEPT = 365 * 24 * 3600
"""How long (seconds) the choice is kept."""


def chosen_game() -> str | None:
    """The game a page answers within (None: every game): ``?game=`` (``any`` or empty: every
    game), else the one chosen before (a cookie), else the library's default game
    (`kb.query.KnowledgeBase.default_game`); in the static export every game, as its own
    search answers."""
    if "game" in request.args:
        value = request.args["game"]
        return None if value in ("", ANY_GAME) else value
    if current_app.config.get("EXPORT"):
        return None  # the export's own search and diff answer every game
    remembered = request.cookies.get(GAME_COOKIE, "")
    if remembered == ANY_GAME:
        return None
    return remembered if remembered in g.kb.games() else g.kb.default_game()


def keep_game(response: Any, game: str | None) -> Any:
    """``response``, remembering the game this request chose (when it chose one) for the next pages."""
    if "game" in request.args:
        response.set_cookie(GAME_COOKIE, game or ANY_GAME, max_age=GAME_KEPT, samesite="Lax", httponly=True)
    return response


def paging() -> Paging:
    """The page of a long answer this request asks (``?offset=`` and ``?size=``, `kb.paging`); the
    whole answer in one page when the app is configured with ``PAGED`` false (the static export)."""
    if not current_app.config.get("PAGED", True):
        return EVERYTHING
    return Paging(int_arg("offset", 0, 0, 10**9), int_arg("size", SIZE, 1, MAX_SIZE))


def as_of() -> dt.date | None:
    """The ``?as_of=`` date of this request, if any (a bad one is a `BadDateArg`)."""
    return date_arg("as_of")


def url_with(**changes: Any) -> str:
    """This page's URL with some query parameters changed, percent-encoded."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in changes]
    args += [(k, v) for k, v in changes.items() if v not in (None, "")]
    return encoded_url(request.path, args)


def encoded_url(path: str, args: list[tuple[str, str]]) -> str:
    """``path?args`` percent-encoded: no space, quote, angle bracket, comma or semicolon left raw,
    one leading slash (``//host/x`` would name another host), and no ``.`` or ``..`` segment (a
    client resolves those: the page of a card named ``X/../../../tmp/escape`` is not ``/tmp/escape``)."""
    query = urlencode(args)
    segments = quote(path, safe=_PATH_SAFE).lstrip("/").split("/")
    plain = [s.replace(".", "%2E") if s and not s.strip(".") else s for s in segments]  # no dot segment
    return "/" + "/".join(plain) + (f"?{query}" if query else "")


def relative_location(location: str) -> str:
    """A redirect target without scheme and host (never taken from the Host header), encoded."""
    parts = urlsplit(location)
    path = "/" + quote(parts.path, safe=_PATH_SAFE + "%").lstrip("/")
    return path + (f"?{quote(parts.query, safe='=&%+')}" if parts.query else "")


def page(template: str, data: Mapping[str, Any], json_wanted: bool, status: int = 200) -> Any:
    """Render ``data`` with ``template``, or return it as JSON."""
    if json_wanted:
        return make_response(jsonify(data), status)
    context = {**data, "answered_on": data.get("as_of"), "as_of": request.args.get("as_of", "")}
    response = make_response(render_template(template, **context), status)
    twin = json_url()
    if len(twin) <= LINK_MOST:
        response.headers["Link"] = f'<{twin}>; rel="alternate"; type="application/json"'
    return response


def json_url() -> str:
    """The JSON twin of this page's URL, percent-encoded (it goes into the Link header)."""
    return encoded_url(json_path(request.path), list(request.args.items(multi=True)))


def json_path(path: str) -> str:
    """The path (or URL rule) of the JSON twin of the page at ``path``: ``/x`` -> ``/x.json``,
    ``/`` -> ``/index.json``. The one rule for twins: `route` registers them with it, `json_url`
    links to them and the export names its files by it (`page_path` is its inverse)."""
    return f"{path.rstrip('/') or '/index'}.json"


def page_path(twin: str) -> str:
    """The page whose JSON twin is at ``twin`` (the inverse of `json_path`)."""
    return "/" if twin == "/index.json" else twin.removesuffix(".json")


def route(blueprint: Blueprint, rule: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a page at ``rule`` and its JSON twin at `json_path` of it (endpoint ``<view>_json``);
    the view gets ``json_wanted``. Every page is registered this way: it is the one JSON mechanism."""

    def register(view: Callable[..., Any]) -> Callable[..., Any]:
        blueprint.add_url_rule(rule, view.__name__, view, defaults={"json_wanted": False})
        blueprint.add_url_rule(json_path(rule), f"{view.__name__}_json", view, defaults={"json_wanted": True})
        return view

    return register


def error_page(status: int, message: str, suggestions: list[dict[str, str]], search: str = "") -> tuple[Any, int]:
    """An error as a page (or JSON for ``.json`` paths), never a traceback; a name nothing has
    (``search``) gets a way on: a link searching the rulings for it."""
    data: dict[str, Any] = {"status": status, "error": message, "suggestions": suggestions}
    if search:
        data["search"] = {"name": search, "url": url_for("search.index", q=search)}
    if request.path.endswith(".json"):
        return jsonify(data), status
    return render_template("error.html", **data, as_of=""), status


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def kept_dates(value: Any) -> Markup:
    """``value`` as HTML with each YYYY-MM-DD date in it kept on one line (``<span class="date">``,
    ``white-space: nowrap``): a narrow screen otherwise cuts a date at a hyphen."""
    return Markup(_ISO_DATE.sub(lambda m: f'<span class="date">{m[0]}</span>', str(Markup.escape(value))))


def xml_text(value: Any) -> str:
    """``value`` as text XML 1.0 can carry: each control character it forbids becomes U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(value))
