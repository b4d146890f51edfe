"""The README documents every CLI command and the two first-screen commands."""

from __future__ import annotations

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
