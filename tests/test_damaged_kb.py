"""A knowledge base damaged in part (a page of the store, the build date, the vocabulary, an
index's table of contents or segment cut short) answers with one line naming the file and
``rulings build`` on the command line (exit status 1), and a 503 page on the web, never a
traceback. Each case damages a copy of the bundled knowledge base, then asks the real CLI (in a
process of its own) and the real app for an answer that reads the damaged file."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from kb.checksums import CHECKSUMS
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


def flipped_ruling(build: Path) -> Path:
    """Flip one bit of Conundrum's ruling in the store: "may not target" reads "may nov target"."""
    path = build / DB_NAME
    data = bytearray(path.read_bytes())
    at = data.index(b"You may not target") + len(b"You may no")
    data[at] ^= 0x02
    path.write_bytes(bytes(data))
    return path


def no_vocabulary(build: Path) -> Path:
    (build / VOCABULARY).unlink()
    return build / VOCABULARY


CHANGED = "changed since it was built: CRC-32 [0-9a-f]{8}, the build wrote [0-9a-f]{8}"
CASES = {
    "a page of the store": (versions_page, ["diff", "1990-01-01", "2030-01-01"], "/diff?from=1990-01-01&to=2030-01-01",
                            "DatabaseError: database disk image is malformed", CHANGED),
    "the build date": (garbage_date, ["show", "Conundrum"], "/entry/stccg:conundrum",
                       "ValueError: Invalid isoformat string: 'garbage'", "7 bytes, the build wrote 10"),
    "the vocabulary": (short_vocabulary, ["search", "conundrum"], "/?q=conundrum",
                       "JSONDecodeError: Expecting value: line 1 column 11 (char 10)",
                       r"10 bytes, the build wrote \d+"),
    "the in-force index's contents": (short_toc(CURRENT_DIR), ["search", "conundrum", "--exact"],
                                      "/?q=conundrum&exact=1", "EOFError: Ran out of input",
                                      r"100 bytes, the build wrote \d+"),
    "the history index's contents": (short_toc(INDEX_DIR), ["search", "conundrum", "--all", "--exact"],
                                     "/?q=conundrum&as_of=2000-11-01&exact=1", "EOFError: Ran out of input",
                                     r"100 bytes, the build wrote \d+"),
    "a history segment": (short_history_segment, ["search", "conundrum", "--all", "--exact"],
                          "/?q=conundrum&as_of=2000-11-01&exact=1", "EOFError: Ran out of input",
                          r"\d+ bytes, the build wrote \d+"),
    "a bit of a ruling": (flipped_ruling, ["show", "Conundrum"], "/entry/stccg:conundrum", None, CHANGED),
    "the vocabulary gone": (no_vocabulary, ["search", "conundrom"], "/?q=conundrom", None,
                            "missing: the build wrote it"),
}  # fmt: skip
"""Each damage: the command and the page that read the damaged file, what the file's own reading
says (None: it reads, and answers wrongly or less), and what the build's checksums say (`kb.checksums`,
an expression)."""


@pytest.fixture
def damaged(bundled_root: Path, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, Path]:
    """A copy of the bundled knowledge base with one file damaged, and that file; for a case
    ending in " unchecked", without the build's checksums (a build made before they were kept)."""
    build = current(bundled_root)
    kb = tmp_path / "kb"
    shutil.copytree(build, kb / "builds" / build.name)
    (kb / "current").symlink_to(Path("builds") / build.name)
    if request.param.endswith(" unchecked"):
        (kb / "builds" / build.name / CHECKSUMS).unlink()
    damage = CASES[request.param.removesuffix(" unchecked")][0]
    return kb, damage(kb / "builds" / build.name)


def answered(kb: Path, command: list[str], url: str) -> tuple[subprocess.CompletedProcess[str], int, str]:
    """What the real CLI (a process of its own) and the real app answer."""
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_KB"}
    done = subprocess.run([sys.executable, "-m", "web.cli", *command, "--kb", str(kb)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    page = create_app({"KB": str(kb)}).test_client().get(url)
    return done, page.status_code, page.get_data(as_text=True)


@pytest.mark.parametrize("damaged", list(CASES), indirect=True)
def test_a_damaged_file_is_one_line_naming_it_and_a_503(
    damaged: tuple[Path, Path], request: pytest.FixtureRequest
) -> None:
    kb, path = damaged
    _, command, url, _, detail = CASES[request.node.callspec.params["damaged"]]
    done, status, body = answered(kb, command, url)
    start = re.escape(f"{path}: damaged, cannot be read (")
    assert (done.returncode, done.stdout) == (1, "")
    end = re.escape("); run 'rulings build'")
    assert re.fullmatch(f"rulings: error: {start}{detail}{end}\n", done.stderr)
    assert status == 503 and "Traceback" not in body
    assert re.search(start + detail + re.escape("); run &#39;rulings build&#39;"), body)


UNCHECKED = [f"{case} unchecked" for case, (*_, own, _) in CASES.items() if own is not None]


@pytest.mark.parametrize("damaged", UNCHECKED, indirect=True)
def test_a_build_without_checksums_still_says_what_its_files_reading_found(
    damaged: tuple[Path, Path], request: pytest.FixtureRequest
) -> None:
    kb, path = damaged
    _, command, url, detail, _ = CASES[request.node.callspec.params["damaged"].removesuffix(" unchecked")]
    line = f"{path}: damaged, cannot be read ({detail}); run 'rulings build'"
    done, status, body = answered(kb, command, url)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"rulings: error: {line}\n")
    assert status == 503 and line.replace("'", "&#39;") in body and "Traceback" not in body


def test_every_file_a_reader_reads_is_listed_with_its_size(bundled_root: Path) -> None:
    build = current(bundled_root)
    wrote = json.loads((build / CHECKSUMS).read_text())
    assert [name for name in wrote if "/" not in name] == [DB_NAME, VOCABULARY, BUILT_ON, "default_game.txt"]
    assert {name.split("/")[0] for name in wrote if "/" in name} == {INDEX_DIR, CURRENT_DIR}
    assert all(wrote[name]["size"] == (build / name).stat().st_size for name in wrote)
    assert wrote[DB_NAME]["crc32"] == f"{zlib.crc32((build / DB_NAME).read_bytes()):08x}"
