"""The Flask application: `create_app` wires the knowledge base, blueprints and safety.

The app is read-only. It opens the knowledge base that ``<kb>/current`` points to and, when
a rebuild switches that link, opens the new one on the next request (no restart) and closes
the old one when the last request using it ends. Every
response carries a Content-Security-Policy allowing only this site's own assets.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
from pathlib import Path
from typing import Any

from flask import Flask, g, jsonify, redirect, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response as BaseResponse

from kb.errors import BuildError, UnknownFilter
from kb.paths import DEFAULT_KB, current
from kb.query import KnowledgeBase, load_search
from web import cards, changes, costs, documents, entries, gate, search, views
from web.citing import lines_cited
from web.diffs import diff_paragraphs

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; worker-src 'self'; "
    "manifest-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
OFFLINE_SHELL = (
    "static/style.css", "static/cite.js", "static/app.js", "static/pwa.js", "static/manifest.webmanifest",
    "static/icon.svg",
)  # fmt: skip
"""The served app's files the service worker keeps on the first visit, with the search page."""
log = logging.getLogger(__name__)


def give_back_memory() -> None:
    """Return freed heap memory to the system. glibc keeps what a closed knowledge base freed
    in the arena of the thread that loaded it, so without this the resident size of a server
    grew by hundreds of MB over a few switches of a large knowledge base."""
    if _TRIM is not None:
        _TRIM(0)


def _malloc_trim() -> Any:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


class KnowledgeBases:
    """The knowledge base in service, reopened when ``<kb>/current`` changes.

    Every request holds the knowledge base it started with (`acquire` ... `release`). A
    replaced knowledge base is closed (its searchers and their files) when the last request
    holding it ends, and its freed memory is given back to the system. While
    a new one loads, other requests are served by the old one.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        """Guards ``kb``, ``directory`` and ``users``."""
        self.loading = threading.Lock()
        """Held by the one request loading a new knowledge base."""
        self.directory: Path | None = None
        self.kb: KnowledgeBase | None = None
        self.users: dict[KnowledgeBase, int] = {}
        """Knowledge bases held by requests -> how many requests hold each."""

    def acquire(self) -> KnowledgeBase:
        """The knowledge base in service, held until `release`."""
        directory = current(self.root)
        with self.lock:
            if self.kb is not None and (directory == self.directory or self.loading.locked()):
                return self._hold(self.kb)
        with self.loading:
            with self.lock:
                if self.kb is not None and directory == self.directory:
                    return self._hold(self.kb)
            fresh = KnowledgeBase(directory)
            with self.lock:
                old, self.kb, self.directory = self.kb, fresh, directory
                held = self._hold(fresh)
                retired = old if old is not None and self._retired(old) else None
            if retired is not None:
                retired.close()
                del old, retired  # the last references: its memory is free now
                give_back_memory()
            return held

    def release(self, kb: KnowledgeBase) -> bool:
        """A request is done with ``kb``; a replaced knowledge base no request holds is closed.
        Whether it was (the caller then drops its reference and calls `give_back_memory`)."""
        with self.lock:
            self.users[kb] -= 1
            idle = self.users[kb] == 0
            if idle:
                del self.users[kb]
            retired = self._retired(kb)
        if retired:
            kb.close()
        return retired

    def _retired(self, kb: KnowledgeBase) -> bool:
        """Whether ``kb`` is to be closed now: replaced, and held by no request. Decided under
        ``lock`` together with the change that made it so, so that exactly one thread closes it."""
        return kb is not self.kb and kb not in self.users

    def _hold(self, kb: KnowledgeBase) -> KnowledgeBase:
        self.users[kb] = self.users.get(kb, 0) + 1
        return kb


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application, serving the knowledge base under ``config["KB"]`` (default: `kb.paths.DEFAULT_KB`); the
    feed's links start with ``config["BASE_URL"]`` (default: ``RULINGS_BASE_URL``, else none: relative);
    ``config["COSTLY_WAITING"]``, ``config["PAGES_WAITING"]``: costly requests and heavy pages that may
    wait for their turn, ``config["COSTLY_THREADS"]``: the threads they may hold together (`web.gate`);
    ``config["PAGED"]`` false answers long lists whole (the static export; `web.views.paging`)."""
    app = Flask(__name__)
    app.config.update(KB=str(DEFAULT_KB), BASE_URL=os.environ.get("RULINGS_BASE_URL", ""), JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    bases = app.extensions["knowledge_bases"] = KnowledgeBases(Path(app.config["KB"]))
    most = app.config.get("COSTLY_THREADS")
    turns = gate.Gate(None if most is None else int(most))  # the two lines take turns with each other
    app.extensions["costly_turns"] = gate.Turns(int(app.config.get("COSTLY_WAITING", gate.WAITING)), turns)
    app.extensions["page_turns"] = gate.Turns(int(app.config.get("PAGES_WAITING", gate.WAITING)), turns)
    app.extensions["costs"] = costs.Costs()  # what requests cost, by which they take turns or not

    @app.before_request
    def open_kb() -> None:
        if request.method == "OPTIONS":
            return  # answered by its Allow header alone (`secure`): no page, no knowledge base
        g.kb = bases.acquire()

    @app.teardown_request
    def release_kb(_: BaseException | None) -> None:
        kb = g.pop("kb", None)
        if kb is not None and bases.release(kb):
            del kb  # the last reference: its memory is free now
            give_back_memory()

    @app.after_request
    def secure(response: BaseResponse) -> BaseResponse:
        response.headers.update(SECURITY_HEADERS)
        if request.method == "OPTIONS" and response.status_code == 200:  # the methods allowed, no page
            response.status_code = 204
            response.headers.pop("Content-Type", None)
        if request.path == "/static/sw.js":  # the service worker serves the whole site, not only /static/
            response.headers["Service-Worker-Allowed"] = "/"
        if isinstance(request.routing_exception, RequestRedirect):  # e.g. //docs -> /docs: not via the Host
            response = redirect(views.relative_location(request.routing_exception.new_url), response.status_code)
            response.headers.update(SECURITY_HEADERS)
        return response

    @app.route("/offline.json")
    def offline() -> Any:
        """What the service worker keeps of the served app (``static/sw.js``): the app's shell,
        in a cache named by the build in service, so a rebuild starts a new cache and drops the
        old one with every page kept from it (an export writes its own ``offline.json``)."""
        return jsonify(
            {
                "build": g.kb.directory.name,
                "built_on": g.kb.built_on.isoformat(),
                "complete": False,
                "files": list(OFFLINE_SHELL),
            }
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int, list[tuple[str, str]]]:
        """The error page, keeping the error's own headers (``Allow`` on a 405)."""
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return (*views.error_page(error.code or 500, error.description or error.name, []), headers)

    app.register_error_handler(views.BadDateArg, views.date_error)

    @app.errorhandler(UnknownFilter)
    def bad_filter(error: UnknownFilter) -> tuple[Any, int]:
        return views.error_page(400, str(error), [])

    @app.errorhandler(BuildError)
    def no_kb(error: BuildError) -> tuple[Any, int]:
        return views.error_page(503, str(error), [])

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Any, int]:
        log.exception("unexpected error on %s", request.path)
        return views.error_page(500, "Something went wrong on our side; the error is logged.", [])

    app.jinja_env.autoescape = lambda name: name is None or name.endswith((".html", ".xml", ".atom"))
    app.jinja_env.filters["rich"] = views.rich_text
    app.jinja_env.filters["diff_paragraphs"] = diff_paragraphs
    app.jinja_env.filters["lines_cited"] = lines_cited
    app.jinja_env.filters["xml_text"] = views.xml_text
    app.jinja_env.filters["dates"] = views.kept_dates
    app.jinja_env.globals["url_with"] = views.url_with
    app.jinja_env.globals["json_url"] = views.json_url
    app.jinja_env.globals["kept_args"] = views.kept_args
    for blueprint in (search.bp, entries.bp, cards.bp, changes.bp, documents.bp):  # one per user task
        app.register_blueprint(blueprint)
    for name in app.jinja_env.list_templates():  # compiled now (before a server forks), not by the first requests
        app.jinja_env.get_template(name)
    load_search()  # likewise imported now, not by each worker's first search
    return app
