"""The cards players have (#23): the LackeyCCG plugin's own set files beside the CSV exports,
rules topics that are no cards, titles as the Glossary prints them, one-word titles found
after a line break or a sentence's end, and a card file without cards refused."""

from __future__ import annotations

import csv
import json
import shutil
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from helpers import ROOT, SEEDS, SHARED
from kb.ingest.catalog import Card, Catalog, import_lackey
from kb.ingest.linking import Linker
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

sys.path.insert(0, str(ROOT / "bench"))
from link_quality import evaluate, export_rows, plugin_set_file
from real_links import LABELS as REAL_LABELS
from real_links import evaluate as evaluate_real
from real_links import real_kb

PHYSICAL = SHARED / "cards" / "Physical.csv"
VIRTUAL = SHARED / "cards" / "Virtual.csv"
needs_files = pytest.mark.skipif(
    not (PHYSICAL.is_file() and VIRTUAL.is_file()), reason="../shared/cards/Physical.csv or Virtual.csv is absent"
)
TITLES = {"Tama", "Kang", "Gowron", "Martok", "The Art of Diplomacy", "Deanna Troi", "Forced-Labor Camp", "Labor Camp",
          "Madred", "Interrogation", "Torture", "Hail"}  # fmt: skip
"""The cards of the slice of the real exports these tests read."""
GLOSSARY = """STAR TREK CUSTOMIZABLE CARD GAME
GLOSSARY
Version 1.8 (August 2002)

Art of Diplomacy, The - This incident allows your personnel to use 2 Treachery as if it were 1 Diplomacy.

Deanna Troi (First Contact) - This personnel must be part of the "stopped" Away Team to "unstop" them.

labor - Forced Labor Camp makes your captives work; see also Labor Camp.
"""
RULINGS = """STAR TREK CUSTOMIZABLE CARD GAME
CURRENT RULINGS 08/30/99

RULINGS

MADRED - This personnel may add 1 to Interrogation or Torture only when Madred and the captive are aboard.

MATCHING COMMANDER - Add the following ships and matching commanders:

I.K.C. Lukara

Kang (S)

I.K.C. Negh'Var

Gowron (S), Martok (S)

Dathon is the matching commander of the Tama. His presence matters.
"""
RULINGS_2E = """STAR TREK CUSTOMIZABLE CARD GAME
CURRENT RULINGS 03/01/04

RULINGS

Examining a Card - You may look at a card you are told to examine, then put it back.

Naming a Number - When you name a number, name a whole number.

One-Time Broadcast Abilities - An ability used once is gone.

Tama - This ship may not be examined.
"""


def export_slice(export: Path, target: Path) -> Path:
    """The rows of `TITLES` of a CSV export, as a CSV export again."""
    rows = export_rows(export, TITLES)
    with target.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return target


def printed(catalog: Catalog) -> dict[str, list[tuple[str, ...]]]:
    """Each card's printings as the card page shows them (game text with its white space made single spaces)."""
    return {key: [(p.name, p.set, p.release, p.number, p.rarity, p.type, p.affiliation, p.icons,
                   " ".join(p.text.split())) for p in card.printings]
            for key, card in catalog.cards.items()}  # fmt: skip


def library(directory: Path) -> Path:
    """A library of a Glossary page and Current Rulings of both editions."""
    directory.mkdir()
    documents = [("glossary", "stccg", "glossary", GLOSSARY, "2002-08-01"),
                 ("rulings", "stccg", "current-rulings", RULINGS, "1999-08-30"),
                 ("rulings-2e", "stccg-2e", "current-rulings", RULINGS_2E, "2004-03-01")]  # fmt: skip
    tables = []
    for name, game, kind, text, date in documents:
        (directory / f"{name}.txt").write_text(text, encoding="utf-8")
        tables.append(f'[[document]]\nid = "{name}"\nfile = "{name}.txt"\ngame = "{game}"\nkind = "{kind}"\n'
                      f'title = "{name}"\nversion = "1"\ndate = "{date}"\n')  # fmt: skip
    (directory / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    return directory


@needs_files
def test_the_plugin_set_files_give_the_exports_cards_and_their_game_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sets").mkdir()
    sets = [plugin_set_file(export, tmp_path / "sets" / f"{export.stem}.txt", TITLES) for export in (PHYSICAL, VIRTUAL)]
    assert sets[0].read_text(encoding="utf-8").split("\n", 1)[0] == (
        "Name\tSet\tImageFile\tRelease\tInfo\tProperty\tUniqueness\tType\tMission/ Dilemma Type\tAffil\tClass\t"
        "Int/Rng\tCun/Wpn\tStr/Shd\tPoints\tRegion\tQuadrant\tSpan\tIcons\tStaff\tCharacteristics/ Keywords\tRequires\t"
        "Persona\tCommand\tReports\tNames\tText"
    )  # fmt: skip
    exports = [export_slice(PHYSICAL, tmp_path / "Physical.csv"), export_slice(VIRTUAL, tmp_path / "Virtual.csv")]
    from_sets, from_exports = Catalog(), Catalog()
    lines = [import_lackey(path, from_sets).line() for path in sets]
    assert [import_lackey(path, from_exports).line() for path in exports] == [
        line.replace(".txt:", ".csv:") for line in lines
    ]
    assert lines == [
        "Physical.txt: 23 rows, 23 printings of 17 titles, 0 skipped; conventions met: parenthesised set or "
        "disambiguator 8, '2E' card of the Second Edition (stccg-2e) 6",
        "Virtual.txt: 12 rows, 12 printings of 8 titles, 0 skipped; conventions met: ' *VP' virtual promo 6, "
        "parenthesised set or disambiguator 3",
    ]
    assert printed(from_sets) == printed(from_exports) and not from_sets.problems
    assert {p.lore for c in from_sets.cards.values() for p in c.printings} == {""}  # the set files have no Lore
    kb, seeds = str(tmp_path / "kb"), shutil.copytree(SEEDS, tmp_path / "library")  # the build keeps the card files
    assert main(["build", "--library", str(seeds), "--kb", kb, "--cards", str(sets[0]), "--cards", str(sets[1])]) == 0
    assert "  Virtual.txt: 12 rows, 12 printings of 8 titles" in capsys.readouterr().out
    hail = (
        'Plays on any ship "flying by" one of your ships; it must stop at your location. OR Select two ships; they '
        "cannot battle each other this turn."
    )
    assert main(["card", "--kb", kb, "--json", "--game", "stccg", "Hail"]) == 0
    assert [p["text"] for p in json.loads(capsys.readouterr().out)["printings"]] == [hail]
    assert main(["card", "--kb", kb, "--game", "stccg", "Hail"]) == 0
    assert f"    game text: {hail}" in capsys.readouterr().out.splitlines()
    page = create_app({"KB": kb, "TESTING": True}).test_client().get("/card/Hail?game=stccg").get_data(as_text=True)
    assert f'<dd class="game-text">{escape(hail)}</dd>' in page


@needs_files
def test_the_seed_rulings_link_as_well_with_set_files_as_with_exports(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    physical = plugin_set_file(PHYSICAL, tmp_path / "sets" / "Physical.txt")
    virtual = plugin_set_file(VIRTUAL, tmp_path / "sets" / "Virtual.txt")
    for name, files in (("sets", [physical, virtual]), ("mixed", [PHYSICAL, virtual])):
        report = build(SEEDS, tmp_path / name, files)
        assert [i.printings for i in report.imports] == [3396, 2885]
        kb = KnowledgeBase(report.directory)
        quality = evaluate(kb)
        assert (quality.true, len(quality.false), len(quality.missed), quality.negatives_linked) == (47, 0, 0, [])
        anys = [v for v in kb.store.every_version() if v.headword == '"any"']
        odos = sorted(
            {(kb.store.card_row(k) or {})["name"] for v in anys for k, _ in kb.store.card_links(v) if "odo" in k}
        )
        assert odos == ["Curzon Odo", "Investigator Odo", "Odo", "Odo Founder", "Overseer Odo"]  # every Odo persona


def test_a_card_file_that_gives_no_card_is_refused_and_the_knowledge_base_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "kb"
    assert main(["build", "--library", str(SEEDS), "--kb", str(kb)]) == 0
    serving = current(kb)
    empty = tmp_path / "Physical.txt"
    empty.write_text("Name\tSet\tType\tAffil\tUniqueness\tPersona\tText\n", encoding="utf-8")
    other = tmp_path / "Virtual.txt"
    other.write_text("Title\tKind\nOdo\tPersonnel\n", encoding="utf-8")
    nameless = tmp_path / "cards.csv"
    nameless.write_text("Name,Set,Type,Affil,Uniqueness,Persona\n,Premiere,Personnel,Bajoran,,\n", encoding="utf-8")
    capsys.readouterr()
    for path, error in (
        (empty, f"{empty}:1: no card read from this card file (0 rows)"),
        (other, f"{other}:1: not a Lackey card file (tab-separated): no column Name, Set, Type, Affil, Uniqueness, "
                "Persona; no card read from this card file"),
        (nameless, f"{nameless}:2: no card name; row skipped; no card read from this card file"),
    ):  # fmt: skip
        assert main(["build", "--library", str(SEEDS), "--kb", str(kb), "--cards", str(path)]) == 1
        assert capsys.readouterr().err == f"rulings: error: {error}\n"
        assert current(kb) == serving


@needs_files
def test_rules_topics_are_no_cards_and_titles_are_read_as_the_glossary_prints_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = library(tmp_path / "library")
    alone = KnowledgeBase(build(rules, tmp_path / "alone").directory)
    assert {"MATCHING COMMANDER", "Naming a Number", "Examining a Card", "One-Time Broadcast Abilities"} <= {
        c["name"] for c in alone.store.cards()
    }  # without a card file, a capitalised ruling's headword is taken for a card
    files = [export_slice(PHYSICAL, tmp_path / "Physical.csv"), export_slice(VIRTUAL, tmp_path / "Virtual.csv")]
    kb = str(tmp_path / "kb")
    assert main(["build", "--library", str(rules), "--kb", kb, "--cards", str(files[0]), "--cards", str(files[1])]) == 0
    capsys.readouterr()
    for name, game in (("MATCHING COMMANDER", "stccg"), ("Naming a Number", "stccg-2e"),
                       ("Examining a Card", "stccg-2e"), ("One-Time Broadcast Abilities", "stccg-2e")):  # fmt: skip
        assert main(["card", "--kb", kb, "--game", game, name]) == 1
        assert capsys.readouterr().err.startswith(f"rulings: error: no card {name!r}")

    def answer(name: str, game: str = "stccg", on: str = "2004-06-01") -> dict[str, list[str]]:
        assert main(["card", "--kb", kb, "--json", "--game", game, "--as-of", on, name]) == 0
        found = json.loads(capsys.readouterr().out)
        return {part: [e["headword"] for e in found[part]] for part in ("headed", "entries")}

    assert answer("Tama", "stccg-2e") == {"headed": ["Tama"], "entries": ["Tama"]}
    assert answer("The Art of Diplomacy") == {"headed": ["Art of Diplomacy, The"], "entries": ["Art of Diplomacy, The"]}
    assert answer("Deanna Troi") == {
        "headed": ["Deanna Troi (First Contact)"],
        "entries": ["Deanna Troi (First Contact)"],
    }
    assert answer("Forced-Labor Camp") == {"headed": [], "entries": ["labor"]}
    assert answer("Labor Camp") == {"headed": [], "entries": ["labor"]}  # "see also Labor Camp"
    # the Current Rulings of 1999, in force until the Glossary of 2002:
    assert answer("Madred", on="2000-01-01") == {"headed": ["MADRED"], "entries": ["MADRED"]}  # the card file's name
    assert answer("Interrogation", on="2000-01-01") == {"headed": [], "entries": []}  # the skill
    commanded = {"headed": [], "entries": ["MATCHING COMMANDER"]}
    assert answer("Kang", on="2000-01-01") == answer("Gowron", on="2000-01-01") == commanded
    assert answer("Martok", on="2000-01-01") == answer("Tama", on="2000-01-01") == commanded  # "the Tama. His"


def test_one_word_titles_after_a_line_break_or_a_sentence_end_and_skills() -> None:
    cards = [Card(name, "stccg", kind) for name, kind in (
        ("Kang", "Personnel"), ("Gowron", "Personnel"), ("Martok", "Personnel"), ("Tama", "Ship"), ("Space", "Mission"),
        ("Interrogation", "Event"), ("Torture", "Event"), ("Q", "Dilemma"), ("Odo", "Personnel"),
        ("Pegasus Search", "Mission"), ("Q-Flash", "Doorway"), ("Human", "Personnel"),
    )]  # fmt: skip
    linker = Linker(cards, {"space"})

    def named(text: str) -> list[str]:
        return [text[m.start : m.end] for m in linker.mentions(text)]

    assert named("I.K.C. Lukara\n\nKang (S)\n\nI.K.C. Negh'Var\n\nGowron (S), Martok (S)") == [
        "Kang", "Gowron", "Martok"
    ]  # fmt: skip
    assert named("The matching commander of the Tama. His special skill") == ["Tama."]
    assert named("Dr. Odo Smith and Deep Space Nine and Lt. Kang Tor") == []  # one word of a longer name
    assert named("Add 1 to Interrogation or Torture. Torture skill, 2 Interrogation.") == []
    assert named("You may play Interrogation on your captive, then Torture.") == ["Interrogation", "Torture."]
    assert named("Q: Can you nullify Q?\nA: No.") == ["Q"]
    assert named("Three Pegasus Searches, two Q-Flashes, no Humans.") == ["Pegasus Searches", "Q-Flashes"]


@needs_files
@pytest.mark.skipif(not (SHARED / "real").is_dir(), reason="../shared/real is absent")
def test_the_real_pages_link_as_labelled_by_hand(tmp_path: Path) -> None:
    kb, left_out = real_kb(tmp_path, [PHYSICAL, VIRTUAL])
    quality = evaluate_real(kb, REAL_LABELS, left_out)
    assert (quality.false, quality.missed, quality.negatives_linked) == ([], [], [])
    assert quality.entries >= 26 and quality.true >= 51  # the entries the parsers give now; more as they improve
    assert quality.precision >= 0.97 and quality.recall >= 0.95


def test_a_card_file_saved_on_windows_or_missing(tmp_path: Path) -> None:
    windows = tmp_path / "Physical.txt"
    windows.write_bytes("Name\tSet\tType\tAffil\tUniqueness\tPersona\tText\nQuark\xe9\tPremiere\tPersonnel\tFerengi\t\t\tBar.\n"
                        .encode("cp1252"))  # fmt: skip
    catalog = Catalog()
    assert import_lackey(windows, catalog).printings == 1
    assert [c.name for c in catalog.cards.values()] == ["Quarké"]
    assert catalog.problems == [f"{windows}:2: not UTF-8; the file was decoded as cp1252 (Windows-1252)"]
    assert import_lackey(tmp_path / "Virtual.txt", catalog).rows == 0
    assert catalog.problems[-1] == f"{tmp_path / 'Virtual.txt'}:1: cannot read the file: No such file or directory"
