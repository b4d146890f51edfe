"""The README documents every CLI command and the two first-screen commands."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

import pytest

from helpers import ROOT
from web.cli.main import parser

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_is_documented() -> None:
    commands = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    missing = [name for name in commands if f"rulings {name}" not in README]
    assert missing == []


def test_first_screen_gives_make_run_and_make_test() -> None:
    first_screen = README.split("---")[0]
    assert [line.split("#")[0].strip() for line in first_screen.splitlines() if line.startswith("make ")] == [
        "make run",
        "make test",
    ]


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    assert len(README.splitlines()) < 300
    written_elsewhere = {"docs/benchmarks.md"}  # the benchmarks' page, written with the benchmarks
    targets = {link.split("#")[0] for link in re.findall(r"\]\(([^)#][^)]*)\)", README) if "://" not in link}
    assert sorted(t for t in targets - written_elsewhere if not (ROOT / t).exists()) == []
    assert "docs/benchmarks.md" in targets and "### Benchmark" not in README


def test_the_dependencies_are_those_pyproject_requires() -> None:
    required = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = [re.split(r"[<>=!~; ]", requirement, maxsplit=1)[0].lower() for requirement in required]
    said = README.split("## Dependencies", 1)[1].split("\n## ", 1)[0].lower()
    assert [name for name in names if name not in said] == []
    assert "numpy" in names


def test_make_run_serves_the_checkout_on_the_port_asked() -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    planned = subprocess.run(["make", "-n", "-W", "pyproject.toml", "run", "PORT=5123"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.splitlines()  # fmt: skip
    assert ".venv/bin/rulings build --library data --kb instance/kb" in planned
    assert ".venv/bin/rulings serve --kb instance/kb --host 127.0.0.1 --port 5123 " in planned
