"""The query commands on real builds: show, history, diff, docs, add; exit codes and JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES, SEEDS
from web.cli.main import main


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> str:
    return str(bundled_root)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_show_json_contract(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "Conundrum", "--kb", bundled, "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["headword"] == "Conundrum" and answer["topic"] == "stccg:conundrum"
    assert answer["text"].startswith('When you fail to overcome this dilemma, your ship and crew are "stopped"')
    (part,) = answer["parts"]
    assert (part["series"], part["label"], part["operation"], part["valid_from"]) == (
        "glossary",
        "Glossary",
        "replace",
        "2000-11-27",
    )
    assert part["citation"] == {"document": "stccg-cr-update-2000-11-27", "title": "Current Rulings Update",
                                "version": "11/27/00", "date": "2000-11-27", "lines": "79-83",
                                "sources": []}  # fmt: skip


def test_show_text_for_a_judge(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "mission attempt", "--kb", bundled)
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("mission attempt  (stccg:mission-attempt), in force on ")
    assert lines[1] == "  [Current Rulings, version 1 of 1] active since 2000-11-27; add"
    assert lines[2:4] == [
        "    PARTIAL TEXT: it adds to the Current Rulings entry; the rest of that entry is not in",
        "    this library.",
    ]
    assert "    NOTE: adds to the Current Rulings entry; that text is not in this knowledge base" in lines
    assert lines[-1] == "    Source: Current Rulings Update (11/27/00), 2000-11-27, lines 123-127"


def test_show_before_the_library_says_so(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 52 item 5a: nothing in force before the first document is the library's limit, said so."""
    _, out, _ = run(capsys, "show", "Conundrum", "--kb", bundled, "--as-of", "1990-01-01")
    assert out.splitlines()[1] == (
        "  (the library holds no document of stccg before 1994-11-01: it cannot say what was in force then)"
    )
    _, out, _ = run(capsys, "show", "Conundrum", "--kb", bundled, "--as-of", "1999-01-01")
    assert out.splitlines()[1] == "  (nothing in force on that date: its first text comes into force on 2000-11-27)"
    _, out, _ = run(capsys, "show", "Conundrum", "--kb", bundled, "--as-of", "1990-01-01", "--json")
    answer = json.loads(out)
    assert (answer["library_starts"], answer["first_in_force"]) == ("1994-11-01", "2000-11-27")
    _, out, _ = run(capsys, "show", "Conundrum", "--kb", bundled, "--json")
    assert (json.loads(out)["library_starts"], json.loads(out)["first_in_force"]) == (None, None)


def test_show_backrefs(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", "commandeering", "--kb", bundled, "--json")
    assert json.loads(out)["backrefs"] == [
        {"topic": "stccg:a-fast-ship-would-be-nice", "headword": "A Fast Ship Would Be Nice"}
    ]


def test_backrefs_into_part_of_an_entry(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", "persona", "--kb", bundled, "--json")
    assert [b["headword"] for b in json.loads(out)["backrefs"]] == ["infiltration icon", '"opposite"']


def test_unknown_topic_and_bad_date(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "show", "conondrum", "--kb", bundled) == (
        1,
        "",
        "rulings: error: no entry 'conondrum'; did you mean: Conundrum, Q-CONTINUUM?\n",
    )
    assert run(capsys, "diff", "2000-10-30", "30/10/2000", "--kb", bundled) == (
        2,
        "",
        "rulings: error: '30/10/2000': dates are written YYYY-MM-DD here (2000-10-30?), never with slashes\n",
    )
    assert run(capsys, "show", "Conundrum", "--as-of", "2000-02-30", "--kb", bundled)[0] == 2


def test_history_and_diff_text(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "history", "mission attempt", "--kb", bundled)
    assert status == 0
    assert out.splitlines()[:2] == [
        "mission attempt  (stccg:mission-attempt): 1 version(s)",
        "1. 2000-11-27 -> in force  [Current Rulings, version 1 of 1] add, active",
    ]
    status, out, _ = run(capsys, "diff", "2000-10-30", "2000-11-27", "--kb", bundled)
    lines = out.splitlines()
    assert lines[0] == "Changes from 2000-10-30 to 2000-11-27: 0 changed, 50 added, 0 rescinded, 0 pending"
    assert lines[1:6] == [
        "+ A Fast Ship Would Be Nice",
        "    [Current Rulings, version 1 of 1] since 2000-11-27: Current Rulings Update (11/27/00), 2000-11-27, "
        "line 55",
        "+ Admiral Riker",
        "    [Current Rulings, version 1 of 1] since 2000-11-27: Current Rulings Update (11/27/00), 2000-11-27, "
        "line 57",
        "    Publisher's summary: The preview version has the correct game text.",
    ]
    _, out, _ = run(capsys, "diff", "2000-10-30", "2000-11-27", "--kb", bundled, "--json", "--kind", "glossary")
    answer = json.loads(out)
    assert sorted(answer) == [
        "added", "changed", "counts", "from", "page", "pending", "rescinded", "starts", "to", "typography"
    ]  # fmt: skip
    assert [i["headword"] for i in answer["added"]] == [
        '"any"',
        "Cha'Joh",
        "commandeering",
        "Conundrum",
        "Masaka Transformations",
        "persona",
        "ship staffing",
        "Stop First Contact",
    ]


def test_docs(bundled: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "docs", "--as-of", "2000-12-01", "--kb", bundled, "--json")
    answer = json.loads(out)
    assert answer["declared_by"] == "stccg-cr-update-2000-11-27"
    assert [d["id"] for d in answer["documents"]] == ["stccg-rulebook-excerpt", "stccg-quick-start",
                                                      "stccg-cr-update-2000-11-27"]  # fmt: skip


def test_add_a_document_then_refuse_a_lossy_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "library"
    shutil.copytree(SEEDS, library)
    kb = str(tmp_path / "kb")
    update = FIXTURES / "library" / "stccg" / "current-rulings-update-2000-12-18.txt"
    status, out, err = run(capsys, "add", str(update), "--kind", "current-rulings-update", "--date", "2000-12-18",
                           "--library", str(library), "--kb", kb)  # fmt: skip
    assert (status, err) == (0, "")
    assert out.splitlines()[0].startswith("stccg-current-rulings-update-2000-12-18: 11 entries")
    assert 'id = "stccg-current-rulings-update-2000-12-18"' in (library / "library.toml").read_text()
    _, out, _ = run(capsys, "show", "Q-Flash", "--kb", kb, "--json")
    assert json.loads(out)["parts"][0]["note"] == (
        "replaces the second paragraph of the Glossary entry; that text is not in this knowledge base"
    )
    lossy = tmp_path / "lossy.txt"
    lossy.write_text(update.read_text() + "\nRESPOND TO THE ABOVE\nStray text after the rulings.\n")
    manifest = (library / "library.toml").read_text()
    status, _, err = run(capsys, "add", str(lossy), "--kind", "current-rulings-update", "--date", "2000-12-19",
                         "--library", str(library), "--kb", kb)  # fmt: skip
    assert status == 1 and err.startswith(f"rulings: error: {lossy}: refused, it would lose lines: ")
    assert "non-blank lines are read as no entry (unparsed: line 36); see " in err and ": 1 of its " in err
    assert "accounted for" not in err  # a refusal for lines lost does not say they are all accounted for
    assert (library / "library.toml").read_text() == manifest and not (library / "stccg" / "lossy.txt").exists()
