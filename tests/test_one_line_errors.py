"""One line, never a traceback: a store write that fails (a file size limit, ``ulimit -f``; a
full disk is the same `sqlite3.OperationalError`), ``rulings export .``, Ctrl-C (exit 130,
nothing half-written); and UTF-16 files decoded from their byte-order mark, or refused naming
the encoding when they have none."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FIXTURES, ROOT, SEEDS
from kb import files
from rulings.model import Document, ParseError
from rulings.parse import parse_document
from rulings.source import read_source

GLOSSARY = FIXTURES / "library" / "stccg" / "glossary-1.7.txt"
UPDATE = FIXTURES / "library" / "stccg" / "current-rulings-update-2000-12-18.txt"


def rulings(
    *args: str | Path, file_limit: int | None = None, fault: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command line in a process of its own, its files limited to ``file_limit`` bytes."""

    def limit() -> None:
        interruptible()
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    env = {**{k: v for k, v in os.environ.items() if k != "RULINGS_FAULT"}, "PYTHONPATH": str(ROOT)}
    env |= {"RULINGS_FAULT": fault} if fault else {}
    command = [sys.executable, "-m", "web.cli", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, preexec_fn=limit, check=False)


def interruptible() -> None:
    """Let the child be interrupted: a shell's background job (a test run with ``&``) ignores
    SIGINT, and a Python started so would never see Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "library", tmp_path / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", tmp_path / "library" / "stccg")
    return tmp_path / "library"


@pytest.mark.parametrize("limit", [4_096, 32_768, 131_072])
def test_a_store_write_that_fails_is_one_line_and_leaves_the_kb_in_service(
    library: Path, tmp_path: Path, limit: int
) -> None:
    kb = tmp_path / "kb"
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    served = tree(kb)
    failed = rulings("build", "--library", library, "--kb", kb, file_limit=limit)
    assert (failed.returncode, failed.stderr) == (
        1,
        f"rulings: error: {kb}: cannot write the new build's store: disk I/O error\n",
    )
    assert tree(kb) == served
    new = tmp_path / "new.txt"
    new.write_bytes(UPDATE.read_bytes().replace(b"cards stay", b"cards remain"))
    before = tree(library)
    added = rulings("add", new, "--kind", "current-rulings-update", "--date", "2000-12-18", "--library", library,
                    "--kb", kb, file_limit=limit)  # fmt: skip
    assert (added.returncode, added.stderr) == (
        1,
        f"rulings: error: {kb}: cannot write the new build's store: disk I/O error\n",
    )
    assert tree(library) == before
    assert tree(kb) == served


def test_export_to_the_current_folder_is_refused_in_one_line(bundled_root: Path, tmp_path: Path) -> None:
    for name in (".", ".."):
        done = subprocess.run(
            [sys.executable, "-m", "web.cli", "export", name, "--kb", str(bundled_root)],
            capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (
            f"rulings: error: {name}: is the current folder or holds it; the export replaces its folder whole, "
            "so name the folder it writes (e.g. 'site'), not the one you are in\n"
        )
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_is_one_line_and_exit_130(library: Path, tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "web.cli", "build", "--library", str(library), "--kb", str(kb), "--wait", "60"]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, "env": env}
    with (
        files.hold(kb.resolve(), 0, "test"),  # the build waits for this lock: Ctrl-C comes while it waits
        subprocess.Popen(command, preexec_fn=interruptible, **pipes) as build,  # type: ignore[call-overload]
    ):
        assert build.stderr is not None
        waiting = build.stderr.readline()
        build.send_signal(signal.SIGINT)
        out, err = build.communicate(timeout=60)
    assert waiting == f"rulings: waiting for another build or add on {kb.resolve()} (up to 60 s)\n"
    assert (build.returncode, out, err) == (130, "", "rulings: interrupted; nothing half-written was left\n")
    assert not (kb / "current").exists() and list(kb.glob("builds/.*.tmp")) == []


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_file_with_a_wide_byte_order_mark_is_decoded(tmp_path: Path, encoding: str) -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    wide = tmp_path / "glossary.txt"
    wide.write_bytes(("\ufeff" + text).encode(encoding) if encoding.endswith("be") else text.encode(encoding))
    source = read_source(wide)
    assert source.lines == read_source(GLOSSARY).lines
    assert source.encoding == {"utf-16": "utf-16-le", "utf-16-be": "utf-16-be", "utf-32": "utf-32-le"}[encoding]
    entries = [(e.headword, e.text) for e in parse_document(Document("g", str(wide), "stccg", "glossary", "G")).entries]
    original = parse_document(Document("g", str(GLOSSARY), "stccg", "glossary", "G")).entries
    assert entries == [(e.headword, e.text) for e in original]


@pytest.mark.parametrize(("encoding", "named"), [("utf-16-le", "little-endian"), ("utf-16-be", "big-endian")])
def test_utf16_without_a_byte_order_mark_is_refused_naming_it(tmp_path: Path, encoding: str, named: str) -> None:
    wide = tmp_path / "glossary.txt"
    wide.write_bytes(GLOSSARY.read_text(encoding="utf-8").encode(encoding))
    with pytest.raises(ParseError) as caught:
        read_source(wide)
    assert (
        str(caught.value) == f"{wide}:1: looks like UTF-16 ({named}) without a byte-order mark; save the file as UTF-8"
    )


@pytest.mark.parametrize("step", ["after-copy", "after-manifest", "mid-build", "before-switch"])
def test_ctrl_c_during_an_add_puts_everything_back(library: Path, tmp_path: Path, step: str) -> None:
    kb = tmp_path / "kb"
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    before, served = tree(library), tree(kb)
    new = tmp_path / "new.txt"
    new.write_bytes(UPDATE.read_bytes().replace(b"cards stay", b"cards remain"))
    added = rulings("add", new, "--kind", "current-rulings-update", "--date", "2000-12-18", "--library", library,
                    "--kb", kb, fault=f"{step}:sigint")  # fmt: skip
    assert (added.returncode, added.stdout, added.stderr) == (
        130,
        "",
        "rulings: interrupted; nothing half-written was left\n",
    )
    assert tree(library) == before
    assert tree(kb) == served
