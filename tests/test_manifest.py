"""The library manifest: the bundled one loads; malformed ones are refused in one line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from helpers import SEEDS
from rulings.manifest import ManifestError, load_manifest, load_titles

GOOD = """
[[document]]
id = "a"
file = "a.txt"
game = "stccg"
kind = "glossary"
title = "Glossary"
version = "1.7"
date = "2000-08-01"
"""


def test_bundled_manifest() -> None:
    documents = load_manifest(SEEDS)
    assert [(d.id, d.game, d.kind, d.date, d.date_approximate) for d in documents] == [
        ("stccg-quick-start", "stccg", "rulebook", dt.date(1996, 12, 1), True),
        ("stccg-rulebook-excerpt", "stccg", "rulebook", dt.date(1994, 11, 1), True),
        ("nz-rulebook", "neutral-zone", "rulebook", dt.date(2023, 1, 1), True),
        ("stccg-cr-update-2000-11-27", "stccg", "current-rulings-update", dt.date(2000, 11, 27), False),
    ]
    assert all(Path(d.path).is_file() for d in documents)
    assert len(load_titles(SEEDS, "stccg")) == 83
    assert load_titles(SEEDS, "neutral-zone") == frozenset()


def library(tmp_path: Path, manifest: str) -> Path:
    (tmp_path / "a.txt").write_text("artifact - An artifact.\n")
    (tmp_path / "library.toml").write_text(manifest)
    return tmp_path


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (GOOD.replace('version = "1.7"\n', ""), "[[document]] #1 (id 'a'): missing key 'version'"),
        (
            GOOD.replace('"glossary"', '"faq"'),
            "[[document]] #1 (id 'a'): key 'kind': unknown kind 'faq' (expected "
            "one of rulebook, glossary, current-rulings, current-rulings-update)",
        ),
        (
            GOOD.replace('"2000-08-01"', '"2000-13-45"'),
            "[[document]] #1 (id 'a'): key 'date': '2000-13-45' is not a date (expected YYYY-MM-DD)",
        ),
        (
            GOOD.replace('"2000-08-01"', '"8/1/00"'),
            "[[document]] #1 (id 'a'): key 'date': '8/1/00' is not a date (expected YYYY-MM-DD)",
        ),
        (GOOD.replace('"a.txt"', '"b.txt"'), "[[document]] #1 (id 'a'): key 'file': no such file 'b.txt'"),
        (
            GOOD.replace('"a.txt"', '"../a.txt"'),
            "[[document]] #1 (id 'a'): key 'file': '../a.txt' is outside the library",
        ),
        (GOOD + GOOD, "[[document]] #2 (id 'a'): key 'id': 'a' is also the id of [[document]] #1"),
        (GOOD + 'supersedes = "z"\n', "[[document]] #1 (id 'a'): key 'supersedes': no document 'z'"),
        (GOOD + 'colour = "red"\n', "[[document]] #1 (id 'a'): unknown key 'colour'"),
        (
            GOOD.replace('"stccg"', '"Star Trek"'),
            "[[document]] #1 (id 'a'): key 'game': 'Star Trek' must be lower-case letters, digits and '-'",
        ),
        (GOOD + "date_approximate = 1\n", "[[document]] #1 (id 'a'): key 'date_approximate' must be true or false"),
        ("title = 'x'\n", "no [[document]] tables"),
        ("[[document]\n", "not valid TOML"),
    ],
    ids=[
        "missing-key",
        "unknown-kind",
        "bad-date",
        "us-date",
        "missing-file",
        "outside",
        "duplicate-id",
        "bad-supersedes",
        "unknown-key",
        "bad-game",
        "bad-flag",
        "no-tables",
        "not-toml",
    ],
)
def test_malformed_manifest_is_refused(tmp_path: Path, manifest: str, message: str) -> None:
    root = library(tmp_path, manifest)
    with pytest.raises(ManifestError) as caught:
        load_manifest(root)
    assert str(caught.value).startswith(f"{root / 'library.toml'}: {message}")
    assert "\n" not in str(caught.value)


def test_native_toml_date_is_accepted(tmp_path: Path) -> None:
    root = library(tmp_path, GOOD.replace('"2000-08-01"', "2000-08-01"))
    assert load_manifest(root)[0].date == dt.date(2000, 8, 1)


def test_no_manifest(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no manifest"):
        load_manifest(tmp_path)
