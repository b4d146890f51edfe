"""Smaller hostile cases (issue 22, item 10): a full disk's error names where the write failed,
and the real server refuses a request giving both Content-Length and Transfer-Encoding instead
of answering what was hidden after its body."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_serve import port_of, serving

from helpers import ROOT, SEEDS

SMUGGLED = (b"POST /index.json HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"0\r\n\r\nGET /entry/stccg:conundrum.json HTTP/1.1\r\nHost: x\r\n\r\n")  # fmt: skip


def test_a_full_disk_names_the_knowledge_base_being_built(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    env = {**{k: v for k, v in os.environ.items() if k != "RULINGS_FAULT"}, "RULINGS_FAULT": "mid-build:enospc"}
    run = subprocess.run([sys.executable, "-m", "web.cli", "build", "--library", str(SEEDS), "--kb", str(kb)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert (run.returncode, run.stderr) == (1, f"rulings: error: {kb}: No space left on device\n")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_content_length_with_chunked_is_refused_and_nothing_after_it_answered(
    bundled_root: Path, tmp_path: Path, workers: str
) -> None:
    with (
        serving(bundled_root, tmp_path / "log", "--workers", workers) as server,
        socket.create_connection(("127.0.0.1", port_of(server)), timeout=10) as client,
    ):
        client.sendall(SMUGGLED)
        answer = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (chunk := client.recv(65536)):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.0 400 Bad Request" and b"Connection: close" in head
    assert b"a request may give Content-Length or Transfer-Encoding, not both" in body
    assert answer.count(b"HTTP/1.") == 1  # the connection closed: the hidden GET never answered
