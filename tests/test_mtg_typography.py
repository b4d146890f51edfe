"""A release that changes typography alone is no change of rule: the five shared releases of
Magic's Comprehensive Rules (``../shared/mtg-cr``, skipped without it) and a sixth derived in the
test from the last one, its rules' em dashes made ASCII hyphens, their straight quotes curly and
702.19b's first example re-joined to the rule's line. Built into one knowledge base, the sixth
makes no new version, its diff counts nothing and folds every such rule apart as "typography
only", and `show` prints each rule as the sixth prints it."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from pathlib import Path

import pytest
from mtg_reader import Release, read_release
from test_answers import NUMBERED_RULES, mismatches

from helpers import SHARED
from kb import answers
from kb.ingest.pipeline import build
from kb.paging import Paging
from kb.paths import current
from kb.query import KnowledgeBase
from kb.typography import folded, typography_only
from web.app import create_app
from web.cli.main import main

RELEASES = SHARED / "mtg-cr"
pytestmark = pytest.mark.skipif(not RELEASES.is_dir(), reason="../shared/mtg-cr (the real releases) is absent")
LAST = "MagicCompRules-20210419.txt"
_RULE_LINE = re.compile(r"^( +\d{3}\.\d+[a-z]*\.? )(.*)$")
_QUOTED = re.compile(r'"([^"]*)"')


def derived(text: str) -> str:
    """The last release as a sixth of June 1, 2021: in each rule's line, em dashes as ASCII
    hyphens, straight quotes curly; 702.19b's first example re-joined to the rule's line."""
    lines = text.replace("April 22, 2021", "June 1, 2021", 1).split("\n")
    out: list[str] = []
    for line in lines:
        found = _RULE_LINE.match(line)
        if found:
            body = _QUOTED.sub("\u201c\\1\u201d", found[2].replace("\u2014", "-")).replace("'", "\u2019")
            line = found[1] + body
        if out and out[-1].lstrip().startswith("702.19b ") and "Example:" not in out[-1] and "Example:" in line:
            out[-1] += " " + line.strip()
            continue
        out.append(line)
    return "\n".join(out)


@pytest.fixture(scope="module")
def typo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The five releases and the derived sixth in one knowledge base."""
    work = tmp_path_factory.mktemp("mtg-typography")
    folder = work / "library" / "mtg"
    folder.mkdir(parents=True)
    names = sorted(p.name for p in RELEASES.glob("MagicCompRules-*.txt"))
    for name in names:
        shutil.copy(RELEASES / name, folder / name)
    sixth = (RELEASES / LAST).read_bytes().decode("utf-8-sig")
    (folder / "MagicCompRules-20210601.txt").write_text(derived(sixth), encoding="utf-8")
    tables = [
        f'[[document]]\nid = "cr-{stamp}"\nfile = "mtg/MagicCompRules-{stamp}.txt"\ngame = "mtg"\n'
        f'kind = "comprehensive-rules"\ntitle = "Comprehensive Rules"\nversion = "{stamp}"\n'
        for stamp in [n.removeprefix("MagicCompRules-").removesuffix(".txt") for n in names] + ["20210601"]
    ]
    (work / "library" / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    build(work / "library", work / "kb")
    return work / "kb"


@pytest.fixture(scope="module")
def kb(typo_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(typo_root))


@pytest.fixture(scope="module")
def pair(typo_root: Path) -> tuple[Release, Release]:
    """The last real release and the derived sixth, as the independent reader reads them."""
    folder = typo_root.parent / "library" / "mtg"
    return read_release(folder / LAST), read_release(folder / "MagicCompRules-20210601.txt")


def test_typography_alone_folds_quotes_dashes_spaces_and_line_breaks() -> None:
    assert typography_only("a \u201cb\u201d \u2014 c\u2019s\n\nd", 'a "b" - c\'s d')
    assert typography_only("Example\u2014text", "Example - text")
    assert not typography_only("the same", "the same")
    assert not typography_only("deals 2 damage", "deals 3 damage")
    assert folded("  one \u2013\u2013 two  ") == "one-two"


def test_the_derived_release_differs_in_typography_alone(pair: tuple[Release, Release]) -> None:
    real, sixth = pair
    assert (real.date, sixth.date) == (dt.date(2021, 4, 22), dt.date(2021, 6, 1))
    assert set(real.rules) == set(sixth.rules) and real.terms == sixth.terms
    differ = sorted(k for k in real.rules if real.rules[k] != sixth.rules[k])
    assert len(differ) == 1492
    assert all(typography_only(real.rules[k], sixth.rules[k]) for k in differ)
    assert [len(r.rules["702.19b"].split("\n\n")) for r in pair] == [3, 2]
    assert (
        sixth.rules["702.19b"]
        .split("\n\n")[0]
        .endswith(
            "it\u2019s attacking. Example: A 2/2 creature that can block an"
            " additional creature blocks two attackers: a 1/1 with no"
            " abilities and a 3/3 with trample. The active player could"
            " assign 1 damage from the first attacker and 1 damage from"
            " the second to the blocking creature, and 2 damage to the"
            " defending player from the creature with trample."
        )
    )


def test_a_release_of_typography_alone_makes_no_version_and_no_change(
    kb: KnowledgeBase, pair: tuple[Release, Release]
) -> None:
    real, sixth = pair
    answer = kb.diff(real.date, sixth.date, "mtg", paging=Paging(0, None))
    assert answer["counts"] == {"added": 0, "changed": 0, "rescinded": 0, "pending": 0}
    differ = {k for k in real.rules if real.rules[k] != sixth.rules[k]}
    assert {i["headword"] for i in answer["typography"]} == differ
    assert len(answer["typography"]) == 1492
    item = next(i for i in answer["typography"] if i["headword"] == "702.19b")
    assert (item["document"]["document"], item["document"]["lines"]) == ("cr-20210601", "3481-3482")
    assert ("-", "\n\n") in item["diff"] and ("+", " ") in item["diff"]
    assert len(kb.store.versions_of("mtg:702-19b")) == 3  # the sixth made none
    versions = kb.store.rows("SELECT COUNT(*) FROM versions WHERE document_id = 'cr-20210601'")
    assert versions[0][0] == 0


def test_show_prints_a_rule_as_the_release_in_force_prints_it(kb: KnowledgeBase, pair: tuple[Release, Release]) -> None:
    real, sixth = pair
    for release in (real, sixth):
        for key in ("702.19b", "100.2a", "702.2c", "Trample"):
            assert kb.show(key, release.date, "mtg")["text"] == ({**release.rules, **release.terms})[key], key


def test_the_diff_folds_typography_on_the_command_line_and_the_page(
    typo_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["diff", "2021-04-22", "2021-06-01", "--game", "mtg", "--kb", str(typo_root)])
    out = capsys.readouterr().out
    assert "Changes from 2021-04-22 to 2021-06-01: 0 changed, 0 added, 0 rescinded, 0 pending\n" in out
    assert "Typography only, not counted: 1492 restated with the same words (quotes,\n" in out
    main(["diff", "2021-04-22", "2021-06-01", "--game", "mtg", "--kb", str(typo_root), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert (answer["counts"]["changed"], len(answer["typography"])) == (0, 1492)
    client = create_app({"KB": str(typo_root), "TESTING": True}).test_client()
    page = client.get("/diff?from=2021-04-22&to=2021-06-01&game=mtg").get_data(as_text=True)
    assert '<a href="#typography">1492 typography only</a> (not counted)' in page
    assert re.findall(r"<summary>(Typography only, not counted: \d+ texts)", page) == [
        "Typography only, not counted: 1492 texts"
    ]


def test_the_answers_of_numbered_rules_hold_their_contracts(kb: KnowledgeBase) -> None:
    """The shapes the bundled libraries never give (`test_answers.NUMBERED_RULES`), met here in real answers."""
    reached: set[str] = set()
    asked = [
        (kb.show("702.19", dt.date(2021, 6, 1), "mtg"), answers.ShowAnswer),
        (kb.show("100", dt.date(2021, 6, 1), "mtg"), answers.ShowAnswer),
        (kb.diff(dt.date(2021, 4, 22), dt.date(2021, 6, 1), "mtg"), answers.DiffAnswer),
        (kb.history("702.19b", "mtg"), answers.HistoryAnswer),
    ]
    wrong = [list(mismatches(json.loads(json.dumps(a)), shape, reached=reached)) for a, shape in asked]
    assert (wrong, NUMBERED_RULES - reached) == ([[], [], [], []], set())


def test_adding_the_sixth_to_a_build_of_five_answers_as_the_full_build(typo_root: Path, tmp_path: Path) -> None:
    """`rulings add` of the derived sixth release to a build of the five: the same versions (each with
    the releases restating it) and the same diff as the build of all six."""
    library = tmp_path / "library"
    shutil.copytree(typo_root.parent / "library", library)
    sixth = library / "mtg" / "MagicCompRules-20210601.txt"
    moved = tmp_path / "MagicCompRules-20210601.txt"
    sixth.rename(moved)
    manifest = library / "library.toml"
    tables = manifest.read_text(encoding="utf-8").split("\n[[document]]")
    manifest.write_text("\n[[document]]".join(tables[:-1]), encoding="utf-8")
    build(library, tmp_path / "kb")
    flags = ["--kind", "comprehensive-rules", "--date", "2021-06-01", "--game", "mtg", "--version", "20210601"]
    assert main(["add", str(moved), *flags, "--title", "Comprehensive Rules", "--library", str(library),
                 "--kb", str(tmp_path / "kb")]) == 0  # fmt: skip
    sql = "SELECT topic_id, valid_from, valid_to, line_start, restated FROM versions ORDER BY topic_id, valid_from"
    added, full = KnowledgeBase(current(tmp_path / "kb")), KnowledgeBase(current(typo_root))
    named = [tuple(r) for r in full.store.rows(sql)]  # the sixth is named by its manifest's id there, by its file here
    assert [
        (*r[:4], r[4].replace("mtg-magiccomprules-20210601", "cr-20210601")) for r in added.store.rows(sql)
    ] == named
    on = dt.date(2021, 6, 1)
    restated = [kb.show("702.19", on, "mtg")["parts"][0]["restated"] or {} for kb in (added, full)]
    assert [(r["date"], r["lines"], r["typography"]) for r in restated] == [("2021-06-01", "3477", False)] * 2
    assert len(added.diff(dt.date(2021, 4, 22), on, "mtg")["typography"]) == 1492
