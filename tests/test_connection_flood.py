"""One client cannot take the server's connections for itself (issue 48, item 7): a flood of
half-sent requests from one address leaves the others answered at once, and a request trickling in
is closed once it has taken ``--timeout`` seconds to arrive.

The real server, ``rulings serve`` in a subprocess on 127.0.0.1; the flood comes from 127.0.0.2
(another address of the loopback), the searches from 127.0.0.1."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from test_serve import get, port_of, serving

FLOOD = 450
"""Half-sent requests of the flooding client: more than the ``--connections`` (200) of both processes."""


def flood(port: int) -> list[socket.socket]:
    """``FLOOD`` connections from 127.0.0.2, each with the start of a request and no end."""
    held = []
    for _ in range(FLOOD):
        sock = socket.socket()
        sock.bind(("127.0.0.2", 0))
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /?q=ship HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(sock)
    return held


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_flood_of_half_sent_requests_from_one_client_leaves_searches_answered_at_once(
    bundled_root: Path, tmp_path: Path, workers: str
) -> None:
    options = ["--workers", workers, "--connections", "200", "--per-client", "50"]
    with serving(bundled_root, tmp_path / "serve.log", *options) as server:
        port = port_of(server)
        assert get(port, "/?q=ship")[0] == 200  # warm
        held = flood(port)
        try:
            waits = []
            for query in ("conundrum+target", "damaged+ship", "mission", "away+team", "seed+deck"):
                began = time.monotonic()
                status, body = get(port, f"/index.json?q={query}")
                waits.append(time.monotonic() - began)
                assert status == 200 and b'"results"' in body
            assert max(waits) < 1.0, waits  # before: the flood held every connection; 5 s and no answer
            closed = 0
            for sock in held:  # those beyond the client's share were closed at once
                try:
                    sock.settimeout(0.01)
                    closed += sock.recv(1) == b""
                except ConnectionResetError:  # closed with the request unread
                    closed += 1
                except TimeoutError:
                    pass
            assert closed >= FLOOD - 50 * int(workers)
        finally:
            for sock in held:
                sock.close()


def test_a_request_trickling_in_is_closed_after_the_timeout(bundled_root: Path, tmp_path: Path) -> None:
    with serving(bundled_root, tmp_path / "serve.log", "--workers", "1", "--timeout", "2") as server:
        port = port_of(server)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET /?q=ship HTTP/1.1\r\n")
            began, closed = time.monotonic(), False
            while time.monotonic() - began < 8 and not closed:
                time.sleep(0.4)
                try:
                    sock.sendall(b"X")  # a byte of a header, never silent for long
                    sock.settimeout(0.01)
                    closed = sock.recv(1) == b""
                except TimeoutError:
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
            assert closed and time.monotonic() - began < 6  # before: open for as long as it trickles
        assert get(port, "/?q=ship")[0] == 200
