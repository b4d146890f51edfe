"""A damaged build cache (a flipped byte in ``parsed/*.pickle`` or ``state.pickle``) is discarded
with one warning and what it held made anew: the build that follows is the one a clean build
makes, and the read path's advice ("run 'rulings build'") works when the store is damaged too."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS
from kb.ingest.incremental import PARSED, STATE
from kb.paths import DB_NAME
from web.cli.main import main

TABLES = ("documents", "topics", "versions", "cards", "links")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "library", tmp_path / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", tmp_path / "library" / "stccg")
    return tmp_path / "library"


def rows(kb: Path) -> dict[str, list[tuple[object, ...]]]:
    """The store's rows of the tables that hold what was read, in order."""
    with closing(sqlite3.connect((kb / "current").resolve() / DB_NAME)) as db:
        names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {t: sorted(db.execute(f"SELECT * FROM {t}"), key=repr) for t in TABLES if t in names}


def flip(path: Path, at: int) -> None:
    """Flip every bit of the byte at ``at`` (from the end when negative)."""
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("at", [10, -100], ids=["frame-length", "near-the-end"])
def test_a_damaged_cache_is_discarded_with_one_warning(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], at: int
) -> None:
    kb, clean = tmp_path / "kb", tmp_path / "clean"
    assert main(["build", "--library", str(library), "--kb", str(clean)]) == 0
    assert main(["build", "--library", str(library), "--kb", str(kb)]) == 0
    build = (kb / "current").resolve()
    parsed = sorted((build / PARSED).glob("*.pickle"))
    assert len(parsed) == 5
    flip(build / STATE, at)
    flip(parsed[2], at)
    capsys.readouterr()
    assert main(["build", "--library", str(library), "--kb", str(kb)]) == 0
    out, err = capsys.readouterr()
    warnings = [line for line in out.splitlines() if "discarded" in line]
    assert warnings == [
        f"  warning: {build / STATE}: damaged (its checksum does not match its {(build / STATE).stat().st_size:,} "
        "bytes) and 1 more: discarded; this build parses and applies the documents anew"
    ]
    assert err == ""
    assert rows(kb) == rows(clean)
    assert main(["build", "--library", str(library), "--kb", str(kb)]) == 0  # the caches it made load
    assert "discarded" not in capsys.readouterr().out


def test_the_read_paths_advice_works_when_store_and_caches_are_damaged(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "kb"
    assert main(["build", "--library", str(library), "--kb", str(kb)]) == 0
    build = (kb / "current").resolve()
    (build / DB_NAME).write_bytes(b"\xa5" * 4096)
    flip(build / STATE, 10)
    capsys.readouterr()
    assert main(["show", "mission attempt", "--kb", str(kb)]) == 1
    assert capsys.readouterr().err.endswith("run 'rulings build'\n")
    assert main(["build", "--library", str(library), "--kb", str(kb)]) == 0
    capsys.readouterr()
    assert main(["show", "mission attempt", "--kb", str(kb)]) == 0
    assert capsys.readouterr().out.startswith("mission attempt  (stccg:mission-attempt), in force on ")
