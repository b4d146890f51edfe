"""The house no tool hides: every tracked Python file is one that `make lint` checks, and no source
folder is ignored by git (a new module in an ignored folder would be left out of a commit, and out
of ruff's checks, which honour `.gitignore`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

RUFF = Path(sys.executable).with_name("ruff")


def _git(*args: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.split()


def _lint_paths() -> list[str]:
    """The paths `make lint` gives ruff, read from the Makefile itself."""
    found = re.search(r"^\t\$\(BIN\)/ruff check (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "Makefile: no 'ruff check' line under lint"
    return found.group(1).split()


def test_every_tracked_python_file_is_checked_by_lint() -> None:
    tracked = set(_git("ls-files", "*.py"))
    if not RUFF.exists():
        pytest.skip(f"{RUFF}: ruff is not installed beside this Python")
    shown = subprocess.run(
        [str(RUFF), "check", "--show-files", *_lint_paths()], cwd=ROOT, capture_output=True, text=True, check=True
    )
    checked = {str(Path(line).resolve().relative_to(ROOT.resolve())) for line in shown.stdout.split()}
    assert sorted(tracked - checked) == []


def test_no_source_folder_is_ignored_by_git() -> None:
    folders = sorted({str(Path(p).parent) for p in _git("ls-files") if "/" in p})
    probes = [f"{folder}/new_module.py" for folder in folders]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *probes], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert ignored.stdout.split() == []
