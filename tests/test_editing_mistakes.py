"""An editor's ordinary mistakes are refused, never believed: a copy of a document already in the
library (`kb.ingest.copies`), a document added as a kind or date it contradicts
(`kb.ingest.self_description`)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS, SHARED
from web.cli.main import main

UPDATE = "stccg/current-rulings-update-2000-12-18.txt"
"""The fixture update that says "mission attempt - Delete the last sentence of the existing Current Rulings entry"."""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "library", tmp_path / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", tmp_path / "library" / "stccg")
    return tmp_path / "library"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def near_copy(library: Path, tmp_path: Path) -> Path:
    """The fixture update under another name, with CRLF line ends, trailing spaces and curly quotes."""
    text = (library / UPDATE).read_text(encoding="utf-8")
    copy = tmp_path / "cr-update-repost.txt"
    copy.write_bytes(text.replace("'", "\u2019").replace("\n", "  \r\n").encode("utf-8"))
    return copy


def test_adding_a_copy_of_an_update_is_refused_naming_the_first(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(tmp_path / "kb")
    assert run(capsys, "build", "--library", str(library), "--kb", kb)[0] == 0
    manifest = (library / "library.toml").read_bytes()
    copy = near_copy(library, tmp_path)
    status, out, err = run(
        capsys, "add", str(copy), "--kind", "current-rulings-update", "--date", "2000-12-18",
        "--library", str(library), "--kb", kb,
    )  # fmt: skip
    assert (status, out) == (1, "")
    assert err == (
        f"rulings: error: {copy}: refused: its text is the text of document 'cr-update-2000-12-18' ({UPDATE}), "
        "already in the library; an update added twice would be applied twice\n"
    )
    assert (library / "library.toml").read_bytes() == manifest
    assert not (library / "stccg" / copy.name).exists()


def test_a_manifest_naming_one_text_twice_is_refused(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(library / UPDATE, library / "stccg" / "update-again.txt")
    with (library / "library.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(
            '\n[[document]]\nid = "again"\nfile = "stccg/update-again.txt"\ngame = "stccg"\n'
            'kind = "current-rulings-update"\ntitle = "Current Rulings Update"\nversion = "12/18/00"\n'
            'date = "2000-12-18"\n'
        )
    status, out, err = run(capsys, "build", "--library", str(library), "--kb", str(tmp_path / "kb"))
    assert (status, out) == (1, "")
    assert err == (
        f"rulings: error: {library / 'stccg' / 'update-again.txt'}: document 'again' (stccg/update-again.txt) "
        f"has the same text as document 'cr-update-2000-12-18' ({UPDATE}); a document applied twice is not what "
        "it says: remove one of them from the manifest\n"
    )
    assert not (tmp_path / "kb" / "current").exists()


def without_update(library: Path, tmp_path: Path) -> Path:
    """The library without the 12/18/00 update (its manifest table and file); the update, outside it."""
    manifest = (library / "library.toml").read_text(encoding="utf-8")
    table = manifest[
        manifest.index('[[document]]\nid = "cr-update-2000-12-18"') : manifest.index('[[document]]\nid = "cr-2001')
    ]
    (library / "library.toml").write_text(manifest.replace(table, ""), encoding="utf-8")
    outside = tmp_path / "current-rulings-update-2000-12-18.txt"
    (library / UPDATE).rename(outside)
    return outside


@pytest.mark.parametrize(
    ("kind", "date", "said"),
    [
        (
            "current-rulings",
            "2000-12-18",
            ":2: the text calls itself a Current Rulings update ('CURRENT RULINGS UPDATE'), but --kind is "
            "'current-rulings'; as a full Current Rulings it would rescind every ruling it does not repeat",
        ),
        ("current-rulings-update", "1999-01-01", ":3: the text is dated 2000-12-18, but --date is 1999-01-01"),
    ],
    ids=["update-as-full", "wrong-date"],
)
def test_add_refuses_a_kind_or_date_the_text_contradicts(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, date: str, said: str
) -> None:
    update = without_update(library, tmp_path)
    manifest = (library / "library.toml").read_bytes()
    argv = ["add", str(update), "--kind", kind, "--date", date, "--library", str(library), "--kb", str(tmp_path / "kb")]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (1, "")
    assert err == f"rulings: error: {update}{said}; correct the command, or add --force-contradiction to keep it\n"
    assert (library / "library.toml").read_bytes() == manifest
    assert not (tmp_path / "kb" / "current").exists()


def test_a_forced_contradiction_is_warned_and_noted(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    update = without_update(library, tmp_path)
    kb = tmp_path / "kb"
    argv = ["add", str(update), "--kind", "current-rulings-update", "--date", "2000-12-20", "--force-contradiction"]
    status, _, err = run(capsys, *argv, "--library", str(library), "--kb", str(kb))
    assert status == 0
    assert err.splitlines()[0] == (
        f"rulings: warning: {update}:3: the text is dated 2000-12-18, but --date is 2000-12-20 "
        "(kept: --force-contradiction)"
    )
    assert (
        (library / "library.toml")
        .read_text(encoding="utf-8")
        .endswith('date = "2000-12-20"\nforce_contradiction = true\n')
    )
    kept = library / "stccg" / update.name
    report = json.loads((kb / "current" / "report.json").read_text(encoding="utf-8"))
    assert f"{kept}:3: the text is dated 2000-12-18, but the manifest's date is 2000-12-20 (forced)" in report
    with closing(sqlite3.connect(kb / "current" / "kb.sqlite")) as connection:
        (note,) = connection.execute(
            "SELECT note FROM documents WHERE kind = 'current-rulings-update' AND date = '2000-12-20'"
        ).fetchone()
    assert note == (
        "Kept as given although its text says otherwise: the text is dated 2000-12-18, "
        "but the manifest's date is 2000-12-20."
    )


def test_build_refuses_a_manifest_kind_the_text_contradicts(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = library / "library.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace(
            'kind = "current-rulings-update"\ntitle = "Current Rulings Update"\nversion = "12/18/00"',
            'kind = "current-rulings"\ntitle = "Current Rulings Update"\nversion = "12/18/00"',
        ),
        encoding="utf-8",
    )
    status, out, err = run(capsys, "build", "--library", str(library), "--kb", str(tmp_path / "kb"))
    assert (status, out) == (1, "")
    assert err == (
        f"rulings: error: {library / UPDATE}:2: the text calls itself a Current Rulings update "
        "('CURRENT RULINGS UPDATE'), but the manifest's kind is 'current-rulings'; as a full Current Rulings it "
        "would rescind every ruling it does not repeat; correct the manifest, or set force_contradiction = true "
        "in its [[document]] table to keep it as given\n"
    )


def test_a_ruling_quoting_an_update_says_nothing_of_its_document(tmp_path: Path) -> None:
    """Only the title block (the lines before the first ruling) says what a document is: a full
    Current Rulings whose ruling quotes "only new or changed" is no update, while the same words
    above the rulings are."""
    from rulings.parse import parse_file
    from rulings.self_description import contradictions

    ruling = "* Kira Nerys - A card that says it applies to only new or changed cards means cards played this turn."
    text = "CURRENT RULINGS\nFebruary 1, 2001\n\nRULINGS\n\n" + ruling + "\n"
    path = tmp_path / "current-rulings-2001-02-01.txt"
    path.write_text(text, encoding="utf-8")
    result = parse_file(path, "current-rulings")
    assert [e.headword for e in result.entries if e.kind == "ruling"] == ["Kira Nerys"]
    assert contradictions(result, text.splitlines()) == []
    path.write_text("CURRENT RULINGS UPDATE\nonly new or changed rulings\n" + text, encoding="utf-8")
    said = contradictions(parse_file(path, "current-rulings"), path.read_text(encoding="utf-8").splitlines())
    assert [c.line for c in said] == [1]


HZ = SHARED / "real" / "1e-cr-2001-03-26-hz.txt"
"""A page of the Current Rulings of 3/26/01 (rulings H-Z), which reads as a Glossary's entries too."""


@pytest.mark.skipif(not HZ.is_file(), reason="../shared/real/1e-cr-2001-03-26-hz.txt is absent")
@pytest.mark.parametrize("extended", [False, True], ids=["full-build", "from-the-previous-build"])
def test_a_page_whose_kind_would_end_another_series_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extended: bool
) -> None:
    library, kb = shutil.copytree(SEEDS, tmp_path / "library"), str(tmp_path / "kb")
    if extended:  # without the Neutral Zone rulebook (2023), the page is the newest: the build extends the last
        text = (library / "library.toml").read_text(encoding="utf-8")
        start = text.index('[[document]]\nid = "nz-rulebook"')
        (library / "library.toml").write_text(text[:start] + text[text.index("[[document]]", start + 1) :])
    at = ["--library", str(library), "--kb", kb]
    assert run(capsys, "build", *at)[0] == 0
    manifest = (library / "library.toml").read_bytes()
    add = ["add", str(HZ), "--kind", "glossary", "--date", "2001-03-26", *at]
    said = (
        f"{HZ}: as a glossary it would end 43 versions in force of the current-rulings series, which it does not "
        "hold, but its text reads as a current-rulings"
    )
    assert run(capsys, *add) == (
        1, "", f"rulings: error: {said}; correct --kind, or add --force-contradiction to keep it\n")  # fmt: skip
    assert (library / "library.toml").read_bytes() == manifest and not (library / "stccg" / HZ.name).exists()
    status, out, _ = run(capsys, "show", "Conundrum", "--kb", kb)
    assert status == 0 and "  [Glossary, version 1 of 1] active since 2000-11-27; replace" in out.splitlines()
    status, out, err = run(capsys, *add, "--force-contradiction")
    assert (status, err.splitlines()[0]) == (0, f"rulings: warning: {said} (kept: --force-contradiction)")
    assert ("from the previous build" in out) == extended
    assert "nothing in force" in run(capsys, "show", "Conundrum", "--kb", kb)[1]  # what the wrong kind does


@pytest.mark.parametrize(
    ("name", "stated", "given"),
    [("1e-cr-2001-03-26-hz.txt", "2001-03-26", "2001-04-26"), ("1e-cr-2001-09-24-ag.txt", "2001-09-24", "2001-10-24")],
)
def test_a_page_headed_rulings_updated_is_dated_by_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, stated: str, given: str
) -> None:
    """``Rulings Updated: 03/26/01`` (``Rulings Updated 09/24/01``) heads the pages of the Current Rulings web site."""
    page = SHARED / "real" / name
    if not page.is_file():
        pytest.skip(f"../shared/real/{name} is absent")
    library = shutil.copytree(SEEDS, tmp_path / "library")
    manifest = (library / "library.toml").read_bytes()
    at = ["--kind", "current-rulings", "--library", str(library), "--kb", str(tmp_path / "kb")]
    assert run(capsys, "add", str(page), "--date", given, *at) == (1, "", (
        f"rulings: error: {page}:1: the text is dated {stated}, but --date is {given}; correct the command, or add "
        "--force-contradiction to keep it\n"))  # fmt: skip
    assert (library / "library.toml").read_bytes() == manifest and not (tmp_path / "kb" / "current").exists()


def test_an_update_without_its_forum_preamble_is_refused_as_a_copy(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(tmp_path / "kb")
    assert run(capsys, "build", "--library", str(library), "--kb", kb)[0] == 0
    manifest = (library / "library.toml").read_bytes()
    seed = (library / "stccg" / "current-rulings-update-2000-11-27.txt").read_text(encoding="utf-8")
    assert seed.splitlines()[1].startswith("Current Rulings Update (Repost") and seed.splitlines()[13] == "11/27/00"
    first = "document 'cr-update-2000-11-27' (stccg/current-rulings-update-2000-11-27.txt), already in the library"
    near = tmp_path / "bare.txt"
    near.write_text("\n".join(seed.splitlines()[11:]) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "add", str(near), "--kind", "current-rulings-update", "--date", "2000-11-27",
                           "--library", str(library), "--kb", kb)  # fmt: skip
    assert (status, out, err) == (1, "", (
        f"rulings: error: {near}: refused: its text is within the text of {first}, but for 805 characters before "
        "or after it (a repost's preamble?); an update added twice would be applied twice\n"))  # fmt: skip
    signed = tmp_path / "signed.txt"  # the whole text and a line more, which no entry holds
    signed.write_text(seed + "\nRakal\n", encoding="utf-8")
    status, out, err = run(capsys, "add", str(signed), "--kind", "current-rulings-update", "--date", "2000-11-27",
                           "--library", str(library), "--kb", kb)  # fmt: skip
    assert (status, out, err) == (1, "", (
        f"rulings: error: {signed}: refused, it would lose lines: 1 of its 98 non-blank lines are read as no entry "
        f"(unparsed: line 188); see 'rulings parse {signed}'\n"))  # fmt: skip
    assert (library / "library.toml").read_bytes() == manifest
