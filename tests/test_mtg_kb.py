"""The five shared releases of Magic's Comprehensive Rules built into one knowledge base (from
``../shared/mtg-cr``, skipped without it): every rule and term of every release shown as of its
date as the independent reader (`mtg_reader`) reads it, each diff between neighbours the reader's
changes exactly, moves found and followed back."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from mtg_reader import Release, changes, moves, read_release

from helpers import SHARED
from kb.ingest.pipeline import build
from kb.paging import Paging
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main
from web.entries import linked
from web.export.site import Site, page_file, rewrite, split_url, urls

RELEASES = SHARED / "mtg-cr"
pytestmark = pytest.mark.skipif(not RELEASES.is_dir(), reason="../shared/mtg-cr (the real releases) is absent")
NAMES = sorted(p.name for p in RELEASES.glob("MagicCompRules-*.txt")) if RELEASES.is_dir() else []


@pytest.fixture(scope="session")
def mtg_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of the five releases; the manifest gives no dates (each is read from its text)."""
    work = tmp_path_factory.mktemp("mtg-kb")
    (work / "library" / "mtg").mkdir(parents=True)
    tables = []
    for name in NAMES:
        shutil.copy(RELEASES / name, work / "library" / "mtg" / name)
        stamp = name.removeprefix("MagicCompRules-").removesuffix(".txt")
        tables.append(
            f'[[document]]\nid = "cr-{stamp}"\nfile = "mtg/{name}"\ngame = "mtg"\nkind = "comprehensive-rules"\n'
            f'title = "Comprehensive Rules"\nversion = "{stamp}"\n'
        )
    (work / "library" / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    started = time.perf_counter()
    build(work / "library", work / "kb")
    print(f"built the five releases in {time.perf_counter() - started:.1f} s")
    return work / "kb"


@pytest.fixture(scope="module")
def mtg(mtg_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(mtg_root))


@pytest.fixture(scope="module")
def releases() -> list[Release]:
    return [read_release(RELEASES / name) for name in NAMES]


def test_every_rule_and_term_of_every_release_as_of_its_date(mtg: KnowledgeBase, releases: list[Release]) -> None:
    assert [r.date for r in releases] == [dt.date(2017, 8, 25), dt.date(2018, 7, 13), dt.date(2019, 7, 12),
                                          dt.date(2020, 6, 1), dt.date(2021, 4, 22)]  # fmt: skip
    compared = 0
    for release in releases:
        wrong = []
        for key, text in {**release.rules, **release.terms}.items():
            shown = mtg.show(key, release.date, "mtg")
            if shown["text"] != text or len(shown["parts"]) != 1:
                wrong.append((key, shown["text"][:60], text[:60]))
            compared += 1
        assert wrong == [], release.date
    assert compared == 2368 + 533 + 2439 + 544 + 2485 + 559 + 2577 + 570 + 2663 + 589


def test_show_through_the_command_line(
    mtg_root: Path, releases: list[Release], capsys: pytest.CaptureFixture[str]
) -> None:
    for release in (releases[0], releases[-1]):
        for key in ("702.2b", "702.9", "Range of Influence", "8"):
            main(["show", key, "--game", "mtg", "--as-of", release.date.isoformat(), "--kb", str(mtg_root), "--json"])
            answer = json.loads(capsys.readouterr().out)
            expected = release.rules.get(key) or release.terms[key]
            assert (answer["headword"], answer["text"]) == (key, expected)
    main(["show", "702.9b", "--game", "mtg", "--as-of", "2020-06-01", "--kb", str(mtg_root)])
    out = capsys.readouterr().out
    assert "    See: 509, 702.17\n" in out and "active since 2017-08-25; original" in out


def test_a_rule_absent_from_a_release_ends_on_its_date(mtg: KnowledgeBase, releases: list[Release]) -> None:
    gone = sorted(set(releases[0].rules) - set(releases[1].rules))
    assert (len(gone), len(set(releases[0].terms) - set(releases[1].terms))) == (81, 2)
    for key in gone:
        shown = mtg.show(key, releases[1].date, "mtg")
        ends = {(v.valid_to, v.end) for v in mtg.store.versions_of(shown["topic"])}
        assert (shown["parts"], (dt.date(2018, 7, 13), "rescinded") in ends) == ([], True), key


def test_each_diff_between_neighbours_is_the_readers(mtg: KnowledgeBase, releases: list[Release]) -> None:
    for before, after in itertools.pairwise(releases):
        answer = mtg.diff(before.date, after.date, "mtg", paging=Paging(0, None))
        found = {kind: {_key(i["headword"]) for i in answer[kind]} for kind in ("added", "changed", "rescinded")}
        assert found == changes(before, after), (before.date, after.date)
        moved = {(i["moved_from"], i["headword"]) for kind in ("added", "changed") for i in answer[kind]}
        expected = moves(before, after)
        assert {m for m in moved if m[0]} == {
            (o if o in before.rules else _headword(before, o), n if n in after.rules else _headword(after, n))
            for o, n in expected
        }
    counts = [{k: len(v) for k, v in changes(a, b).items()} for a, b in itertools.pairwise(releases)]
    assert counts == [
        {"added": 165, "changed": 602, "rescinded": 83},
        {"added": 198, "changed": 270, "rescinded": 137},
        {"added": 161, "changed": 171, "rescinded": 58},
        {"added": 250, "changed": 795, "rescinded": 145},
    ]
    assert [len(moves(a, b)) for a, b in itertools.pairwise(releases)] == [197, 223, 115, 588]


def test_diff_through_the_command_line_carries_moved_from(mtg_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read page after page (a page ends by its work, changed items first), as a reader of the JSON does."""
    added: dict[str, str | None] = {}
    offset: int | None = 0
    while offset is not None:
        asked = ["diff", "2020-06-01", "2021-04-22", "--game", "mtg", "--kb", str(mtg_root), "--json"]
        main([*asked, "--size", "1000", "--offset", str(offset)])
        answer = json.loads(capsys.readouterr().out)
        assert answer["counts"] == {"added": 250, "changed": 795, "rescinded": 145, "pending": 0}
        added |= {i["headword"]: i["moved_from"] for i in answer["added"]}
        offset = answer["page"]["next"]
    assert len(added) == 250
    assert (added["206.3a"], added["103.2d"]) == ("700.8a", "103.1d")


def test_history_follows_a_text_back_across_moves(mtg: KnowledgeBase) -> None:
    history = mtg.history("206.3a", "mtg")
    assert [(v["headword"], v["valid_from"], v["note"]) for v in history["versions"]] == [
        ("700.6a", "2017-08-25", "moved to 700.7a"),
        ("700.7a", "2018-07-13", "moved from 700.6a; moved to 700.8a"),
        ("700.8a", "2019-07-12", "moved from 700.7a; moved to 206.3a"),
        ("206.3a", "2021-04-22", "moved from 700.8a"),
    ]


def _key(headword: str) -> str:
    """How the reader keys a headword: rules as printed, terms folded."""
    return headword if headword[:1].isdigit() else headword.casefold()


def _headword(release: Release, folded: str) -> str:
    return next(term for term in release.terms if term.casefold() == folded)


QUESTIONS = [
    ("can a creature with flying be blocked by a creature with reach", "702.9b"),
    ("minimum deck size in constructed play", "100.2a"),
    ("player with 0 or less life loses the game", "704.5a"),
    ("player attempted to draw a card from a library with no cards", "704.5b"),
    ("two legendary permanents with the same name", "704.5j"),
    ("starting life total in a commander game", "119.1c"),
    ("trample assigns excess damage to the player", "702.19b"),
    ("damage dealt by a source with lifelink", "702.15b"),
    ("hexproof can't be the target of spells your opponents control", "702.11b"),
    ("first strike combat damage step", "702.7b"),
]
"""Ten questions written from the rules' text of 2021-04-22, each with the rule that answers it."""


@pytest.mark.parametrize(("question", "rule"), QUESTIONS)
def test_a_question_finds_its_rule_in_the_top_three(mtg: KnowledgeBase, question: str, rule: str) -> None:
    found = [r["headword"] for r in mtg.search(question, game="mtg", limit=3)["results"]]
    assert rule in found, found


def test_the_deathtouch_question_through_the_command_line(mtg_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = "what happens to a creature dealt damage by deathtouch"
    main(["search", question, "--game", "mtg", "--kb", str(mtg_root), "--json", "--limit", "3"])
    found = [r["headword"] for r in json.loads(capsys.readouterr().out)["results"]]
    assert "702.2b" in found, found


@pytest.mark.parametrize(("typed", "rule"), [("702.9a", "702.9a"), ("rule 702.9", "702.9"), ("Section 8", "8")])
def test_a_rule_number_typed_alone_goes_straight_to_it(mtg: KnowledgeBase, typed: str, rule: str) -> None:
    results = mtg.search(typed, dt.date(2019, 7, 12), game="mtg")["results"]
    assert (results[0]["headword"], results[0]["full"], results[0]["valid_from"]) == (rule, True, "2017-08-25")


def test_a_rule_page_shows_its_subrules_citations_and_moves(mtg_root: Path) -> None:
    client = create_app({"KB": str(mtg_root), "TESTING": True}).test_client()
    section = client.get("/entry/702.9?as_of=2020-06-01").get_data(as_text=True)
    assert re.findall(r'<li id="rule-(702-9[a-z])"><a class="number" href="([^"]*)">([^<]*)</a>', section) == [
        (f"702-9{x}", f"/entry/mtg:702-9{x}?as_of=2020-06-01", f"702.9{x}") for x in "abc"
    ]
    rule = client.get("/entry/702.9b?as_of=2020-06-01").get_data(as_text=True)
    assert re.findall(r"<p>Cites: (.*?)</p>", rule) == [
        '<a href="/entry/mtg:509?as_of=2020-06-01">509</a>, <a href="/entry/mtg:702-17?as_of=2020-06-01">702.17</a>'
    ]
    moved = client.get("/entry/206.3a").get_data(as_text=True)
    assert re.findall(r"\(as (\d+\.\d+a)\); (moved [^<]*?); <span", moved) == [
        ("700.6a", "moved to 700.7a"),
        ("700.7a", "moved from 700.6a; moved to 700.8a"),
        ("700.8a", "moved from 700.7a; moved to 206.3a"),
    ]


TRAMPLE = [
    ("702.19a", "Trample is a static ability that modifies the rules for assigning"),
    ("702.19b", "The controller of an attacking creature with trample first assigns"),
    ("702.19c", "If an attacking creature with trample is blocked, but there are no"),
    ("702.19d", "If a creature with trample is attacking a planeswalker, none of its"),
    ("702.19e", "Multiple instances of trample on the same creature are redundant."),
]
"""702.19's subrules in 2021-04-22's release, and how the text of each begins."""


def test_a_rule_is_shown_with_its_subrules_text_in_document_order(mtg: KnowledgeBase, releases: list[Release]) -> None:
    latest = releases[-1]
    shown = mtg.show("702.19", latest.date, "mtg")
    assert shown["text"] == "Trample"
    pairs = zip(shown["rules"], TRAMPLE, strict=True)
    begun = [(n["number"], n["text"][: len(t)], n["children"]) for n, (_, t) in pairs]
    assert begun == [(number, start, []) for number, start in TRAMPLE]
    assert [n["text"] for n in shown["rules"]] == [latest.rules[number] for number, _ in TRAMPLE]
    assert shown["rules"][0]["links"] == [{"topic": "mtg:510", "headword": "510"}]
    section = mtg.show("100", latest.date, "mtg")["rules"]  # a section: its rules, each with its subrules
    assert [(n["number"], [c["number"] for c in n["children"]]) for n in section][:3] == [
        ("100.1", ["100.1a", "100.1b"]),
        ("100.2", ["100.2a", "100.2b", "100.2c"]),
        ("100.3", []),
    ]
    chapter = mtg.show("7", latest.date, "mtg")["rules"]  # too many below it: its sections, one level down
    assert [(n["number"], n["text"], n["children"]) for n in chapter[:2]] == [
        ("700", "General", []),
        ("701", "Keyword Actions", []),
    ]
    assert mtg.show("Trample", latest.date, "mtg")["rules"] == []


def test_show_prints_a_rule_with_its_subrules(mtg_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["show", "702.19", "--game", "mtg", "--as-of", "2021-04-22", "--kb", str(mtg_root)])
    out = capsys.readouterr().out
    printed = re.findall(r"^    (702\.19[a-z]) (.*)$", out, re.MULTILINE)
    assert [(n, t[:40]) for n, t in printed] == [(n, t[:40]) for n, t in TRAMPLE]
    assert "  Rules under it, as printed:\n    702.19a Trample is a static" in out
    main(["show", "702.19", "--game", "mtg", "--as-of", "2021-04-22", "--kb", str(mtg_root), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert [(n["number"], n["topic"], n["text"][:40]) for n in answer["rules"]] == [
        (n, f"mtg:{n.replace('.', '-')}", t[:40]) for n, t in TRAMPLE
    ]


def test_a_rule_page_prints_each_subrule_with_its_text_anchor_and_links(mtg_root: Path) -> None:
    client = create_app({"KB": str(mtg_root), "TESTING": True}).test_client()
    page = client.get("/entry/702.19?as_of=2021-04-22").get_data(as_text=True)
    item = r'<li id="rule-([^"]+)"><a class="number" href="([^"]+)">([^<]+)</a><div class="text"><p>(.{40})'
    tree = re.findall(item, page)
    assert tree == [
        (n.replace(".", "-"), f"/entry/mtg:{n.replace('.', '-')}?as_of=2021-04-22", n, t[:40]) for n, t in TRAMPLE
    ]
    assert '(See rule <a href="/entry/mtg:510?as_of=2021-04-22">510</a>, &quot;Combat Damage Step.&quot;)' in page
    term = client.get("/entry/Trample?as_of=2021-04-22").get_data(as_text=True)
    assert 'See rule <a href="/entry/mtg:702-19?as_of=2021-04-22">702.19</a>, &quot;Trample.&quot;' in term
    answer = client.get("/entry/702.19.json?as_of=2021-04-22").get_json()
    assert [n["number"] for n in answer["rules"]] == [n for n, _ in TRAMPLE]


def test_a_cited_number_is_linked_where_it_stands_alone(mtg_root: Path) -> None:
    app = create_app({"KB": str(mtg_root), "TESTING": True})
    with app.test_request_context():
        shown = str(linked("See rules 509.1a and 509. Also 1509 and 509,", [{"topic": "mtg:509", "headword": "509"}]))
    assert shown == (
        '<p>See rules 509.1a and <a href="/entry/mtg:509">509</a>. Also 1509 and '
        '<a href="/entry/mtg:509">509</a>,</p>\n'
    )


def test_the_offline_copy_of_a_rule_page_prints_its_subrules_linked_within_the_export(mtg_root: Path) -> None:
    """The page `rulings export` writes for 702.19: the app's page as the export asks it, its links
    rewritten as the export writes them (a whole export of this library takes minutes)."""
    app = create_app({"KB": str(mtg_root), "EXPORT": True, "PAGED": False})
    site = Site(app.extensions["knowledge_bases"].acquire(), dt.date(2026, 1, 1))
    site.files.update(f for url in urls(site.listed) if (f := page_file(*split_url(url))))
    body = rewrite(site, "entry/mtg:702-19", app.test_client().get("/entry/mtg:702-19").get_data(as_text=True))
    assert re.findall(r'<li id="rule-[^"]+"><a class="number" href="([^"]+)">([^<]+)</a>', body) == [
        (f"../entry/mtg:{n.replace('.', '-')}.html", n) for n, _ in TRAMPLE
    ]
    assert '(See rule <a href="../entry/mtg:510.html">510</a>, &quot;Combat Damage Step.&quot;)' in body


TRAMPLE_LINES = {"2017-08-25": 3186, "2018-07-13": 3268, "2019-07-12": 3324, "2020-06-01": 3398, "2021-04-22": 3477}
"""The line of ``702.19. Trample`` in each release, by its date (counted with grep)."""


def test_a_citation_names_the_release_in_force_then_the_text_unchanged_since(mtg: KnowledgeBase) -> None:
    for day, line in TRAMPLE_LINES.items():
        (part,) = mtg.show("702.19", dt.date.fromisoformat(day), "mtg")["parts"]
        later = part["restated"]
        assert (part["citation"]["date"], part["citation"]["lines"], part["valid_from"]) == (
            "2017-08-25",
            "3186",
            "2017-08-25",
        )
        if day == "2017-08-25":
            assert later is None
        else:
            assert later is not None
            assert (later["date"], later["lines"], later["typography"]) == (day, str(line), False)
    (own,) = mtg.show("702.19b", dt.date(2020, 6, 1), "mtg")["parts"]  # changed that day: its own release alone
    assert (own["valid_from"], own["citation"]["document"], own["restated"]) == ("2020-06-01", "cr-20200601", None)
    (later,) = mtg.show("702.19b", dt.date(2021, 4, 22), "mtg")["parts"]
    assert later["restated"] is not None and later["version"] == own["version"]
    assert (later["restated"]["document"], later["restated"]["lines"]) == ("cr-20210419", "3481-3483")


def test_the_offline_search_index_cites_the_release_in_force_first(mtg: KnowledgeBase) -> None:
    """The export's search answers as the server's: 702.19 today cites the release of 2021-04-22, then 2017."""
    documents = mtg.offline_index(dt.date.today())["documents"]
    (trample,) = [d for d in documents if d["topic"] == "mtg:702-19"]
    assert trample["citation"]["date"] == "2017-08-25"
    assert trample["restated"] is not None
    assert (trample["restated"]["date"], trample["restated"]["lines"]) == ("2021-04-22", "3477")


def test_the_citation_on_the_command_line_and_the_page(mtg_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["show", "702.19", "--game", "mtg", "--as-of", "2020-06-01", "--kb", str(mtg_root)])
    out = capsys.readouterr().out
    assert (
        "    Source: Comprehensive Rules (20200601), 2020-06-01, line 3398; unchanged since Comprehensive Rules"
        " (20170825), 2017-08-25, line 3186\n"
    ) in out
    main(["show", "702.19", "--game", "mtg", "--as-of", "2020-06-01", "--kb", str(mtg_root), "--json"])
    (part,) = json.loads(capsys.readouterr().out)["parts"]
    assert (part["restated"]["document"], part["restated"]["lines"], part["citation"]["lines"]) == (
        "cr-20200601",
        "3398",
        "3186",
    )
    client = create_app({"KB": str(mtg_root), "TESTING": True}).test_client()
    page = client.get("/entry/702.19?as_of=2020-06-01").get_data(as_text=True)
    cited = re.findall(r'<p class="source">(.*?) · <a href="/version/', page)
    assert [re.sub(r"<[^>]+>", "", c) for c in cited] == [
        "Comprehensive Rules (20200601), 2020-06-01, line 3398; unchanged since Comprehensive Rules (20170825),"
        " 2017-08-25, line 3186"
    ]
    assert "&#10;— Comprehensive Rules (20200601), 2020-06-01, line 3398; unchanged since Comprehensive Rules" in page


def test_a_diff_lists_rules_in_number_order_then_terms(mtg: KnowledgeBase) -> None:
    answer = mtg.diff(dt.date(2020, 6, 1), dt.date(2021, 4, 22), "mtg", paging=Paging(0, None))
    added = [i["headword"] for i in answer["added"]]
    assert added[:4] == ["101.4e", "103.2d", "107.3n", "109.4f"]
    rules = [h for h in added if h[:1].isdigit()]
    assert added[: len(rules)] == rules  # the rules first, then the terms
    pieces = [tuple(int(p) if p.isdigit() else p for p in re.findall(r"\d+|[a-z]+", h)) for h in rules]
    assert pieces == sorted(pieces, key=lambda p: [(x, "") if isinstance(x, int) else (0, x) for x in p])
