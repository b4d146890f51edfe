"""The README's examples are true (issue 52 item 6): each command of "The five things people do"
runs against the bundled library, in the README's order (``rulings add`` last, adding to a copy of
it), and prints the lines the README shows. A line ``...`` (indented or not) stands for any number of lines, ``...``
within a line for any text (a build's folder, its time), and a date the README shows may be
today's (the answers are "as of" the day they are asked)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, SEEDS, SHARED

README = (ROOT / "README.md").read_text(encoding="utf-8")
ADDED = SHARED / "real" / "1e-cr-update-2001-12-05-forum-repost.txt"
"""The document the README's fifth example adds (from the project's shared documents)."""
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def examples(text: str) -> list[tuple[str, list[str]]]:
    """The commands of the section "The five things people do" (``$ ...`` first in a block)
    with the lines shown after each."""
    section = text.split("## The five things people do", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"^```\n(.*?)^```$", section, re.S | re.M):
        first, *shown = block.rstrip("\n").split("\n")
        if first.startswith("$ "):
            found.append((first[2:], shown))
    return found


def _pattern(line: str, today: str) -> re.Pattern[str]:
    """A shown line as a pattern: ``...`` any text, a date that date or today."""
    parts = []
    for piece in re.split(r"(\.\.\.|\d{4}-\d{2}-\d{2})", line):
        if piece == "...":
            parts.append(".*")
        elif _DATE.fullmatch(piece):
            parts.append(f"(?:{re.escape(piece)}|{re.escape(today)})")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def agrees(shown: list[str], printed: list[str], today: str) -> bool:
    """Whether ``printed`` is ``shown``, its ``...`` lines standing for any lines."""
    if not shown:
        return not printed
    if shown[0].strip() == "...":
        return any(agrees(shown[1:], printed[at:], today) for at in range(len(printed) + 1))
    return (
        bool(printed)
        and bool(_pattern(shown[0], today).fullmatch(printed[0]))
        and agrees(shown[1:], printed[1:], today)
    )


def test_the_pattern_rules() -> None:
    shown = ["Deck of 1 card, rulings in force on 2026-12-02", "    ...", "built .../builds/... in ... s"]
    printed = ["Deck of 1 card, rulings in force on 2030-01-01", "a", "b", "built /k/builds/2030 in 0.4 s"]
    assert agrees(shown, printed, "2030-01-01")
    assert not agrees(shown, printed, "2030-01-02")
    assert not agrees(shown, [*printed, "one line more"], "2030-01-01")
    assert [command for command, _ in examples(README)] == [
        'rulings search "can conundrum target a cloaked ship" --limit 1',
        "rulings show Conundrum --as-of 2001-01-01",
        "rulings diff 2000-01-01 2001-01-01",
        "printf '1 Conundrum\\n' | rulings deck -",
        "rulings add 1e-cr-update-2001-12-05-forum-repost.txt --kind current-rulings-update --date 2001-12-05"
        ' --title "Current Rulings Update"',
    ]


@pytest.mark.skipif(not ADDED.exists(), reason=f"{ADDED} is absent (the README's 'rulings add' adds it)")
def test_each_example_prints_the_lines_the_readme_shows(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "library")
    shutil.copy(ADDED, tmp_path)
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "RULINGS_KB": str(tmp_path / "kb"), "RULINGS_LIBRARY": str(tmp_path / "library")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    subprocess.run(["rulings", "build"], env=env, cwd=tmp_path, check=True, capture_output=True)
    wrong = []
    for command, shown in examples(README):
        assert shlex.split(command)[0] in {"rulings", "printf"}
        run = subprocess.run(["bash", "-c", command], env=env, cwd=tmp_path, capture_output=True, text=True)
        today = dt.date.today().isoformat()
        if run.returncode != 0 or not agrees(shown, run.stdout.rstrip("\n").split("\n"), today):
            wrong.append(f"$ {command}\n{run.stdout}{run.stderr}")
    assert wrong == []
