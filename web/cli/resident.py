"""A command that reads asks a ``rulings serve`` running on the same knowledge base, when one
does, instead of loading the search engine itself (`asked`); the server's side is
`web.cli.answering`, the file it advertises itself in is written by `web.cli.serving`.

A cold ``rulings search`` spent most of its CPU importing numpy and Whoosh and opening the
knowledge base; a server has done all of that already. So ``rulings serve`` writes
``<kb>/serving.json`` (`FILE`: its address on 127.0.0.1, its process id, a random token) and
removes it when it stops; a reading command (`ASKED`) finds it in the knowledge base it would
read, sends its arguments to the server, and prints what the server's run of the very same
command printed, with its exit status. Any doubt and the command answers itself, as without a
server: no file, a file that is not the one this module writes, an address not on 127.0.0.1, a
process gone, a port closed or silent for `CONNECT` seconds, an answer not back in `ANSWER`
seconds, a server serving another build than ``<kb>/current`` names or whose day is not this
command's, ``--local``, ``--help``, a ``--`` among the arguments, or a deck list to read (the
client's file or standard input). This module loads the standard library only (``http.client``
once a file is found) and `kb.paths`: nothing of the engine, numpy, Whoosh or Flask.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kb.paths import CURRENT, DEFAULT_KB

FILE = "serving.json"
"""The file, in a knowledge-base directory, naming the server running on it."""
PATH = "/cli/answer"
"""Where the server answers a command (`web.cli.answering`)."""
HOST = "127.0.0.1"
"""The only address a command asks at."""
ASKED = frozenset({"show", "blame", "history", "diff", "card", "cards", "search", "docs", "version"})
"""The reading commands a server may answer (``deck`` reads the client's file or standard input)."""
CONNECT = 0.25
"""Seconds to wait for the server to take the connection."""
ANSWER = 10.0
"""Seconds to wait for its answer before answering here instead."""
MOST = 4096
"""The largest server file read, in bytes."""
_DOUBT = ("--local", "-h", "--help", "--")
"""Arguments with which a command answers itself."""


def asked(argv: Sequence[str]) -> int | None:
    """Run the command ``argv`` by asking the server running on its knowledge base: print what
    the server's run printed and give its exit status; None (nothing printed) when there is no
    such server or any doubt, for the command to answer itself."""
    arguments = list(argv)
    if not arguments or arguments[0] not in ASKED or any(a in _DOUBT for a in arguments):
        return None
    kb = _kb_named(arguments[1:])
    if kb is None:
        return None
    server = _server(kb)
    build = _build(kb)
    if server is None or build is None:
        return None
    request = {
        "token": server["token"],
        "argv": arguments,
        "kb": kb,
        "cwd": os.getcwd(),
        "build": build,
        "today": dt.date.today().isoformat(),
    }
    answer = _ask(int(server["port"]), request)
    if answer is None:
        return None
    try:
        sys.stdout.write(answer["stdout"])
        sys.stderr.write(answer["stderr"])
    except BrokenPipeError:
        return 0  # as `web.cli.main.main` says of a reader gone
    return int(answer["status"])


def _kb_named(arguments: list[str]) -> str | None:
    """The knowledge base the arguments name (the last ``--kb``, as the parser reads them), else
    the default one; None when an argument may be an abbreviation of ``--kb`` or ``--local``."""
    named = str(DEFAULT_KB)
    for at, argument in enumerate(arguments):
        if argument == "--kb":
            if at + 1 == len(arguments):
                return None  # the parser's error: let the command say it
            named = arguments[at + 1]
        elif argument.startswith("--kb="):
            named = argument.removeprefix("--kb=")
        elif len(argument) > 2 and ("--kb".startswith(argument) or "--local".startswith(argument.split("=")[0])):
            return None  # "--k", "--lo": the parser's abbreviations, whatever they mean
    return named


def _server(kb: str) -> dict[str, Any] | None:
    """The server ``<kb>/serving.json`` names, if it reads as one this program wrote naming a
    process alive on 127.0.0.1; else None."""
    try:
        with open(os.path.join(kb, FILE), "rb") as file:
            text = file.read(MOST + 1)
        found = json.loads(text) if len(text) <= MOST else None
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("host") != HOST:
        return None
    port, pid, token = found.get("port"), found.get("pid"), found.get("token")
    if not (isinstance(port, int) and 0 < port < 65536 and isinstance(pid, int) and pid > 0):
        return None
    if not (isinstance(token, str) and 0 < len(token) <= 64 and token.isalnum()):
        return None
    try:
        if sys.platform != "win32":  # there os.kill would end the process
            os.kill(pid, 0)
    except PermissionError:
        pass  # alive, another user's
    except (OSError, OverflowError):
        return None
    return found


def _build(kb: str) -> str | None:
    """The build directory ``<kb>/current`` names (as `kb.paths.current` resolves it), or None."""
    link = Path(kb) / CURRENT
    try:
        return str(link.resolve(strict=True)) if link.exists() else None
    except (OSError, RuntimeError):
        return None


def _ask(port: int, request: dict[str, Any]) -> dict[str, Any] | None:
    """The server's answer to ``request`` (``{"status", "stdout", "stderr"}``), or None."""
    import http.client  # here: loaded only when a server is named

    connection = http.client.HTTPConnection(HOST, port, timeout=CONNECT)
    try:
        connection.connect()
        if connection.sock is not None:
            connection.sock.settimeout(ANSWER)
        body = json.dumps(request).encode()
        connection.request("POST", PATH, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read()) if response.status == 200 else None
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        connection.close()
    if not isinstance(answer, dict):
        return None
    status, out, err = answer.get("status"), answer.get("stdout"), answer.get("stderr")
    if isinstance(status, int) and not isinstance(status, bool) and isinstance(out, str) and isinstance(err, str):
        return answer
    return None
