"""The Flask application: `create_app` wires the knowledge base, blueprints and safety.

The app is read-only. It opens the knowledge base that ``<kb>/current`` points to and, when
a rebuild switches that link, opens the new one on the next request (no restart). Every
response carries a Content-Security-Policy allowing only this site's own assets.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, redirect, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from kb.build import DEFAULT_KB, BuildError, current
from kb.query import KnowledgeBase
from web import views

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
log = logging.getLogger(__name__)


class KnowledgeBases:
    """The knowledge base in service, reopened when ``<kb>/current`` changes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.directory: Path | None = None
        self.kb: KnowledgeBase | None = None

    def get(self) -> KnowledgeBase:
        directory = current(self.root)
        if directory != self.directory:
            with self.lock:
                if directory != self.directory:
                    self.kb, self.directory = KnowledgeBase(directory), directory
        assert self.kb is not None
        return self.kb


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application, serving the knowledge base under ``config["KB"]`` (default: instance/kb)."""
    app = Flask(__name__)
    app.config.update(KB=str(DEFAULT_KB), JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    bases = KnowledgeBases(Path(app.config["KB"]))

    @app.before_request
    def open_kb() -> None:
        g.kb = bases.get()

    @app.after_request
    def secure(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        if isinstance(request.routing_exception, RequestRedirect):  # e.g. //docs -> /docs: not via the Host
            response = redirect(views.relative_location(request.routing_exception.new_url), response.status_code)
            response.headers.update(SECURITY_HEADERS)
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int, list[tuple[str, str]]]:
        """The error page, keeping the error's own headers (``Allow`` on a 405)."""
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return (*views.error_page(error.code or 500, error.description or error.name, []), headers)

    @app.errorhandler(BuildError)
    def no_kb(error: BuildError) -> tuple[Any, int]:
        return views.error_page(503, str(error), [])

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Any, int]:
        log.exception("unexpected error on %s", request.path)
        return views.error_page(500, "Something went wrong on our side; the error is logged.", [])

    app.jinja_env.autoescape = lambda name: name is None or name.endswith((".html", ".xml", ".atom"))
    app.jinja_env.filters["rich"] = views.rich_text
    app.jinja_env.filters["xml_text"] = views.xml_text
    app.jinja_env.globals["url_with"] = views.url_with
    app.jinja_env.globals["json_url"] = views.json_url
    for blueprint in views.blueprints():
        app.register_blueprint(blueprint)
    return app
