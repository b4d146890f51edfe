"""A damaged build cache (a flipped byte in ``parsed/*.pickle`` or ``state.pickle``) is discarded
with one warning and what it held made anew: the build that follows is the one a clean build
makes, and the read path's advice ("run 'rulings build'") works when the store is damaged too."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS
from kb.ingest.incremental import PARSED, STATE
from kb.ingest.library import add_document
from kb.ingest.pipeline import build
from kb.paths import DB_NAME
from web.cli.main import main

TABLES = ("documents", "topics", "versions", "cards", "links")
HEAD = "STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n3/5/01\n\nRULINGS\n\n"


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


def test_an_add_onto_a_damaged_store_is_a_full_build_that_says_so(library: Path, tmp_path: Path) -> None:
    """An add extends the build in service; one whose store changed since it was built (a bit of
    a ruling flipped) is not extended but built anew, with one warning naming the store (#48 item 5)."""
    kb = tmp_path / "kb"
    build(library, kb)
    store = (kb / "current").resolve() / DB_NAME
    data = bytearray(store.read_bytes())
    data[data.index(b"You may not target") + len(b"You may no")] ^= 0x02
    store.write_bytes(bytes(data))
    new = tmp_path / "current-rulings-update-2001-03-05.txt"
    new.write_text(HEAD + "outpost placement - Playing an outpost where you have a ship is allowed.\n")
    report = add_document(new, kind="current-rulings-update", date=dt.date(2001, 3, 5), library=library, kb=kb)
    assert report.full == "no build in service saved its state with this code"
    assert [w.split(" (")[0] for w in report.warnings if "discarded" in w] == [f"{store}: damaged, cannot be read"]
    assert "changed since it was built: CRC-32 " in report.warnings[0]
    assert rows(kb) == rows(build(library, tmp_path / "clean").directory.parent.parent)
