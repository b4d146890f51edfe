"""Several card files imported together: their name conventions read, printings under one title."""

from __future__ import annotations

import json
import shutil
import sys
import unicodedata
from pathlib import Path

import pytest

from helpers import ROOT, SEEDS, SHARED
from kb.ingest.catalog import Catalog, import_lackey, read_name
from kb.ingest.pipeline import build
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

sys.path.insert(0, str(ROOT / "bench"))
from link_quality import evaluate

PHYSICAL = SHARED / "cards" / "Physical.csv"
VIRTUAL = SHARED / "cards" / "Virtual.csv"
needs_files = pytest.mark.skipif(
    not (PHYSICAL.is_file() and VIRTUAL.is_file()), reason="../shared/cards/Physical.csv or Virtual.csv is absent"
)
HEADER = "Name,Set,ImageFile,Release,Info,Property,Uniqueness,Type,Affil,Persona,Text"


def write_csv(path: Path, rows: list[str]) -> Path:
    path.write_text("\ufeff" + "\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def our_files(tmp_path: Path) -> list[Path]:
    physical = write_csv(
        tmp_path / "Physical.csv",
        [
            "Odo,Premiere,odo,premiere,R,DS9,,Personnel,Bajoran,,Security chief.",
            "Odo Founder,Dominion,odof,dom,R,DS9,,Personnel,Dominion,<Odo>,Impersonates Odo.",
            "Odo 2E (Constable),Second,odo2e,2e,R,DS9,,Personnel,Bajoran,,Second Edition.",
            "Kira**,Premiere,kira,premiere,R,DS9,,Personnel,Bajoran,,Major.",
        ],
    )
    virtual = write_csv(
        tmp_path / "Virtual.csv",
        [
            "Odo *VP,Promo,odovp,VP,VP,DS9,,Personnel,Bajoran,,Virtual promo.",
            "Odo (Homefront II) *VP,Promo,odohf,VP,VP,DS9,,Personnel,Bajoran,(Odo),Homefront.",
            "Odo (Dogs of War)+,Virtual,odod,dow,V,DS9,,Personnel,Bajoran,Odo,Dogs.",
            ",Virtual,none,dow,V,DS9,,Personnel,Bajoran,Odo,No name.",
        ],
    )
    return [physical, virtual]


def test_name_conventions() -> None:
    assert read_name("Odo (Dogs of War)* *VP") == ("Odo", "stccg", ["Dogs of War"], ["virtual", "*", "parenthesised"])
    assert read_name("Kathryn Janeway 2E (Clever Captain)**") == (
        "Kathryn Janeway", "stccg-2e", ["Clever Captain"], ["*", "parenthesised", "2E"]
    )  # fmt: skip
    assert read_name("Alyssa Ogawa (First Contact) (Tribble)") == (
        "Alyssa Ogawa", "stccg", ["First Contact", "Tribble"], ["parenthesised"]
    )  # fmt: skip
    assert read_name("H.M.S. Bounty*") == ("H.M.S. Bounty", "stccg", [], ["*"])


def test_two_files_import_with_report_and_printings(our_files: list[Path]) -> None:
    catalog = Catalog()
    reports = [import_lackey(path, catalog) for path in our_files]
    assert [r.line() for r in reports] == [
        "Physical.csv: 4 rows, 4 printings of 4 titles, 0 skipped; conventions met: trailing '*' 1, "
        "parenthesised set or disambiguator 1, '2E' card of the Second Edition (stccg-2e) 1, "
        "Persona without parentheses 1",
        "Virtual.csv: 4 rows, 3 printings of 1 titles, 1 skipped; conventions met: ' *VP' virtual promo 2, "
        "trailing '+' 1, parenthesised set or disambiguator 2, Persona in parentheses 1, Persona without parentheses 1",
    ]
    assert catalog.problems == [f"{our_files[1]}:5: no card name; row skipped"]
    odo = catalog.cards["stccg:odo"]
    assert [p.name for p in odo.printings] == ["Odo", "Odo *VP", "Odo (Homefront II) *VP", "Odo (Dogs of War)+"]
    assert [(p.set, p.release, p.disambiguator, p.virtual) for p in odo.printings[1:3]] == [
        ("Promo", "VP", "", True),
        ("Promo", "VP", "Homefront II", True),
    ]
    assert (odo.persona, odo.sets) == ("", ["Premiere", "Promo", "Homefront II", "Virtual", "Dogs of War"])
    assert catalog.cards["stccg-2e:odo"].printings[0].name == "Odo 2E (Constable)"
    assert catalog.cards["stccg:kira"].name == "Kira"


def test_build_with_repeated_cards_option(
    our_files: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb, seeds = str(tmp_path / "kb"), shutil.copytree(SEEDS, tmp_path / "library")  # the build keeps the card files
    args = ["build", "--library", str(seeds), "--kb", kb, "--cards", str(our_files[0]), "--cards", str(our_files[1])]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if line.startswith("cards: "))
    assert out[at + 1 : at + 3] == [
        "  Physical.csv: 4 rows, 4 printings of 4 titles, 0 skipped; conventions met: trailing '*' 1, "
        "parenthesised set or disambiguator 1, '2E' card of the Second Edition (stccg-2e) 1, "
        "Persona without parentheses 1",
        "  Virtual.csv: 4 rows, 3 printings of 1 titles, 1 skipped; conventions met: ' *VP' virtual promo 2, "
        "trailing '+' 1, parenthesised set or disambiguator 2, Persona in parentheses 1, Persona without parentheses 1",
    ]
    assert main(["card", "--kb", kb, "--json", "--game", "stccg", "Odo *VP"]) == 1
    capsys.readouterr()
    assert main(["card", "--kb", kb, "--json", "--game", "stccg", "Odo"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in answer["printings"]] == [
        "Odo", "Odo *VP", "Odo (Homefront II) *VP", "Odo (Dogs of War)+"
    ]  # fmt: skip
    base = KnowledgeBase(Path(kb) / "current")
    anys = [v for v in base.store.every_version() if v.headword == '"any"']
    named = sorted(
        {(base.store.card_row(k) or {})["name"] for v in anys for k, _ in base.store.card_links(v) if "odo" in k}
    )
    assert named == ["Odo", "Odo Founder"]
    html = create_app({"KB": kb, "TESTING": True}).test_client().get("/card/Odo?game=stccg").get_data(as_text=True)
    assert [line for line in html.splitlines() if line.startswith("<h3>Odo")] == [
        "<h3>Odo</h3>", "<h3>Odo *VP</h3>", "<h3>Odo (Homefront II) *VP</h3>", "<h3>Odo (Dogs of War)+</h3>"
    ]  # fmt: skip
    assert "<dt>Set and rarity</dt><dd>dow, rarity V</dd>" in html and '<dd class="game-text">Dogs.</dd>' in html
    assert "Promo" not in html and "Premiere" not in html


@needs_files
def test_the_community_files_together(tmp_path: Path) -> None:
    report = build(SEEDS, tmp_path / "kb", [PHYSICAL, VIRTUAL])
    assert [i.line() for i in report.imports] == [
        "Physical.csv: 3396 rows, 3396 printings of 3076 titles, 0 skipped; conventions met: trailing '*' 48, "
        "parenthesised set or disambiguator 648, '2E' card of the Second Edition (stccg-2e) 762, "
        "Persona in parentheses 36, Persona without parentheses 114",
        "Virtual.csv: 2885 rows, 2885 printings of 2493 titles, 0 skipped; conventions met: "
        "' *VP' virtual promo 323, trailing '*' 102, trailing '+' 2, parenthesised set or disambiguator 324, "
        "'2E' card of the Second Edition (stccg-2e) 76, Persona in parentheses 53, Persona without parentheses 149",
    ]
    kb = KnowledgeBase(report.directory)
    odo = json.loads((kb.store.card_row("stccg:odo") or {})["printings"])
    assert len(odo) == 14 and {p["name"] for p in odo} >= {"Odo *VP", "Odo (Homefront II) *VP", "Odo (Homefront II)"}
    assert not [c for c in kb.store.cards() if c["name"].endswith(("*VP", "*", ")"))]
    quality = evaluate(kb)
    assert (quality.true, len(quality.false), len(quality.missed)) == (47, 0, 0)


@needs_files
def test_no_two_community_cards_fold_to_one_title_key() -> None:
    """`title_key` folds accents (issue 37): no two cards of the community's files whose names differ
    only by their accents become one. Their names and personas are all ASCII (the files' only other
    letters, a mis-decoded apostrophe in ``Tal\u0393\u00c7\u00d6Aura``, are in a column the catalog does not read)."""
    catalog = Catalog()
    for path in (PHYSICAL, VIRTUAL):
        import_lackey(path, catalog)
    assert len(catalog.cards) == 4711  # as many as before accents were folded
    names = [{p.name for p in card.printings} | {card.name, *card.aliases} for card in catalog.cards.values()]
    assert [n for spellings in names for n in spellings if not n.isascii()] == []
    assert [c.persona for c in catalog.cards.values() if not c.persona.isascii()] == []
    for spellings in names:  # no card holds names differing by their accents
        assert len({"".join(filter(unicodedata.combining, unicodedata.normalize("NFD", n))) for n in spellings}) == 1
