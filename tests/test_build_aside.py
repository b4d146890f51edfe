"""The history index is written aside, in a forked child (`kb.index.aside`), and a child that fails
fails the build: its error is the build's one error line, and nothing is published.

Each run is a real process: the CLI (``RULINGS_FAULT=history`` kills the child at the start
of its work, ``history:enospc`` fails it as a full disk would), or a small script calling
`kb.index.aside.aside` (a test process may run other threads, where `aside` rightly does not fork).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from whoosh import index

from helpers import SEEDS
from kb.ingest.pipeline import build

ROOT = Path(__file__).resolve().parent.parent


def rulings(*args: str | Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_FAULT"}
    if fault:
        env["RULINGS_FAULT"] = fault
    command = [sys.executable, "-m", "web.cli", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False, cwd=ROOT)


def script(body: str) -> subprocess.CompletedProcess[str]:
    """Run ``body`` (after ``from kb.index.aside import aside``) in a new Python process."""
    code = "import os, sys, time\nfrom kb.index.aside import aside\n" + body
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT
    )


def hidden(kb: Path) -> list[Path]:
    return sorted([*kb.glob(".*"), *(kb / "builds").glob(".*")])


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("history:enospc", "rulings: error: [Errno 28] No space left on device: '{kb}/builds/.{build}/index'\n"),
        ("history", "rulings: error: the history index was not written: its process {} failed (killed by signal 9)\n"),
    ],
)
def test_a_failing_history_child_fails_the_build_and_publishes_nothing(
    tmp_path: Path, fault: str, message: str
) -> None:
    kb = tmp_path / "kb"
    assert rulings("build", "--library", SEEDS, "--kb", kb).returncode == 0
    served = os.readlink(kb / "current")
    builds = sorted(p.name for p in (kb / "builds").iterdir())
    failed = rulings("build", "--library", SEEDS, "--kb", kb, fault=fault)
    assert failed.returncode == 1
    lines = failed.stderr.splitlines(keepends=True)
    assert len(lines) == 1
    if "{}" in message:
        pid = lines[0].split("its process ")[1].split(" ")[0]
        assert pid.isdigit() and message.format(pid) == lines[0]
    else:  # the full disk's error names the index being written (issue 22, item 10)
        build = lines[0].split("/builds/.")[1].split("/")[0]
        assert re.fullmatch(r"\d{8}T\d{12}\.\d+\.tmp", build) and lines[0] == message.format(kb=kb, build=build)
    assert os.readlink(kb / "current") == served
    assert sorted(p.name for p in (kb / "builds").iterdir()) == builds
    assert hidden(kb) == []


def test_the_work_runs_in_another_process_and_its_error_comes_back() -> None:
    done = script(
        "import errno\n"
        "def work():\n"
        "    raise OSError(errno.ENOSPC, f'full in {os.getpid()}')\n"
        "try:\n"
        "    with aside(work, 'the thing') as pid:\n"
        "        print(pid is not None and pid != os.getpid())\n"
        "except OSError as err:\n"
        "    print(err.errno, err.strerror == f'full in {pid}', 'writing the thing' in err.__notes__[0])\n"
    )
    assert (done.stdout, done.stderr) == ("True\n28 True True\n", "")


def test_an_error_of_the_block_kills_the_child() -> None:
    done = script(
        "def work():\n"
        "    time.sleep(600)\n"
        "try:\n"
        "    with aside(work, 'the thing') as pid:\n"
        "        raise KeyError('parent')\n"
        "except KeyError as err:\n"
        "    gone = True\n"
        "    try:\n"
        "        os.kill(pid, 0)\n"
        "        gone = False\n"
        "    except ProcessLookupError:\n"
        "        pass\n"
        "    print(err, gone)\n"
    )
    assert (done.stdout, done.stderr) == ("'parent' True\n", "")


def test_without_a_fork_the_work_is_done_first_here() -> None:
    done = script(
        "import threading\n"
        "stop = threading.Event()\n"
        "other = threading.Thread(target=stop.wait)\n"
        "other.start()\n"
        "order = []\n"
        "with aside(lambda: order.append(os.getpid()), 'the thing') as pid:\n"
        "    order.append(pid)\n"
        "stop.set()\n"
        "print(order == [os.getpid(), None])\n"
    )
    assert (done.stdout, done.stderr) == ("True\n", "")


def test_a_build_with_the_history_child_equals_one_without(tmp_path: Path) -> None:
    """The same library built by the CLI (history written aside) and in this test process with a
    thread running (no fork): the same stored documents in both indexes."""
    forked = tmp_path / "forked"
    assert rulings("build", "--library", SEEDS, "--kb", forked).returncode == 0
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build(SEEDS, tmp_path / "serial")
    finally:
        stop.set()
        other.join()
    for name in ("index", "index-current"):
        found = []
        for kb in (forked, tmp_path / "serial"):
            with index.open_dir(str((kb / "current").resolve() / name)).searcher() as searcher:
                found.append(sorted(repr(sorted(f.items())) for f in searcher.all_stored_fields()))
        assert found[0] == found[1] and found[0]
    shutil.rmtree(tmp_path / "serial")


def test_a_build_killed_while_its_child_writes_leaves_nothing_the_next_build_keeps(tmp_path: Path) -> None:
    """Killed after the fork (``mid-build``: the child is writing the history index), the build's
    child dies too and frees the staging directory: the next build removes it."""
    kb = tmp_path / "kb"
    killed = rulings("build", "--library", SEEDS, "--kb", kb, fault="mid-build")
    assert killed.returncode == -signal.SIGKILL
    assert len(hidden(kb)) == 1
    assert rulings("build", "--library", SEEDS, "--kb", kb).returncode == 0
    assert hidden(kb) == []


def test_the_child_dies_with_its_parent() -> None:
    done = script(
        "def work():\n"
        "    time.sleep(600)\n"
        "with aside(work, 'the thing') as pid:\n"
        "    print(pid, flush=True)\n"
        "    os.kill(os.getpid(), 9)\n"
    )
    assert done.returncode == -signal.SIGKILL
    child = int(done.stdout)
    try:
        for _ in range(100):  # the kernel kills it at once; bounded wait for the kill to land
            if not alive(child):
                break
            time.sleep(0.05)
        assert not alive(child)
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and not yet reaped by init, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
