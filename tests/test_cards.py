"""Cards: the bundled catalog, the Lackey import, precise linking, card and deck answers."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from helpers import ROOT, SEEDS, SHARED
from kb.errors import UnknownCard
from kb.ingest.catalog import Catalog, bundled_catalog, import_lackey
from kb.ingest.pipeline import build, parse_library
from kb.paths import current
from kb.query import KnowledgeBase
from kb.read.cards import read_deck
from web.app import create_app
from web.cli.main import main

sys.path.insert(0, str(ROOT / "bench"))
from link_quality import evaluate

PHYSICAL = SHARED / "cards" / "Physical.csv"
needs_catalog = pytest.mark.skipif(not PHYSICAL.is_file(), reason="../shared/cards/Physical.csv is absent")
FEDERATION_DECK = (SEEDS / "stccg" / "quick-start-rules.txt").read_text().splitlines()[90]
KLINGON_DECK = (SEEDS / "stccg" / "quick-start-rules.txt").read_text().splitlines()[92]


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(bundled_root))


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    if not PHYSICAL.is_file():
        pytest.skip("../shared/cards/Physical.csv is absent")
    return KnowledgeBase(build(SEEDS, tmp_path_factory.mktemp("real") / "kb", PHYSICAL).directory)


def test_bundled_catalog_from_the_seeds() -> None:
    catalog = bundled_catalog(parse_library(SEEDS))
    by_game: dict[str, list[str]] = {}
    for found in catalog.cards.values():
        by_game.setdefault(found.game, []).append(found.name)
    assert len(by_game["stccg"]) == 102 and len(by_game["neutral-zone"]) == 16
    kreetchta = catalog.cards["neutral-zone:kreetchta"]
    assert (kreetchta.name, kreetchta.aliases, kreetchta.affiliation) == ("Kreetchta", ["Kreechta"], "Neutral")
    assert catalog.cards["neutral-zone:bioship alpha"].aliases == ["Bio-ship Alpha"]
    assert catalog.cards["neutral-zone:iks chtang"].name == "I.K.S. Ch'Tang"
    headed = [c.name for c in catalog.cards.values() if c.source == "seed:stccg-cr-update-2000-11-27"]
    assert headed == [
        "A Fast Ship Would Be Nice",
        "Admiral Riker",
        "Blood Screening",
        "Cha'Joh",
        "Classic Communicator",
        "Conundrum",
        "Hero of the Empire",
        "Kira Nerys",
        "Masaka Transformations",
        "Mission II",
        "Multidimensional Transport Device",
        "Navigate Plasma Storms",
        "Nebula",
        "Radioactive Garbage Scow",
        "Regent Worf",
        "Stop First Contact",
        "Temporal Vortex",
        "Terran Rebellion HQ",
        "The Art of Diplomacy",
    ]
    assert catalog.cards["stccg:conundrum"].type == "Dilemma" and catalog.cards["stccg:uss galaxy"].type == "Ship"


@needs_catalog
def test_lackey_import_of_the_real_catalog() -> None:
    catalog = Catalog()
    assert import_lackey(PHYSICAL, catalog).printings == 3396
    assert catalog.problems == []
    games = [c.game for c in catalog.cards.values()]
    assert (len(games), games.count("stccg"), games.count("stccg-2e")) == (3076, 2370, 706)
    bounty = catalog.cards["stccg:hms bounty"]
    assert (bounty.name, bounty.type, bounty.affiliation) == ("H.M.S. Bounty", "Ship", "Klingon/Federation")
    assert catalog.cards["stccg:borg queen"].sets == ["Trad_Modern_Open_Warp", "The Borg"]
    assert catalog.cards["stccg-2e:altman"].name == "Altman"
    assert catalog.cards["stccg:palor toff alien trader"].name == "Palor Toff: Alien Trader"
    assert catalog.cards["stccg:smiley"].persona == "(Miles O'Brien)"


def test_lackey_bad_rows_are_reported_and_skipped(tmp_path: Path) -> None:
    header = (
        PHYSICAL.read_text(encoding="utf-8-sig").splitlines()[0]
        if PHYSICAL.is_file()
        else (
            "Name,Set,ImageFile,Release,Info,Property,Uniqueness,Type,Mission/ Dilemma Type,Affil,Class,Int/Rng,"
            "Cun/Wpn,Str/Shd,Points,Region,Quadrant,Span,Icons,Staff,Characteristics/ Keywords,Requires,Persona,"
            "Command,Lore,Reports,Names,Text"
        )
    )
    width = header.count(",") + 1
    good = ["Conundrum", "Set", "", "", "", "", "", "Dilemma"] + [""] * (width - 8)
    rows = [
        ",".join(good),
        ",".join(["", *good[1:]]),
        ",".join(good[:5]),
        ",".join([*good, "extra"]),
        ",".join(["Ops*", *good[1:7], "", *good[8:]]),
        ",".join(["Lineup (Premiere)", *good[1:]]),
    ]
    path = tmp_path / "cards.csv"
    path.write_text("\ufeff" + "\n".join([header, *rows]) + "\n", encoding="utf-8")
    catalog = Catalog()
    assert import_lackey(path, catalog).printings == 2
    assert catalog.problems == [
        f"{path}:3: no card name; row skipped",
        f"{path}:4: fewer fields than the header; row skipped",
        f"{path}:5: more fields than the header; row skipped",
        f"{path}:6: no card type; row skipped",
    ]
    assert sorted(c.name for c in catalog.cards.values()) == ["Conundrum", "Lineup"]
    (tmp_path / "other.csv").write_text("Title,Kind\nX,Y\n")
    assert import_lackey(tmp_path / "other.csv", catalog).printings == 0
    assert catalog.problems[-1].endswith("other.csv:1: not a Lackey card file (comma-separated): no column Name, "
                                         "Set, Type, Affil, Uniqueness, Persona")  # fmt: skip


@needs_catalog
def test_link_precision_and_recall_on_seed_004(real: KnowledgeBase) -> None:
    quality = evaluate(real)
    assert quality.precision >= 0.95 and quality.recall >= 0.95
    assert quality.negatives == 15 and quality.negatives_linked == []
    assert (quality.true, quality.false, quality.missed) == (47, [], [])  # "Q-Flashes" is the plural of Q-Flash


def linked(kb: KnowledgeBase, topic: str) -> list[str]:
    return kb.show(topic)["cards"]


@needs_catalog
def test_hard_cases(real: KnowledgeBase) -> None:
    assert linked(real, "Radioactive Garbage Scow") == [
        "Radioactive Garbage Scow",
        "Female's Love Interest & Garbage Scow",
    ]
    assert linked(real, "Temporal Vortex") == ["Temporal Vortex", "Borg Ship"]
    assert linked(real, "movement") == ["Nebula"]
    assert linked(real, "commandeering") == ["Ops", "Commandeer Ship", "Outgunned", "A Fast Ship Would Be Nice"]
    assert "Space" not in linked(real, "Kira Nerys")
    assert linked(real, '"between"') == ["Bajoran Wormhole: Mirror Universe", "Bajoran Wormhole"]


@needs_catalog
def test_persona_references_link_every_card_of_the_persona(real: KnowledgeBase) -> None:
    persona = real.show("persona")["cards"]
    assert {"Mr. Quark", "Quark", "Quark Son of Keldar"} <= set(persona)
    any_ = real.show("any")["cards"]
    assert "Smiley" in any_ and "Odo" in any_
    (version,) = real.in_force("stccg:any", dt.date.today())
    links = {((real.store.card_row(k) or {})["name"], via) for k, via in real.store.card_links(version)}
    assert ("Odo Founder", "title") in links and ("Odo Founder", "persona") not in links
    assert ("Overseer Odo", "persona") in links and ("Smiley", "persona") in links


def test_bundled_links_spellings(bundled: KnowledgeBase) -> None:
    assert bundled.show("Collect", game="neutral-zone")["cards"] == ["IKS QhonDoq"]
    assert bundled.card("Kreechta")["name"] == "Kreetchta"
    kreetchta = bundled.card("Kreetchta", game="neutral-zone")
    assert [e["headword"] for e in kreetchta["entries"]] == ["Kreechta"]
    bioship = bundled.card("Bio-ship Alpha")
    assert bioship["name"] == "Bioship Alpha"
    assert sorted(e["headword"] for e in bioship["entries"]) == ["Bio-ship Alpha", "Ship Disc Anatomy"]


def test_card_answer(bundled: KnowledgeBase) -> None:
    answer = bundled.card("conundrum")
    assert (answer["name"], answer["type"], answer["game"]) == ("Conundrum", "Dilemma", "stccg")
    assert [e["headword"] for e in answer["headed"]] == ["Conundrum"]
    assert answer["history"][0]["via"] == ["headword"]
    nebula = bundled.card("[univ] Nebula")
    assert [e["headword"] for e in nebula["entries"]] == ["[univ] Nebula", "movement"]
    with pytest.raises(UnknownCard) as caught:
        bundled.card("Conondrum")
    assert caught.value.suggestions[0] == "Conundrum"


def test_deck_formats() -> None:
    assert read_deck("2x Conundrum\nNor x3\n4 Ops\nLineup (2)\n# comment\n\nRunabout\n", []) == [
        ("Conundrum", 2),
        ("Nor", 3),
        ("Ops", 4),
        ("Lineup", 2),
        ("Runabout", 1),
    ]


def test_quick_start_federation_deck(bundled: KnowledgeBase) -> None:
    answer = bundled.deck(FEDERATION_DECK)
    assert answer["total"] == 60 and len(answer["cards"]) == 53 and answer["unknown"] == []
    with_rulings = {c["name"]: [e["headword"] for e in c["entries"]] for c in answer["cards"] if c["entries"]}
    assert with_rulings == {
        "Federation Outpost": ["[univ] Federation Outpost"],
        "Montgomery Scott": ["Playing Cards From Your Hand", '"any"'],
    }
    klingon = bundled.deck(KLINGON_DECK + "\n2x Conondrum\n")
    assert klingon["total"] == 62 and klingon["unknown"] == [
        {"name": "Conondrum", "count": 2, "suggestions": ["Conundrum"]}
    ]


def test_cli_card_deck_and_diff_by_deck(bundled_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kb_root = str(bundled_root)
    assert main(["card", "Conundrum", "--kb", kb_root, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["name"] == "Conundrum" and [e["headword"] for e in answer["entries"]] == ["Conundrum"]
    assert main(["card", "Conondrum", "--kb", kb_root]) == 1
    assert capsys.readouterr().err == "rulings: error: no card 'Conondrum'; did you mean: Conundrum?\n"
    assert main(["show", "commandeering", "--kb", kb_root, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == ["A Fast Ship Would Be Nice"]
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text("Conundrum\nA Fast Ship Would Be Nice\n")
    assert main(["diff", "2000-10-30", "2000-11-27", "--deck", str(deck_file), "--kb", kb_root, "--json"]) == 0
    diff = json.loads(capsys.readouterr().out)
    assert [i["headword"] for i in diff["added"]] == ["A Fast Ship Would Be Nice", "commandeering", "Conundrum"]
    assert main(["deck", str(deck_file), "--kb", kb_root]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Deck of 2 cards, rulings in force on ")


CONUNDRUM_TEXT = (
    "Unless INTEGRITY>40, this ship must do nothing but chase (at normal speed) and attack one of your opponent's "
    "ships on this spaceline (your choice). Discard dilemma."
)
CONUNDRUM_LORE = (
    "In 2368, U.S.S. Enterprise personnel were given amnesia by Satarrans, who then attempted to trick the crew "
    "into attacking Lysian ships and a Lysian command station."
)


@needs_catalog
def test_card_answer_shows_the_printed_card(real: KnowledgeBase) -> None:
    answer = real.card("Conundrum", dt.date(2001, 1, 1))
    assert answer["printed"] is True
    assert [{k: p[k] for k in ("release", "number", "rarity", "type", "affiliation", "icons", "text", "lore")}
            for p in answer["printings"]] == [
        {"release": "au", "number": "", "rarity": "C", "type": "Dilemma", "affiliation": "", "icons": "[AU]",
         "text": CONUNDRUM_TEXT, "lore": CONUNDRUM_LORE}
    ]  # fmt: skip
    bounty = real.card("H.M.S. Bounty")["printings"][0]
    assert (bounty["release"], bounty["number"], bounty["rarity"], bounty["affiliation"], bounty["icons"]) == (
        "tmp", "110", "R+", "Klingon/Federation", "[AU][Films]"
    )  # fmt: skip
    scott = real.card("Montgomery Scott", dt.date(2001, 1, 1))
    assert [(r["since"], r["headword"], r["label"]) for r in scott["rulings"]] == [
        ("2000-11-27", '"any"', "Glossary"),
        ("1996-12-01", "Playing Cards From Your Hand",
         "Rulebook: Star Trek: The Next Generation CCG Introductory Two-Player Game: Quick-Start Rules"),
    ]  # fmt: skip


@needs_catalog
def test_card_page_and_cli_show_set_rarity_text_and_lore(
    real: KnowledgeBase, capsys: pytest.CaptureFixture[str]
) -> None:
    client = create_app({"KB": str(real.directory.parent.parent), "TESTING": True}).test_client()
    page = client.get("/card/Conundrum?as_of=2001-01-01").get_data(as_text=True)
    assert "<dt>Set and rarity</dt><dd>au, rarity C</dd>" in page and "<dt>Icons</dt><dd>[AU]</dd>" in page
    assert f'<dd class="game-text">{escape(CONUNDRUM_TEXT)}</dd>' in page
    assert f'<dd class="lore">{escape(CONUNDRUM_LORE)}</dd>' in page
    assert "Trad_Modern_Open_Warp" not in page
    assert '<h2>Rulings headed by it</h2>\n<h3><a href="/entry/stccg:conundrum">Conundrum</a></h3>' in page
    bounty = client.get("/card/H.M.S.%20Bounty").get_data(as_text=True)
    assert "<dd>tmp #110, rarity R+</dd>" in bounty and "<dt>Affiliation</dt><dd>Klingon/Federation</dd>" in bounty
    assert main(["card", "Conundrum", "--kb", str(real.directory.parent.parent), "--as-of", "2001-01-01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:8] == [
        "  printing: Conundrum  set au, rarity C",
        "    type: Dilemma",
        "    icons: [AU]",
        f"    game text: {CONUNDRUM_TEXT}",
        f"    lore: {CONUNDRUM_LORE}",
        "Rulings in force, newest first: 1",
        "  2000-11-27  Conundrum (Glossary)  /version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary",
    ]


def test_bundled_card_says_it_has_no_printed_details(
    bundled: KnowledgeBase, bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = bundled.card("Conundrum", dt.date(2001, 1, 1))
    assert (answer["printed"], answer["printings"]) == (False, [])
    assert [(r["since"], r["headword"], r["label"]) for r in answer["rulings"]] == [
        ("2000-11-27", "Conundrum", "Glossary")
    ]
    client = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    page = client.get("/card/Conundrum").get_data(as_text=True)
    assert "The catalog has no set, rarity, game text or lore for this card" in page
    assert "<dt>" not in page
    assert main(["card", "Conundrum", "--kb", str(bundled_root), "--as-of", "2001-01-01"]) == 0
    assert capsys.readouterr().out.splitlines()[1:4] == [
        "  no set, rarity, game text or lore in the catalog (build with a Lackey card file to add them)",
        "Rulings in force, newest first: 1",
        "  2000-11-27  Conundrum (Glossary)  /version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary",
    ]
