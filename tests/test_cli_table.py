"""README.md's table of commands is the one the argument parser makes."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT
from web.cli.main import commands_markdown, parser

START, END = "<!-- commands -->\n", "<!-- /commands -->\n"


def test_the_readme_lists_the_commands_of_the_parser() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(START) == 1 and text.count(END) == 1
    block = text.split(START)[1].split(END)[0]
    table = commands_markdown()
    assert block == table, (
        "README.md's table of commands differs from the parser's; put this between "
        f"{START.strip()} and {END.strip()} (python -m web.cli --commands-markdown prints it):\n{table}"
    )


def test_the_table_of_commands() -> None:
    top = parser()
    lines = commands_markdown().splitlines()
    assert lines[:2] == ["| command | what it does |", "| --- | --- |"]
    assert [line.split("`")[1] for line in lines[2:]] == [f"rulings {name}" for name in top.summaries]
    assert list(top.summaries) == [
        "parse", "build", "show", "blame", "history", "diff", "card", "cards", "deck", "search", "docs", "version",
        "serve", "add", "follow", "update", "games", "export",
    ]  # fmt: skip
    assert lines[3] == "| `rulings build` | build the knowledge base from a library |"
    printed = subprocess.run([sys.executable, "-m", "web.cli", "--commands-markdown"], cwd=ROOT, capture_output=True,
                             text=True, check=True)  # fmt: skip
    assert printed.stdout == commands_markdown()
