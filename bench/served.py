"""The server the load benchmarks talk to: ``rulings serve`` in a subprocess on a free
127.0.0.1 port, stopped when the benchmark is done (`served`)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(port: int, server: subprocess.Popen[bytes], tries: int = 600) -> None:
    """Wait until ``server`` accepts connections on ``port`` (at most ``tries`` tenths of a second)."""
    for _ in range(tries):
        if server.poll() is not None:
            raise SystemExit("the server stopped")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


@contextlib.contextmanager
def served(kb: Path, *options: str, log: IO[bytes] | None = None) -> Iterator[int]:
    """``rulings serve --kb KB OPTIONS`` on a free port, up; yields the port. Its standard error
    goes to ``log`` (default: nowhere)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "web.cli", "serve", "--kb", str(kb), "--port", str(port), *options],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log or subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_up(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)
