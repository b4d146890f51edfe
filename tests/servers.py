"""The real server for tests: a free loopback port and ``rulings serve`` in a subprocess, started
and stopped (`serving`), for the tests of the server, of the commands that ask it and of the
installed wheel."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers import ROOT


def free_port() -> int:
    """A loopback port no one listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def accepting(port: int) -> bool:
    """Whether something takes connections on the loopback ``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def serving(
    kb: Path, log: Path, *options: str, ready: Callable[[int], bool] = accepting, seconds: float = 30
) -> Iterator[subprocess.Popen[bytes]]:
    """``rulings serve --kb kb`` on a free loopback port (in ``process.args``, after ``--port``),
    its output in ``log``, once ``ready(port)`` says so (within ``seconds``); stopped on exit."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web.cli", "serve", "--kb", str(kb), "--port", str(port), *options],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + seconds
        while not ready(port):
            assert process.poll() is None, log.read_text()
            if time.monotonic() > deadline:
                raise AssertionError(f"the server was not ready in {seconds:.0f} s: {log.read_text()}")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)
