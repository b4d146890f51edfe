"""The real server: ``rulings serve`` in a subprocess on a loopback port, under idle clients
and knowledge-base switches."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from servers import serving

from helpers import ROOT
from kb.paths import current
from kb.query import KnowledgeBase
from web.cli.main import main

IDLE = 200
"""Idle connections opened before a normal client asks."""


def port_of(process: subprocess.Popen[bytes]) -> int:
    return int(process.args[process.args.index("--port") + 1])  # type: ignore[index, union-attr, arg-type]


def get(port: int, path: str, timeout: float = 5) -> tuple[int, bytes]:
    """One request on a fresh connection; the client gives up after ``timeout`` seconds of silence."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_two_hundred_idle_connections_do_not_lock_out_a_client(
    bundled_root: Path, tmp_path: Path, workers: str
) -> None:
    """With waitress (one process) and with gunicorn (two): silent clients and clients stuck
    halfway through a request hold no thread a normal client needs."""
    with serving(bundled_root, tmp_path / "serve.log", "--workers", workers, "--timeout", "5") as server:
        port = port_of(server)
        idle: list[socket.socket] = []
        try:
            for number in range(IDLE):
                client = (f"127.0.1.{number + 1}", 0)  # 200 clients, each from its address (--per-client)
                sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=client)
                if number % 2:  # half send the start of a request and never finish it
                    sock.sendall(b"GET /?q=ship HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                idle.append(sock)
            status, body = get(port, "/?q=conundrum+target")
            assert status == 200 and b"results for \xe2\x80\x9cconundrum target" in body
            assert get(port, "/entry/stccg:conundrum.json")[0] == 200
            with pytest.raises(TimeoutError):  # the idle ones are still open, not dropped to make room
                idle[0].settimeout(0.2)
                idle[0].recv(1)
        finally:
            for sock in idle:
                sock.close()


def test_serving_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--connections", "0"], ["--timeout", "-5"], ["--threads", "many"], ["--workers", "0"]):
        assert main(["serve", *bad]) == 2  # one line "rulings: error: serve: argument ...", no SystemExit
        assert capsys.readouterr().err.startswith("rulings: error: serve: argument ")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_fifty_switches_leave_the_server_no_more_open_files(bundled_root: Path, tmp_path: Path) -> None:
    """Three builds; ``current`` flipped between them 50 times, each switch followed by
    concurrent requests (searches on both indexes, an entry, a 404): the server's open files
    stay flat, because each knowledge base left is closed."""
    root = tmp_path / "kb"
    for number in range(3):
        shutil.copytree(current(bundled_root), root / "builds" / f"b{number}")
    (root / "current").symlink_to(Path("builds") / "b0")
    urls = [("/index.json?q=sh*", 200), ("/?q=ship&as_of=2000-11-01", 200), ("/entry/stccg:conundrum.json", 200),
            ("/entry/stccg:no-such-entry", 404)]  # fmt: skip
    with serving(root, tmp_path / "serve.log") as server:
        port = port_of(server)
        counts = []
        for switch in range(50):
            link = root / "current.new"
            link.symlink_to(Path("builds") / f"b{(switch + 1) % 3}")
            link.replace(root / "current")
            statuses: list[int] = []
            askers = [
                threading.Thread(target=lambda u=u, out=statuses: out.append(get(port, u)[0])) for u, _ in urls * 2
            ]
            for asker in askers:
                asker.start()
            for asker in askers:
                asker.join()
            assert sorted(statuses) == sorted(s for _, s in urls * 2)
            counts.append(open_files(server.pid))
    assert max(counts) - counts[4] <= 6, counts


def worker_processes(pid: int, wanted: int = 0) -> list[int]:
    """The server's worker processes; given ``wanted``, waiting (up to 5 s) until there are that
    many: gunicorn starts its workers a random fraction of 0.1 s apart, and the first may have
    answered before the last exists."""
    for _ in range(100):
        found = [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        if len(found) >= wanted:
            return found
        time.sleep(0.05)
    return found


def documents(port: int) -> list[str]:
    status, body = get(port, "/docs.json")
    assert status == 200
    return sorted(d["id"] for d in json.loads(body)["documents"])


def test_two_worker_processes_answer_and_follow_a_rebuild(
    bundled_root: Path, history_root: Path, tmp_path: Path
) -> None:
    """``--workers 2``: two gunicorn worker processes answer pages and JSON; after ``current``
    switches to another build, every answer (whichever process gives it) comes from it."""
    root = tmp_path / "kb"
    shutil.copytree(current(bundled_root), root / "builds" / "bundled")
    shutil.copytree(current(history_root), root / "builds" / "history")
    (root / "current").symlink_to(Path("builds") / "bundled")
    with serving(root, tmp_path / "serve.log", "--workers", "2", "--threads", "2") as server:
        port = port_of(server)
        status, page = get(port, "/?q=conundrum+target")
        assert status == 200 and b"results for \xe2\x80\x9cconundrum target" in page
        status, body = get(port, "/entry/stccg:conundrum.json")
        assert status == 200 and json.loads(body)["headword"] == "Conundrum"
        before = documents(port)
        assert len(worker_processes(server.pid, wanted=2)) == 2
        link = root / "current.new"
        link.symlink_to(Path("builds") / "history")
        link.replace(root / "current")
        answers = {tuple(documents(port)) for _ in range(12)}
        assert len(worker_processes(server.pid)) == 2
    assert answers == {tuple(stored_documents(history_root))}
    assert before == stored_documents(bundled_root) != stored_documents(history_root)


def stored_documents(root: Path) -> list[str]:
    """The ids of the documents in force today in the knowledge base under ``root``, as /docs.json lists them."""
    answer = KnowledgeBase(current(root)).documents_in_force(dt.date.today())
    return sorted(d["id"] for d in answer["documents"])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_busy_port_is_one_line_naming_it_and_how_to_pick_another(bundled_root: Path, workers: str) -> None:
    """With waitress and with gunicorn: no retries, no traceback, no blame on the knowledge base."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "web.cli", "serve", "--kb", str(bundled_root), "--port", str(port),
             "--workers", workers],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"rulings: error: port {port} on 127.0.0.1 is in use by another program; pick another with --port N "
        "(make run PORT=N)\n"
    )
    assert time.monotonic() - started < 60  # gunicorn alone would have tried for five seconds more


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_address_is_said_once_the_port_is_open(bundled_root: Path, tmp_path: Path, workers: str) -> None:
    """``--port 0``: the system picks a port, and the one line names it, when a client can connect."""
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web.cli", "serve", "--kb", str(bundled_root), "--port", "0", "--workers", workers],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        for _ in range(600):
            if log.read_text().endswith("\n"):
                break
            assert process.poll() is None, log.read_text()
            time.sleep(0.05)
        line = log.read_text()
        how = "one process (waitress)" if workers == "1" else "2 processes (gunicorn)"
        port = port_of_line(line)
        assert line == (
            f"serving {bundled_root} on http://127.0.0.1:{port}/ with {how} of 8 threads, up to 1000 connections "
            "each (100 a client), idle ones closed after 30 s (Ctrl-C stops)\n"
        )
        assert get(port, "/entry/stccg:conundrum.json")[0] == 200  # listening as soon as it said so
    finally:
        process.terminate()
        process.wait(timeout=30)


def port_of_line(line: str) -> int:
    """The port a ``serving ... on http://127.0.0.1:PORT/ ...`` line names."""
    return int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])


def test_the_port_is_held_from_the_check_to_gunicorn() -> None:
    """The socket that says a port is free is the socket gunicorn serves (``fd://``): no other program
    can take the port between the two (two test runs at once each saw gunicorn's "Connection in use"
    retries on port 5000 when the check's socket was closed before gunicorn bound its own)."""
    import argparse

    from web.cli.serving import bound_socket, gunicorn_settings
    from web.errors import PortInUse

    held = bound_socket("127.0.0.1", 0)
    try:
        with socket.socket(fileno=os.dup(held)) as sock:
            port = sock.getsockname()[1]
        with pytest.raises(PortInUse, match=f"^port {port} on 127.0.0.1 is in use by another program"):
            os.close(bound_socket("127.0.0.1", port))
        args = argparse.Namespace(host="127.0.0.1", port=port, workers=2, threads=8, connections=1000, timeout=30)
        assert gunicorn_settings(args, held)["bind"] == [f"fd://{held}"]
    finally:
        os.close(held)
