"""The kind ``rulings-database`` (`rulings.kinds.rulings_database`, its `vtes` module): the VTES
rulings database in YAML, on a fixture written in its shape and on the real file in ../shared/vtes/."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from helpers import FIXTURES, SHARED
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.kinds.rulings_database import shaped
from rulings.model import Entry
from rulings.parse import coverage, parse_file
from rulings.reading import reading
from web.app import create_app
from web.cli.main import main

DATABASE = FIXTURES / "kinds" / "rulings-database"
VTES = SHARED / "vtes"
REAL = VTES / "vtes-rulings-2026-08-17-part2.yaml"
needs_real = pytest.mark.skipif(not REAL.exists(), reason="../shared/vtes/ (the VTES rulings database) is absent")


def _library(root: Path, documents: list[tuple[str, str, str]], companions: Path) -> Path:
    """A library of rulings-database documents ``(id, file text, date)`` in one folder with the
    companion files of ``companions``; built, the knowledge base's folder (``--kb``)."""
    folder = root / "library" / "vtes"
    folder.mkdir(parents=True)
    for name in ("references.yaml", "groups.yaml"):
        shutil.copy(companions / name, folder / name)
    manifest = []
    for ident, text, date in documents:
        (folder / f"{ident}.yaml").write_text(text, encoding="utf-8")
        manifest.append(
            f'[[document]]\nid = "{ident}"\nfile = "vtes/{ident}.yaml"\ngame = "vtes"\nkind = "rulings-database"\n'
            f'title = "VTES rulings"\nversion = "{ident}"\ndate = "{date}"\n'
        )
    (root / "library" / "library.toml").write_text("\n".join(manifest), encoding="utf-8")
    build(root / "library", root / "kb")
    return root / "kb"


def test_each_ruling_an_entry_dated_by_its_earliest_reference() -> None:
    result = parse_file(DATABASE / "rulings.yaml", "rulings-database")
    rulings = [(e.headword, e.date, e.lines, e.fields["id"]) for e in result.entries if e.kind == "ruling"]
    assert rulings == [
        ("Ashen Lantern", dt.date(1999, 1, 10), [4, 5], "100001"),
        ("Ashen Lantern", dt.date(2001, 6, 15), [6, 7], "100001"),  # quoted, ends `]'`, two references
        ("Ashen Lantern", dt.date(1995, 7, 5), [8], "100001"),  # a `-3` suffix
        ("Ashen Lantern", dt.date(2005, 1, 1), [9], "100001"),
        ("Borrowed Blade", dt.date(1996, 12, 1), [12, 13], "100002"),
        ("Borrowed Blade", None, [14], "100002"),  # only a rulebook section: dated by the document, warned
        ("Stolen minions, for a turn", dt.date(2012, 4, 5), [15, 16, 17, 18], "G00001"),
        ("Puppet Strings", dt.date(2012, 4, 5), [15, 16, 17, 18], "100003"),
        ("Dark Thrall", dt.date(2012, 4, 5), [15, 16, 17, 18], "100004"),
    ]
    texts = {(e.headword, e.lines[0]): e.text for e in result.entries}
    assert texts[("Ashen Lantern", 6)] == (
        "The lantern stays in play when its bearer is burned: it goes to the controller's ash heap only when "
        "the lantern is burned itself. [ANK 20200301-2] [LSJ 20010615]"
    )
    assert (
        texts[("Ashen Lantern", 8)]
        == "[inferior Potence] Adds one strength to a Borrowed Blade strike. [TOM 19950705-3]"
    )
    assert texts[("Ashen Lantern", 9)].startswith("[superior Potence] As above")
    assert texts[("Puppet Strings", 15)] == (
        "(Stolen minions, for a turn, [superior Dominate]) A minion taken by another Methuselah returns at the end "
        "of the turn. [PIB 20120405]"
    )
    assert (
        texts[("Dark Thrall", 15)]
        == "(Stolen minions, for a turn) The thrall returns at the start of its owner's next turn. [PIB 20120405]"
    )
    lantern = [e for e in result.entries if e.headword == "Ashen Lantern"]
    assert [e.references for e in lantern] == [[], [], ["Borrowed Blade"], []]
    assert lantern[1].fields["note"] == (
        "¶1 TOM 19950705-3 https://example.org/rulings/tom-1995-07-05-3; "
        "¶2 LSJ 19990110 https://example.org/rulings/lsj-1999-01-10; "
        "¶3 ANK 20200301-2 https://example.org/rulings/ank-2020-03-01-2, LSJ 20010615 https://example.org/rulings/lsj-2001-06-15"
    )
    assert (lantern[1].fields["cited"], lantern[1].fields["ruler"]) == ("ANK 20200301-2 LSJ 20010615", "ANK LSJ")
    assert lantern[1].fields["rulers"] == "Vincent Ripoll (Ankha), L. Scott Johnson"
    path = DATABASE / "rulings.yaml"
    assert result.warnings == [
        f"{path}:10: Ashen Lantern: a ruling with no reference in brackets at its end; not read",
        f"{path}:11: Ashen Lantern: a ruling that is neither a text nor a mapping with one; not read",
        f"{path}:12: Borrowed Blade: XYZ 19970101 is not in references.yaml (no URL)",
        f"{path}:14: Borrowed Blade: no dated reference (RBK play-a-card); dated by the document",
    ]
    assert result.unparsed == [10, 11] and result.split == [15, 16, 17, 18]
    assert result.entries[0].kind == "introduction" and result.entries[0].lines == [1, 2, 3]
    assert shaped(Entry("CrimethInc.", "ruling", "A ruling. [LSJ 20010101]", [4]))  # a card's name, not a sentence
    assert coverage(result).complete and (reading(result).read, reading(result).text) == (13, 18)


def test_companions_missing_and_bad_yaml_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alone = tmp_path / "rulings.yaml"
    shutil.copy(DATABASE / "rulings.yaml", alone)
    result = parse_file(alone, "rulings-database")
    assert result.warnings[:2] == [
        f"{alone}:1: no references.yaml beside it: references without URLs",
        f"{alone}:1: no groups.yaml beside it: group rulings on their own topic",
    ]
    assert [e.headword for e in result.entries if e.lines[0] == 15] == ["Stolen minions, for a turn"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("100001|Ashen Lantern:\n  - A ruling. [LSJ 19990110]\n  - 'It's unquoted. [LSJ 19990110]'\n")
    assert main(["parse", str(bad), "--kind", "rulings-database"]) == 1
    error = capsys.readouterr().err  # libyaml's words or PyYAML's, one line naming the line
    assert error.startswith(f"rulings: error: {bad}:3: not YAML: ") and error.count("\n") == 1
    bad.write_text("# a list, not a mapping\n- 100001|Ashen Lantern\n")
    assert main(["parse", str(bad), "--kind", "rulings-database"]) == 1
    assert capsys.readouterr().err == (
        f"rulings: error: {bad}:2: a rulings database is a mapping of cards to rulings\n"
    )


def test_a_cards_rulings_add_up_each_from_its_date_with_its_provenance(tmp_path: Path) -> None:
    text = (DATABASE / "rulings.yaml").read_text(encoding="utf-8")
    built = _library(tmp_path, [("db", text, "2020-01-01")], DATABASE)
    with KnowledgeBase(current(built)) as kb:
        history = kb.history("Ashen Lantern", game="vtes")
        early = kb.show("Ashen Lantern", as_of=dt.date(2000, 1, 1), game="vtes")
        thrall = kb.show("Dark Thrall", game="vtes")
        page = create_app({"KB": str(built), "TESTING": True}).test_client().get("/entry/vtes:ashen-lantern")
    assert [(v["valid_from"], v["text"].count("\n\n") + 1) for v in history["versions"]] == [
        ("1995-07-05", 1),
        ("1999-01-10", 2),
        ("2001-06-15", 3),
        ("2005-01-01", 4),
    ]
    assert early["text"] == (
        "[inferior Potence] Adds one strength to a Borrowed Blade strike. [TOM 19950705-3]\n\n"
        "May be played during any referendum. [LSJ 19990110]"
    )
    # the later versions are listed apart, not yet in force (as every kind's: tests/test_dates.py)
    assert [v["valid_from"] for v in early["pending"]] == ["2001-06-15", "2005-01-01"]
    assert early["parts"][0]["note"] == (
        "¶1 TOM 19950705-3 https://example.org/rulings/tom-1995-07-05-3; "
        "¶2 LSJ 19990110 https://example.org/rulings/lsj-1999-01-10"
    )
    assert early["parts"][0]["references"] == ["Borrowed Blade"]
    cited = [(p["paragraph"], (p["source"] or {}).get("lines")) for p in history["versions"][-1]["paragraphs"]]
    assert cited == [(1, "8"), (2, "4-5"), (3, "6-7"), (4, "9")]  # each ruling cites its own lines
    assert (
        thrall["parts"][0]["note"]
        == "¶1 (group Stolen minions, for a turn) PIB 20120405 https://example.org/rulings/pib-2012-04-05"
    )
    assert page.status_code == 200 and "https://example.org/rulings/rtr-2005-01-01" in page.text


def test_a_card_is_found_by_its_id_and_its_references_urls_are_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The database keys a card ``100001|Ashen Lantern``: the id finds the topic as its name does; the URLs of
    the provenance (the version's note) are links on the entry page."""
    text = (DATABASE / "rulings.yaml").read_text(encoding="utf-8")
    built = _library(tmp_path, [("db", text, "2020-01-01")], DATABASE)
    with KnowledgeBase(current(built)) as kb:
        assert kb.show("100001", game="vtes")["topic"] == kb.show("Ashen Lantern", game="vtes")["topic"]
    assert main(["show", "100001", "--game", "vtes", "--kb", str(built)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Ashen Lantern")
    page = create_app({"KB": str(built), "TESTING": True}).test_client().get("/entry/vtes:ashen-lantern")
    url = "https://example.org/rulings/rtr-2005-01-01"
    assert f'<a href="{url}">{url}</a>' in page.text
    assert '; ¶2 LSJ 19990110 <a href="https://example.org/rulings/lsj-1999-01-10">' in page.text


@needs_real
def test_the_real_database_every_ruling_an_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(REAL)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"rulings: {REAL}: read as rulings-database (detected)"
    result = parse_file(REAL, "rulings-database")
    loaded = yaml.safe_load(REAL.read_text(encoding="utf-8"))
    groups = yaml.safe_load((VTES / "groups.yaml").read_text(encoding="utf-8"))
    items = sum(len(rulings) for rulings in loaded.values())
    on_cards = sum(len(r) * (1 + len(groups[k])) if k.startswith("G") else len(r) for k, r in loaded.items())
    assert (len(loaded), items, on_cards) == (1083, 1902, 5241)
    assert sum(e.kind == "ruling" for e in result.entries) == 5241
    assert result.unparsed == [] and coverage(result).complete
    assert (reading(result).read, reading(result).text) == (3964, 3964)
    undated = [w for w in result.warnings if "no dated reference" in w]
    assert len(undated) == 11 and len(result.warnings) == 12  # and KOT 20081119, not in references.yaml
    assert f"{REAL}:1015: Lock: KOT 20081119 is not in references.yaml (no URL)" in result.warnings


def _snapshot(text: str) -> str:
    """The real file as a later snapshot would change it: one ruling of Delaying Tactics dropped,
    another reworded, the card Grenade dropped, a ruling added to Living Manse."""
    lines = text.split("\n")
    assert lines[57].startswith("  - May be played before, during, or after votes")
    assert lines[66].startswith("  - The results are not tallied")
    assert lines[596:598] == ["100857|Grenade:", "  - Damage done to the bearer is environmental. [LSJ 19970801]"]
    assert lines[598].startswith("  - Does not burn nor inflict damage") and lines[599] == "100858|Grey Thorne:"
    assert lines[1011] == "101114|Living Manse:"
    lines[57] = "  - May be played at any time during the polling step. [LSJ 19980130]"
    lines[1011:1012] = ["101114|Living Manse:", "  - A ruling of the later snapshot. [ANK 20260901]"]
    del lines[596:599]
    del lines[66]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[KnowledgeBase, Path]]:
    if not REAL.exists():
        pytest.skip("../shared/vtes/ (the VTES rulings database) is absent")
    root = tmp_path_factory.mktemp("vtes")
    text = REAL.read_text(encoding="utf-8")
    built = _library(root, [("vtes-2026-08", text, "2026-08-17")], VTES)
    later = root / "vtes-2026-10.yaml"  # the later snapshot, added as a user would, beside the first
    later.write_text(_snapshot(text), encoding="utf-8")
    added = ["add", str(later), "--kind", "rulings-database", "--date", "2026-10-01", "--game", "vtes"]
    assert main([*added, "--library", str(root / "library"), "--kb", str(built)]) == 0
    with KnowledgeBase(current(built)) as kb:
        yield kb, built


@needs_real
def test_delaying_tactics_as_of_1998_shows_the_rulings_published_by_then(
    snapshots: tuple[KnowledgeBase, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    kb, built = snapshots
    assert main(["show", "Delaying Tactics", "--game", "vtes", "--as-of", "1998-06-01", "--kb", str(built)]) == 0
    in_force, later = capsys.readouterr().out.split("] pending since ", 1)  # then the later versions
    assert "[RTR 19970630]" in in_force and "[PIB 20150105] [LSJ 19980107]" in in_force
    assert "[LSJ 19980130]" in in_force and "The results are not tallied" not in in_force
    assert later.startswith("2001-02-09") and "The results are not tallied" in later
    shown = kb.show("Delaying Tactics", as_of=dt.date(1998, 6, 1), game="vtes")
    assert [p["text"].count("\n\n") + 1 for p in shown["parts"]] == [3]
    assert [p["text"][:20] for p in shown["parts"]] == [shown["text"][:20]]
    later_on = ["2001-02-09", "2002-02-01", "2003-04-26", "2004-11-30", "2005-03-24", "2026-10-01"]
    assert [v["valid_from"] for v in shown["pending"]] == later_on
    assert shown["parts"][0]["note"].split("; ")[0] == (
        "¶1 RTR 19970630 https://groups.google.com/g/rec.games.trading-cards.jyhad/c/KireUeOYY3c/m/t6ifm9lur1kJ"
    )
    assert shown["parts"][0]["citation"]["lines"] == "57-58"
    assert kb.show("100519", game="vtes")["topic"] == kb.show("Delaying Tactics", game="vtes")["topic"]


@needs_real
def test_every_ruling_of_the_real_file_is_a_version(snapshots: tuple[KnowledgeBase, Path]) -> None:
    kb = snapshots[0]
    rows = kb.store.rows("SELECT document_id, COUNT(*) FROM versions GROUP BY document_id ORDER BY 1")
    assert [tuple(r) for r in rows] == [
        ("vtes-2026-08", 5241),
        ("vtes-vtes-2026-10", 2),
    ]  # add: the game, then the file
    assert len(kb.store.rows("SELECT id FROM topics")) == 2089


@needs_real
def test_a_later_snapshot_rescinds_what_it_drops_and_versions_what_it_edits(
    snapshots: tuple[KnowledgeBase, Path],
) -> None:
    kb = snapshots[0]
    tactics = kb.history("Delaying Tactics", game="vtes")["versions"]
    assert [v["valid_from"] for v in tactics][-2:] == ["2005-03-24", "2026-10-01"]
    last = tactics[-1]
    assert "May be played at any time during the polling step. [LSJ 19980130]" in last["text"]
    assert "The results are not tallied" not in last["text"] and "The results are not tallied" in tactics[-2]["text"]
    cited = [(p["source"] or {}).get("lines") for p in last["paragraphs"]]
    assert cited[:3] == ["59-60", "3516-3517", "57-58"]  # in the snapshot, each ruling's own lines
    assert last["note"].startswith("this document drops or rewords 2 ruling(s) of the version before; ¶1 RTR 19970630")
    grenade = kb.show("Grenade", as_of=dt.date(2026, 10, 2), game="vtes")
    assert grenade["parts"] == [] and grenade["ended"][0]["ended"] == "rescinded"
    assert grenade["ended"][0]["valid_to"] == "2026-10-01"
    manse = kb.history("Living Manse", game="vtes")["versions"]
    assert [v["valid_from"] for v in manse] == ["1996-01-12", "2009-03-24", "2026-09-01"]
    assert manse[-1]["text"].endswith("A ruling of the later snapshot. [ANK 20260901]")
