"""A knowledge base damaged in part (a page of the store, the build date, the vocabulary, an
index's table of contents or segment cut short) answers with one line naming the file and
``rulings build`` on the command line (exit status 1), and a 503 page on the web, never a
traceback. Each case damages a copy of the bundled knowledge base, then asks the real CLI (in a
process of its own) and the real app for an answer that reads the damaged file."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from kb.paths import BUILT_ON, CURRENT_DIR, DB_NAME, INDEX_DIR, VOCABULARY, current
from web.app import create_app

PAGE = 4096


def versions_page(build: Path) -> Path:
    """Overwrite the middle page of the ``versions`` table's rows with garbage."""
    path = build / DB_NAME
    with closing(sqlite3.connect(path)) as db:
        try:
            pages = [n for (n,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'versions' AND pagetype = 'leaf' "
                                              "ORDER BY pageno")]  # fmt: skip
        except sqlite3.OperationalError:
            pytest.skip("this SQLite has no dbstat table to find the pages of a table with")
        size = db.execute("PRAGMA page_size").fetchone()[0]
    page = pages[len(pages) // 2]
    with path.open("r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xa5" * size)
    return path


def garbage_date(build: Path) -> Path:
    (build / BUILT_ON).write_bytes(b"garbage")
    return build / BUILT_ON


def cut(path: Path, keep: int) -> Path:
    path.write_bytes(path.read_bytes()[:keep])
    return path


def short_vocabulary(build: Path) -> Path:
    return cut(build / VOCABULARY, 10)


def short_toc(folder: str) -> Callable[[Path], Path]:
    def damage(build: Path) -> Path:
        return cut(next((build / folder).glob("_MAIN_*.toc")), 100)

    return damage


def short_history_segment(build: Path) -> Path:
    segment = next((build / INDEX_DIR).glob("*.seg"))
    return cut(segment, segment.stat().st_size // 2)


CASES = {
    "a page of the store": (versions_page, ["diff", "1990-01-01", "2030-01-01"], "/diff?from=1990-01-01&to=2030-01-01",
                            "DatabaseError: database disk image is malformed"),
    "the build date": (garbage_date, ["show", "Conundrum"], "/entry/stccg:conundrum",
                       "ValueError: Invalid isoformat string: 'garbage'"),
    "the vocabulary": (short_vocabulary, ["search", "conundrum"], "/?q=conundrum",
                       "JSONDecodeError: Expecting value: line 1 column 11 (char 10)"),
    "the in-force index's contents": (short_toc(CURRENT_DIR), ["search", "conundrum", "--exact"],
                                      "/?q=conundrum&exact=1", "EOFError: Ran out of input"),
    "the history index's contents": (short_toc(INDEX_DIR), ["search", "conundrum", "--all", "--exact"],
                                     "/?q=conundrum&as_of=2000-11-01&exact=1", "EOFError: Ran out of input"),
    "a history segment": (short_history_segment, ["search", "conundrum", "--all", "--exact"],
                          "/?q=conundrum&as_of=2000-11-01&exact=1", "EOFError: Ran out of input"),
}  # fmt: skip


@pytest.fixture
def damaged(bundled_root: Path, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, Path]:
    """A copy of the bundled knowledge base with one file damaged, and that file."""
    build = current(bundled_root)
    kb = tmp_path / "kb"
    shutil.copytree(build, kb / "builds" / build.name)
    (kb / "current").symlink_to(Path("builds") / build.name)
    damage = CASES[request.param][0]
    return kb, damage(kb / "builds" / build.name)


@pytest.mark.parametrize("damaged", list(CASES), indirect=True)
def test_a_damaged_file_is_one_line_naming_it_and_a_503(
    damaged: tuple[Path, Path], request: pytest.FixtureRequest
) -> None:
    kb, path = damaged
    _, command, url, detail = CASES[request.node.callspec.params["damaged"]]
    line = f"{path}: damaged, cannot be read ({detail}); run 'rulings build'"
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_KB"}
    done = subprocess.run([sys.executable, "-m", "web.cli", *command, "--kb", str(kb)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"rulings: error: {line}\n")
    client = create_app({"KB": str(kb)}).test_client()
    page = client.get(url)
    assert page.status_code == 503
    body = page.get_data(as_text=True)
    assert line.replace("'", "&#39;") in body and "Traceback" not in body
