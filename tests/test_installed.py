"""Installed like a library: ``pip install .`` (not editable), then ``rulings build`` and
``rulings serve`` in a directory that has a ``data/``, or with ``RULINGS_LIBRARY``."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT, SEEDS


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The package installed (a wheel, not a link to this checkout) in a directory of its own."""
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("source") / "rulings"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "instance", "build", "*.egg-info"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(target), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    shutil.rmtree(source)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULINGS_")}
    return {**env, "PYTHONPATH": str(target), "PYTHONSAFEPATH": "1"}


def rulings(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys, web.cli.main as cli; assert 'site' in cli.__file__, cli.__file__; sys.exit(cli.main())"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_build_and_serve_in_a_directory_with_data(installed: dict[str, str], tmp_path: Path) -> None:
    work = tmp_path / "judge"
    shutil.copytree(SEEDS, work / "data")
    built = rulings(installed, work, "build")
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines()[0].startswith("stccg-quick-start: 40 entries")
    assert (work / "instance" / "kb" / "current" / "kb.sqlite").is_file()
    shown = rulings(installed, work, "show", "Conundrum", "--as-of", "2001-01-01")
    assert shown.returncode == 0 and shown.stdout.startswith("Conundrum  (stccg:conundrum)"), shown.stderr
    port = free_port()
    code = "import sys, web.cli.main; sys.exit(web.cli.main.main())"
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port)], cwd=work, env=installed,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        status = 0
        for _ in range(300):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/entry/stccg:conundrum")
                response = connection.getresponse()
                status, body = response.status, response.read().decode()
                connection.close()
                break
            except OSError:
                assert server.poll() is None
                time.sleep(0.1)
        assert status == 200 and "Conundrum" in body
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_library_from_the_environment(installed: dict[str, str], tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "library")
    env = {**installed, "RULINGS_LIBRARY": str(tmp_path / "library"), "RULINGS_KB": str(tmp_path / "kb")}
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    built = rulings(env, empty, "build")
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "kb" / "current").is_dir() and not (empty / "instance").exists()
    missing = rulings(installed, empty, "build")
    assert missing.returncode == 1
    assert missing.stderr.startswith("rulings: error: ") and str(empty / "data") in missing.stderr
