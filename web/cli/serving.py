"""Serve the web app: gunicorn with one worker process per core, or waitress in one process.

The knowledge base is read-only, so worker processes share one build directory; each
process makes its own app (`web.app.create_app`), opens the knowledge base on its first
request and follows ``<kb>/current`` when a rebuild switches it. gunicorn is run from here
(so ``rulings serve`` stays one command) and manages the worker processes, each serving
with waitress (`waitress_worker`); ``--workers 1``, and systems without gunicorn
(Windows), get waitress alone.

The line naming the address (``serving ... on http://host:port/``) is printed once the port is
open; a port in use is one error line naming it and how to pick another (`PortInUse`), never
gunicorn's retries.

Both keep idle or slow clients from locking others out: ``--connections`` open at once
(per process), ``--per-client`` of them from one address (`web.cli.clients`), ``--threads``
requests answered at once (per process), a connection silent for ``--timeout`` seconds is
closed, whether it sent nothing, half a request, or is between requests, and so is one whose
request has not arrived whole ``--timeout`` seconds after its first byte.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.paths import BUILDS
from web.cli.resident import FILE, HOST
from web.errors import PortInUse

PORT = 5000
"""The port served unless ``--port`` says another (``make run PORT=...``)."""
CONNECTIONS = 1000
"""Connections kept open at once by each process (waitress's default, 100, let idle sockets lock everyone out)."""
BACKLOG = 2048
"""Connections the system holds while every thread is busy (gunicorn's and waitress's queue)."""
TIMEOUT = 30
"""Seconds an idle connection (no request running) is kept open."""


def refusal(host: str, port: int, err: OSError) -> PortInUse:
    """The one line saying why ``host:port`` cannot be served."""
    if err.errno == errno.EADDRINUSE:
        return PortInUse(
            f"port {port} on {host} is in use by another program; pick another with --port N (make run PORT=N)"
        )
    why = err.strerror or str(err)
    return PortInUse(f"cannot listen on {host} port {port}: {why}; pick another with --host or --port N")


def bound_socket(host: str, port: int) -> int:
    """A socket bound to ``host:port`` and listening, as the file descriptor that gunicorn takes over (``fd://``),
    or `PortInUse`. Binding it here, once, leaves no moment between a check and gunicorn's own bind
    for another program to take the port (gunicorn would then try five times over five seconds,
    logging each)."""
    import socket  # here: a command that does not serve does not load it (a cold search's CPU)

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise refusal(host, port, err) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn and waitress bind
        sock.bind(address)
        sock.listen(BACKLOG)  # two sockets merely bound may share a port; a listening one holds it
    except OSError as err:
        sock.close()
        raise refusal(host, port, err) from None
    return sock.detach()


def cores() -> int:
    """The cores this process may run on: the default number of worker processes."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def gunicorn_available() -> bool:
    """Whether gunicorn can serve here (it needs a POSIX system)."""
    if sys.platform == "win32":
        return False
    try:
        import gunicorn.app.base  # noqa: F401
    except ImportError:
        return False
    return True


def waitress_settings(args: argparse.Namespace) -> dict[str, Any]:
    """waitress's settings: enough connections that idle or slow clients cannot fill them,
    idle ones closed after ``--timeout`` seconds (checked every few seconds), and poll()
    instead of select(), which cannot watch more than 1,024 sockets."""
    return {
        "host": args.host,
        "port": args.port,
        "threads": args.threads,
        "connection_limit": args.connections,
        "channel_timeout": args.timeout,
        "cleanup_interval": max(1, min(10, args.timeout // 3)),
        "backlog": BACKLOG,
        "asyncore_use_poll": True,
    }


def strict(server: Any) -> Any:
    """``server`` (made by ``waitress.server.create_server``) refusing a request that gives both a
    Content-Length and a Transfer-Encoding: waitress would read the chunked body, ignore the
    length and answer whatever the sender had hidden after the body as a second request (the
    smuggling that proxies reading the length fall for). Such a request is answered 400 and its
    connection closed, with nothing after it read."""
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser, ParsingError
    from waitress.server import BaseWSGIServer

    class StrictParser(HTTPRequestParser):  # type: ignore[misc]
        def parse_header(self, header_plus: bytes) -> None:
            names = {line.split(b":", 1)[0].strip().lower() for line in header_plus.split(b"\n")[1:]}
            if b"content-length" in names and b"transfer-encoding" in names:
                raise ParsingError("a request may give Content-Length or Transfer-Encoding, not both")
            super().parse_header(header_plus)

    class StrictChannel(HTTPChannel):  # type: ignore[misc]
        parser_class = StrictParser

    dispatchers = getattr(server, "map", None) or getattr(server, "_map", {})
    for each in [server, *dispatchers.values()]:  # one server, or each of a multi-socket one
        if isinstance(each, BaseWSGIServer):
            each.channel_class = StrictChannel
    return server


def gunicorn_settings(args: argparse.Namespace, listener: int) -> dict[str, Any]:
    """gunicorn's settings: the socket ``listener`` (a listening file descriptor, `bound_socket`),
    ``--workers`` processes, each serving with waitress as `waitress_settings` say;
    a worker silent for longer than ``timeout`` is restarted; no access log (as with waitress).
    The app is made before the port opens and the workers fork (so the first request does not wait
    for a worker to import it); each worker opens the knowledge base itself (`warmed`) before it
    takes a connection."""
    return {
        "bind": [f"fd://{listener}"],
        "workers": args.workers,
        "worker_class": waitress_worker(args),
        "timeout": max(30, args.timeout),
        "graceful_timeout": 10,
        "backlog": BACKLOG,
        "loglevel": "warning",
        "accesslog": None,
        "preload_app": True,
        "when_ready": lambda arbiter: _listening(args, [each.sock.getsockname() for each in arbiter.LISTENERS]),
    }


Answering = Callable[[Any, str], Any]
"""What makes an app answer the command line's commands for a client sending a token (`web.cli.answering`)."""


def advertise(args: argparse.Namespace, addresses: list[Any], secret: str) -> bool:
    """Write ``<kb>/serving.json`` (`web.cli.resident.FILE`) naming this server, its port on
    127.0.0.1, this process and ``secret``, when it listens there (on 127.0.0.1 or on every
    IPv4 address): through a temporary file and a rename, under the lock of the knowledge
    base's builds folder (a build holds the knowledge base's own, for minutes). Whether it was
    written; a knowledge base that cannot be written is said in one line, and served as well."""
    ports = [int(port) for host, port, *_ in addresses if host in (HOST, "0.0.0.0")]  # waitress: a str
    if not ports:
        return False
    kb = Path(args.kb)
    named = {"host": HOST, "port": ports[0], "pid": os.getpid(), "token": secret, "kb": str(kb.resolve())}
    try:
        from kb import files  # its locks need fcntl: a system without it serves unnamed

        with files.hold((kb / BUILDS).resolve(), 10, f"server file on {kb}"):
            files.write_atomic(kb / FILE, json.dumps(named, indent=1).encode())
    except (OSError, ImportError) as err:
        print(f"rulings: note: {kb / FILE} not written ({err}); every command answers itself", file=sys.stderr)
        return False
    return True


def withdraw(args: argparse.Namespace, secret: str) -> None:
    """Remove ``<kb>/serving.json`` if it still names this server (another may have started
    since) and this process wrote it (not a gunicorn worker ending, which leaves through here too)."""
    kb = Path(args.kb)
    try:
        from kb import files

        with files.hold((kb / BUILDS).resolve(), 10, f"server file on {kb}"):
            named = json.loads((kb / FILE).read_bytes())
            if isinstance(named, dict) and (named.get("token"), named.get("pid")) == (secret, os.getpid()):
                (kb / FILE).unlink()
    except (OSError, ValueError, ImportError):
        pass  # gone already, or not ours to remove


def _how(args: argparse.Namespace) -> str:
    several = args.workers > 1 and gunicorn_available()
    return f"{args.workers} processes (gunicorn)" if several else "one process (waitress)"


def _listening(args: argparse.Namespace, addresses: list[Any]) -> None:
    """Say where the server listens, now that it does (the port the system chose for ``--port 0``)."""
    where = ", ".join(f"http://{host if ':' not in host else f'[{host}]'}:{port}/" for host, port, *_ in addresses)
    print(
        f"serving {args.kb} on {where} with {_how(args)} of {args.threads} threads, up to "
        f"{args.connections} connections each ({args.per_client} a client), idle ones closed after "
        f"{args.timeout} s (Ctrl-C stops)",
        flush=True,
    )


def waitress_worker(args: argparse.Namespace) -> type:
    """A gunicorn worker process that serves its share of the listening socket with waitress.

    gunicorn's own threaded worker hands each new connection to a thread, which then reads
    the request to its end without a time limit: two hundred clients that sent half a request
    held every thread and locked everyone out. waitress reads requests without a thread, so
    the worker keeps its guarantees (`waitress_settings`); gunicorn forks, watches and
    restarts the workers and stops them on a signal."""
    from gunicorn.workers.base import Worker
    from waitress.server import create_server

    from web.cli.clients import bounded
    from web.cli.dispatch import cheap_first

    settings = {k: v for k, v in waitress_settings(args).items() if k not in ("host", "port")}

    class WaitressWorker(Worker):  # type: ignore[misc]
        def run(self) -> None:
            threading.Thread(target=self.beat, name="heartbeat", daemon=True).start()
            warmed(self.wsgi)  # before this worker takes its first connection
            made = create_server(self.wsgi, sockets=[s.sock for s in self.sockets], **settings)
            server = bounded(strict(made), args.per_client, args.timeout)
            cheap_first(server, self.wsgi)
            server.run()  # until SIGTERM or SIGINT (`handle_exit`)

        def beat(self) -> None:
            """Tell gunicorn this worker lives, while it does."""
            while self.alive and self.ppid == os.getppid():
                self.notify()
                time.sleep(1)
            if self.alive:  # gunicorn itself is gone
                os.kill(os.getpid(), signal.SIGTERM)

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.alive = False
            raise SystemExit(0)  # ends waitress's loop, which then shuts its threads down

    return WaitressWorker


WARM_SEARCH = "/index.json?q=rule"
"""The search each process answers before it takes its first connection (`warmed`)."""


def warmed(app: Any) -> Any:
    """``app`` (a Flask app) with its knowledge base open and one search (`WARM_SEARCH`) answered,
    in the process that will serve it: before, the first searches of a worker waited for the
    knowledge base to open (0.55 s on the quarter-size stress library; up to 4.3 s on a worker
    just forked, the worst search wait of a run at 6 clients, issue 48). The knowledge base is
    opened in each worker, never before the fork (its files and connections are the process's)."""
    app.test_client().get(WARM_SEARCH)
    return app


def app_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The app's settings: the knowledge base, and how many heavy pages and costly requests may
    wait for their turn (a line of their own each: the pages half of each process's ``--threads``,
    the long answers a quarter) and hold threads together, running or waiting: at most half of the
    threads (one with one thread), so that a search always finds a thread free of them."""
    from web.gate import AT_ONCE

    return {
        "KB": args.kb,
        "COSTLY_WAITING": max(0, args.threads // 4 - AT_ONCE),
        "PAGES_WAITING": max(0, args.threads // 2 - AT_ONCE),
        "COSTLY_THREADS": max(1, args.threads // 2),
    }


def serve(args: argparse.Namespace, answering: Answering | None = None) -> None:
    """Serve the knowledge base ``args.kb`` until stopped, as `gunicorn_settings` or `waitress_settings` say;
    with ``answering``, the command line's reading commands too, for a client that read the
    token of ``<kb>/serving.json`` (`advertise`, `withdraw` once stopped)."""
    from web.app import create_app

    secret = secrets.token_hex(16)

    def made() -> Any:
        app = create_app(app_settings(args))
        return answering(app, secret) if answering is not None else app

    def ready(addresses: list[Any]) -> None:
        _listening(args, addresses)
        if answering is not None:
            advertise(args, addresses, secret)

    try:
        _serve(args, made, ready)
    finally:
        if answering is not None:
            withdraw(args, secret)


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM to a waitress server alone: stop as Ctrl-C does (its file removed)."""
    raise SystemExit(0)


def _serve(args: argparse.Namespace, made: Callable[[], Any], ready: Callable[[list[Any]], None]) -> None:
    several = args.workers > 1 and gunicorn_available()
    if args.workers > 1 and not several:
        print(f"rulings: note: gunicorn is not available here; serving with {_how(args)}", file=sys.stderr, flush=True)
    if not several:
        import logging

        from waitress.server import create_server

        from web.cli.clients import bounded
        from web.cli.dispatch import cheap_first

        logging.basicConfig()  # waitress's warnings on standard error, as waitress.serve does
        app = warmed(made())
        try:
            created = create_server(app, **waitress_settings(args))
            server = cheap_first(bounded(strict(created), args.per_client, args.timeout), app)
        except OSError as err:
            raise refusal(args.host, args.port, err) from None
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, _stop)
        ready([(server.effective_host, server.effective_port)])
        server.run()
        return
    listener = bound_socket(args.host, args.port)
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]
        """gunicorn run from here: the settings above, and an app made in each worker process."""

        def load_config(self) -> None:
            for key, value in gunicorn_settings(args, listener).items():
                self.cfg.set(key, value)
            self.cfg.set("when_ready", lambda arbiter: ready([each.sock.getsockname() for each in arbiter.LISTENERS]))

        def load(self) -> Any:
            return made()

    Server().run()
