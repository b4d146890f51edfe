"""A card catalog imported with ``rulings build --cards`` is part of the library: kept in its
``cards/`` folder, named by ``[[cards]]`` tables of the manifest, imported again by every add and
build, and ``build --check`` tells when the knowledge base in service imported other card files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS, SHARED
from web.cli.main import main

PHYSICAL = SHARED / "cards" / "Physical.csv"
VIRTUAL = SHARED / "cards" / "Virtual.csv"
pytestmark = pytest.mark.skipif(
    not (PHYSICAL.is_file() and VIRTUAL.is_file()), reason="../shared/cards/Physical.csv or Virtual.csv is absent"
)
UPDATE = FIXTURES / "library" / "stccg" / "current-rulings-update-2000-12-18.txt"
TABLES = b'\n[[cards]]\nfile = "cards/Physical.csv"\n\n[[cards]]\nfile = "cards/Virtual.csv"\n'


def cards_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("cards: "))


def test_an_imported_catalog_survives_adds_and_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library, kb = shutil.copytree(SEEDS, tmp_path / "library"), str(tmp_path / "kb")
    before = (library / "library.toml").read_bytes()
    at = ["--library", str(library), "--kb", kb]
    assert main(["build", *at, "--cards", str(PHYSICAL), "--cards", str(VIRTUAL)]) == 0
    out = capsys.readouterr().out
    assert cards_line(out) == "cards: 4727 in the catalog (6281 rows imported), 195 links"
    assert (
        "  kept in the library as cards/Physical.csv, cards/Virtual.csv ([[cards]] in library.toml): "
        "every build and add imports them"
    ) in out.splitlines()
    assert (library / "library.toml").read_bytes() == before + TABLES
    assert (library / "cards" / "Physical.csv").read_bytes() == PHYSICAL.read_bytes()
    assert main(["add", str(UPDATE), "--kind", "current-rulings-update", "--date", "2000-12-18", *at]) == 0
    capsys.readouterr()
    assert main(["card", "Haakona", "--kb", kb]) == 0
    assert capsys.readouterr().out.startswith("Haakona  (Ship, Romulan, stccg)")
    assert main(["build", *at]) == 0
    assert cards_line(capsys.readouterr().out) == "cards: 4727 in the catalog (6281 rows imported), 207 links"
    assert main(["build", *at, "--cards", str(PHYSICAL)]) == 0  # imported again: named once
    assert (library / "library.toml").read_bytes().count(b"[[cards]]") == 2
    assert main(["build", "--check", *at]) == 0
    capsys.readouterr()
    with (library / "cards" / "Virtual.csv").open("ab") as virtual:
        virtual.write(b'"Haakona II","Premiere","Ship","Romulan","","","",""\n')
    assert main(["build", "--check", *at]) == 1
    assert capsys.readouterr().err == (
        f"rulings: the card files {library / 'library.toml'} names are not those the knowledge base in service "
        "imported; run 'rulings build'\n"
    )
    newer = tmp_path / "Virtual.csv"  # another file of the same name replaces the library's copy
    newer.write_bytes(PHYSICAL.read_bytes())
    assert main(["build", *at, "--cards", str(newer)]) == 0
    assert cards_line(capsys.readouterr().out) == "cards: 3092 in the catalog (6792 rows imported), 203 links"
    assert (library / "cards" / "Virtual.csv").read_bytes() == newer.read_bytes()
    assert (library / "library.toml").read_bytes().count(b"[[cards]]") == 2
    assert main(["build", "--check", *at]) == 0


def test_a_card_file_that_gives_no_card_leaves_the_library_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = shutil.copytree(SEEDS, tmp_path / "library")
    before = {p: p.read_bytes() for p in library.rglob("*") if p.is_file()}
    empty = tmp_path / "Empty.csv"
    empty.write_text("Name,Set,Type,Affil,Uniqueness,Persona\n", encoding="utf-8")
    args = ["build", "--library", str(library), "--kb", str(tmp_path / "kb"), "--cards", str(PHYSICAL)]
    assert main([*args, "--cards", str(empty)]) == 1
    assert capsys.readouterr().err == f"rulings: error: {empty}:1: no card read from this card file (0 rows)\n"
    assert {p: p.read_bytes() for p in library.rglob("*") if p.is_file()} == before
    assert not (library / "cards").exists()
