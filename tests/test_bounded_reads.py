"""Inputs are read with their size limit kept while reading: an endless device or pipe is refused
at once, in one line naming it, with little memory (issue 22, item 7)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from rulings.source import MAX_BYTES
from web.cli.answers import DECK_BYTES

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 1 << 30
"""Address space each command may use: far less than an endless read would take."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def rulings(*arguments: str, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "web.cli", *arguments], cwd=ROOT, stdin=stdin,
                          capture_output=True, text=True, timeout=120, preexec_fn=_limited)  # fmt: skip


def test_a_deck_from_an_endless_device_or_pipe_is_refused_in_one_line(bundled_root: Path) -> None:
    run = rulings("deck", "/dev/zero", "--kb", str(bundled_root))
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (f"rulings: error: /dev/zero:1: the deck list is over {DECK_BYTES:,} bytes "
                          f"(limit {DECK_BYTES:,}); a deck list is a few kB\n")  # fmt: skip
    with open("/dev/zero", "rb") as endless:
        run = rulings("deck", "-", "--kb", str(bundled_root), stdin=endless.fileno())
    assert run.returncode == 1
    assert run.stderr == (f"rulings: error: standard input:1: the deck list is over {DECK_BYTES:,} bytes "
                          f"(limit {DECK_BYTES:,}); a deck list is a few kB\n")  # fmt: skip
    run = rulings("diff", "2000-01-01", "2001-01-01", "--deck", "/dev/zero", "--kb", str(bundled_root))
    assert run.returncode == 1 and run.stderr.startswith("rulings: error: /dev/zero:1: the deck list is over")


def test_a_deck_list_that_is_not_utf8_is_named(bundled_root: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"1x Nebula\n2x Q-Flash\n\xff\xfe broken\n")
    run = rulings("deck", str(deck), "--kb", str(bundled_root))
    assert (run.returncode, run.stderr) == (1, f"rulings: error: {deck}:3: the deck list is not UTF-8 text\n")


def test_a_card_file_that_is_a_device_is_refused_in_one_line(tmp_path: Path) -> None:
    run = rulings("build", "--library", str(ROOT / "data"), "--kb", str(tmp_path / "kb"), "--cards", "/dev/zero")
    refused = "/dev/zero:1: not a regular file (a character device); expected a plain-text file"
    assert (run.returncode, run.stderr) == (1, f"rulings: error: {refused}; no card read from this card file\n")


def test_the_limits_are_honest() -> None:
    assert DECK_BYTES == 1_000_000  # 500 card lines, the most read, are under 40 kB
    assert MAX_BYTES == 8_000_000  # parsed at up to 2.1 s a megabyte (hostile text): at most about 17 s
