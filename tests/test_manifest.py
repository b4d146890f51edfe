"""The library manifest: the bundled one loads; malformed ones are refused in one line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from helpers import SEEDS
from rulings import kinds
from rulings.errors import ManifestError
from rulings.manifest import MAX_MANIFEST, load_manifest, load_titles
from web.cli.main import main

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


LATER = ", ".join(kinds.names()[len(kinds.FIRST) :])
"""The kinds added after the first six (`rulings.kinds`), by name."""


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (GOOD.replace('version = "1.7"\n', ""), "[[document]] #1 (id 'a'): missing key 'version'"),
        (
            GOOD.replace('"glossary"', '"errata"'),
            "[[document]] #1 (id 'a'): key 'kind': unknown kind 'errata' (expected "
            f"one of rulebook, glossary, current-rulings, current-rulings-update, faq, dated-rulings, {LATER})",
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
        (GOOD + "part = 3\n", "[[document]] #1 (id 'a'): key 'part' must be a string"),
        ("# nothing yet\n", "no [[document]] tables"),
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
        "bad-part",
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


def test_manifest_with_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    root = library(tmp_path, "")
    (root / "library.toml").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert [(d.id, d.title) for d in load_manifest(root)] == [("a", "Glossary")]


def bad_manifest(tmp_path: Path, what: str) -> Path:
    """A library whose manifest is broken in the way ``what`` names."""
    root = library(tmp_path, GOOD)
    manifest = root / "library.toml"
    if what == "nul-in-file":
        manifest.write_text(GOOD.replace('"a.txt"', '"a\\u0000.txt"'))
    elif what == "nul-byte":
        manifest.write_bytes(GOOD.encode().replace(b'"Glossary"', b'"Gloss\x00ary"'))
    elif what == "deep-nesting":
        manifest.write_text(GOOD + "deep = " + "[" * 1000 + "]" * 1000 + "\n")
    elif what == "huge-integer":
        manifest.write_text(GOOD.replace("[[document]]", "n = 1" + "0" * 5000 + "\n\n[[document]]"))
    elif what == "not-utf8":
        manifest.write_bytes(GOOD.encode().replace(b'"Glossary"', b'"Glossaire \xe9t\xe9"'))
    elif what == "directory":
        manifest.unlink()
        manifest.mkdir()
    elif what == "huge":
        with manifest.open("r+b") as handle:  # sparse: one byte over the limit costs no disk
            handle.truncate(MAX_MANIFEST + 1)
    elif what == "titles-not-utf8":
        (root / "titles").mkdir()
        (root / "titles" / "stccg.txt").write_bytes(b"Conundrum\nQ's Tent\nCaf\xe9\n")
    return root


BAD = {
    "nul-in-file": "[[document]] #1 (id 'a'): key 'file': 'a\\x00.txt' contains a NUL character",
    "nul-byte": "line 7: NUL byte; the manifest must be plain text",
    "deep-nesting": "not valid TOML: arrays or tables nested too deeply",
    "huge-integer": "not valid TOML: Exceeds the limit (4300 digits) for integer string conversion: value has 5001 "
    "digits; use sys.set_int_max_str_digits() to increase the limit",
    "not-utf8": "line 7: byte 0xe9 is not UTF-8; save the manifest as UTF-8",
    "directory": "not a regular file (a directory); expected a plain-text file",
    "huge": f"the file is {MAX_MANIFEST + 1:,} bytes (limit {MAX_MANIFEST:,})",
}


@pytest.mark.parametrize("what", list(BAD))
def test_unreadable_manifest_is_refused_in_one_line(tmp_path: Path, what: str) -> None:
    root = bad_manifest(tmp_path, what)
    with pytest.raises(ManifestError) as caught:
        load_manifest(root)
    assert str(caught.value) == f"{root / 'library.toml'}: {BAD[what]}"


def test_titles_file_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    root = bad_manifest(tmp_path, "titles-not-utf8")
    with pytest.raises(ManifestError) as caught:
        load_titles(root, "stccg")
    assert str(caught.value) == (
        f"{root / 'titles' / 'stccg.txt'}: line 3: byte 0xe9 is not UTF-8; save the titles file as UTF-8"
    )


TITLES_ERROR = "titles/stccg.txt: line 3: byte 0xe9 is not UTF-8; save the titles file as UTF-8"


@pytest.mark.parametrize("what", [*BAD, "titles-not-utf8"])
def test_cli_build_reports_a_bad_library_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    (tmp_path / "library").mkdir()
    root = bad_manifest(tmp_path / "library", what)
    expected = f"{root}/{TITLES_ERROR}" if what == "titles-not-utf8" else f"{root / 'library.toml'}: {BAD[what]}"
    assert main(["build", "--library", str(root), "--kb", str(tmp_path / "kb")]) == 1
    assert capsys.readouterr() == ("", f"rulings: error: {expected}\n")
    assert not (tmp_path / "kb").exists()


def test_cli_parse_reports_a_bad_titles_file_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = bad_manifest(tmp_path, "titles-not-utf8")
    assert main(["parse", str(root / "a.txt"), "--kind", "glossary", "--library", str(root)]) == 1
    assert capsys.readouterr() == ("", f"rulings: error: {root}/{TITLES_ERROR}\n")


def test_part_of_an_edition_is_read(tmp_path: Path) -> None:
    (document,) = load_manifest(library(tmp_path, GOOD + 'part = " M-O "\n'))
    assert document.part == "M-O"
    (whole,) = load_manifest(library(tmp_path, GOOD))
    assert whole.part == ""


RELEASE = '\n[[release]]\nname = "Blaze of Glory"\ndate = "1999-10-04"\n'
"""A [[release]] table: after GOOD (lines 1-9), its header is line 11."""


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (
            GOOD + GOOD.replace("[[document]]", "[[documnet]]").replace('"a"', '"b"'),
            "line 11: unknown table [[documnet]]; did you mean [[document]]? "
            "(the manifest holds [[document]], [[release]], [[source]] and [[cards]] tables and a 'game' key)",
        ),
        (
            GOOD + RELEASE.replace("[[release]]", "[[releases]]"),
            "line 11: unknown table [[releases]]; did you mean [[release]]? "
            "(the manifest holds [[document]], [[release]], [[source]] and [[cards]] tables and a 'game' key)",
        ),
        (
            GOOD + RELEASE.replace("[[release]]", "[release]"),
            "line 11: 'release' must be [[release]] tables (written with double brackets)",
        ),
        (
            "title = 'x'\n" + GOOD,
            "line 1: unknown key 'title' outside any table (the manifest holds [[document]], "
            "[[release]], [[source]] and [[cards]] tables and a 'game' key)",
        ),
        (
            GOOD.replace("title =", "tittle ="),
            "[[document]] #1 (id 'a'): unknown key 'tittle' on line 7; did you mean 'title'? (expected id, file, "
            "game, kind, title, version, date, date_approximate, supersedes, note, part, accept_unread, "
            "force_contradiction, url)",
        ),
        (
            GOOD + RELEASE.replace("date =", "data ="),
            "[[release]] #1: unknown key 'data' on line 13; did you mean 'date'? (expected name, date)",
        ),
        (
            GOOD + 'note = """two\ntittle = lines"""\ncolour = "red"\n',
            "[[document]] #1 (id 'a'): unknown key 'colour' on line 12 (expected id, file, game, kind, title, "
            "version, date, date_approximate, supersedes, note, part, accept_unread, force_contradiction, url)",
        ),
    ],
    ids=["documnet", "releases", "single-bracket", "top-level-key", "tittle", "release-key", "after-multiline"],
)
def test_unknown_table_or_key_is_refused_with_its_line_and_nearest_name(
    tmp_path: Path, manifest: str, message: str
) -> None:
    root = library(tmp_path, manifest)
    with pytest.raises(ManifestError) as caught:
        load_manifest(root)
    assert str(caught.value) == f"{root / 'library.toml'}: {message}"


@pytest.mark.parametrize("table", ["[[documnet]]", "[[releases]]"])
def test_cli_build_refuses_a_mistyped_table(tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str) -> None:
    """A mistyped table used to be ignored: the document's entries, or a release date, silently gone."""
    (tmp_path / "library").mkdir()
    extra = GOOD.replace('"a"', '"b"').replace("[[document]]", table) if "doc" in table else RELEASE
    root = library(tmp_path / "library", GOOD + extra.replace("[[release]]", table))
    assert main(["build", "--library", str(root), "--kb", str(tmp_path / "kb")]) == 1
    out, err = capsys.readouterr()
    assert (out, err.count("\n")) == ("", 1)
    assert err.startswith(f"rulings: error: {root / 'library.toml'}: line 11: unknown table {table}; did you mean")
    assert not (tmp_path / "kb").exists()
