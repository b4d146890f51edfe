"""A running ``rulings serve`` answers a reading command for the command line (`answering`):
the client's side is `web.cli.resident`.

``POST /cli/answer`` takes ``{"token", "argv", "kb", "cwd", "build", "today"}`` and runs the
command ``argv`` through `web.cli.main.main`, exactly as the client would, from the knowledge
base this server has open; it answers ``{"status", "stdout", "stderr"}``: the exit status and
what the run printed (its one-line errors and ``--json`` among it). It refuses (the client then
answers itself) with a 404 a token not the one of this server's file (`token`), and with a 409
a command that is not one of `web.cli.resident.ASKED`, a deck list to read, another knowledge
base than this server's, another build than the one in service, another day than the server's,
or ``--help``. What a run prints goes to that request's buffers: `sys.stdout` and `sys.stderr`
are routed per thread (`_Routed`), to the process's own streams outside a run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hmac
import io
import secrets
import sys
import threading
from pathlib import Path
from typing import Any, TextIO, cast

from flask import Blueprint, Flask, current_app, g, jsonify, request
from werkzeug.exceptions import Conflict, NotFound

from kb.paging import yielding
from web.cli.main import main
from web.cli.resident import ASKED, PATH
from web.gate import Searches

bp = Blueprint("answering", __name__)
TOKEN = "ANSWERING_TOKEN"
"""The app's setting holding the token a client must send (the one of the server's file)."""
MOST = 1 << 16
"""The longest request read, in bytes (a command's arguments)."""
_runs = threading.local()
"""This thread's run's buffers (``out``, ``err``), while it runs a command."""


class _Routed:
    """A standard stream that writes to this thread's run's buffer, when it runs a command, and
    to the process's own stream otherwise (everything else of it is the process's stream's:
    its ``fileno``, ``encoding``, ``isatty``)."""

    def __init__(self, own: TextIO, which: str) -> None:
        self.own = own
        self.which = which

    def _target(self) -> TextIO:
        target: TextIO | None = getattr(_runs, self.which, None)
        return target if target is not None else self.own

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own, name)


def token() -> str:
    """A new token, for a server's file and its app (`answering`)."""
    return secrets.token_hex(16)


def answering(app: Flask, secret: str) -> Flask:
    """``app`` answering the command line's reading commands for a client sending ``secret``;
    the process's standard streams routed per thread from now on (`_Routed`)."""
    app.config[TOKEN] = secret
    app.register_blueprint(bp)
    if not isinstance(sys.stdout, _Routed):
        sys.stdout = cast(TextIO, _Routed(sys.stdout, "out"))
    if not isinstance(sys.stderr, _Routed):
        sys.stderr = cast(TextIO, _Routed(sys.stderr, "err"))
    return app


@bp.route(PATH, methods=["POST"])
def answer() -> Any:
    if (request.content_length or 0) > MOST:
        raise NotFound()
    asked = request.get_json(silent=True)
    secret = str(current_app.config.get(TOKEN) or "")
    if not isinstance(asked, dict) or not secret or not isinstance(asked.get("token"), str):
        raise NotFound()
    if not hmac.compare_digest(asked["token"].encode(), secret.encode()):
        raise NotFound()
    argv, kb, cwd = asked.get("argv"), asked.get("kb"), asked.get("cwd")
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv) and argv[0] in ASKED):
        raise Conflict("not a command this server answers")
    if not (isinstance(kb, str) and isinstance(cwd, str)):
        raise Conflict("no knowledge base named")
    if Path(cwd, kb).resolve() != Path(current_app.config["KB"]).resolve():
        raise Conflict("another knowledge base")
    if asked.get("build") != str(g.kb.directory) or asked.get("today") != dt.date.today().isoformat():
        raise Conflict("another build or another day")
    opened = g.kb

    def held(args: argparse.Namespace) -> argparse.Namespace:
        if args.command not in ASKED or getattr(args, "deck", None) is not None:
            raise Conflict("a deck list is read where the command runs")
        args.kb, args.opened = kb, opened  # the client's spelling of it, for a message naming it
        return args

    out, err = io.StringIO(), io.StringIO()
    _runs.out, _runs.err = out, err
    searches: Searches = current_app.extensions["searches"]
    try:
        if argv[0] == "search":  # in the searches' line, as the search page's
            with searches.search(), searches.line.turn():
                status = main(argv, held)
        else:  # pausing for searches, as the costly pages do
            with yielding(searches.pauses()):
                status = main(argv, held)
    except SystemExit:  # --help, --version: the client prints them itself
        raise Conflict("not an answer") from None
    finally:
        _runs.out = _runs.err = None
    return jsonify({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()})
