"""History that explains itself (issue #11): why and by what each version stopped, the
publisher's summaries and the source's notes, the banner on an old version, the feed of
every change, and one vocabulary of filters — on pages, in JSON and in the CLI."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from helpers import FIXTURES, SEEDS, SHARED
from kb.ingest.pipeline import build
from web.app import create_app
from web.cli.main import main


def html(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_data(as_text=True)


def as_json(client: FlaskClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_json()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


KIRA_END = {"date": "2001-01-29", "reason": "rescinded", "why": "omitted from the full Current Rulings of 2001-01-29",
            "document": "cr-2001-01-29", "title": "Current Rulings", "version": "1/29/01", "lines": "13-15",
            "successor": None}  # fmt: skip


# -- 1. rescinded and superseded, explained ----------------------------------------------


def test_rescinded_entry_page_says_when_by_what_and_why(history: FlaskClient) -> None:
    page = html(history, "/entry/stccg:kira-nerys")
    assert (
        'The Current Rulings text was in force from 2000-11-27 and <span class="ended">ended 2001-01-29: omitted'
        ' from the full Current Rulings of 2001-01-29 — <a class="cite" href="/docs/cr-2001-01-29?lines=13-15#L13">'
        "Current Rulings (1/29/01), lines 13-15</a></span>."
    ) in page
    assert "This personnel's fourth skill is Navigation x2" in page  # the text that was rescinded is shown
    assert ">2000-11-27 to 2001-01-29</a> Current Rulings version 1 of 1: errata" in page  # the timeline: start and end


def test_rescinded_entry_json_and_cli(history: FlaskClient, history_root: Path, capsys: Any) -> None:
    data = as_json(history, "/entry/stccg:kira-nerys.json")
    assert data["parts"] == [] and data["ended"][0]["ended_by"] == KIRA_END
    status, out, _ = run(capsys, "show", "Kira Nerys", "--kb", str(history_root))
    assert status == 0
    assert "  [Current Rulings, version 1 of 1] rescinded in force 2000-11-27 to 2001-01-29; errata" in out.splitlines()
    ended = (
        "    Ended 2001-01-29: omitted from the full Current Rulings of 2001-01-29"
        " (Current Rulings (1/29/01), lines 13-15)"
    )
    assert ended in out.splitlines()
    status, out, _ = run(capsys, "history", "Kira Nerys", "--kb", str(history_root))
    assert out.splitlines()[3] == ended
    status, out, _ = run(capsys, "history", "Kira Nerys", "--kb", str(history_root), "--json")
    assert json.loads(out)["versions"][0]["ended_by"] == KIRA_END


def test_superseded_cancelled_and_consolidated_say_why(history_root: Path, capsys: Any) -> None:
    _, out, _ = run(capsys, "history", "Conundrum", "--kb", str(history_root), "--json")
    ends = [v["ended_by"] for v in json.loads(out)["versions"]]
    assert [(e["why"], e["document"], e["lines"], e["successor"]) for e in ends[:2]] == [
        ("superseded by version 2", "cr-update-2000-11-27", "79-83", "stccg:conundrum@cr-update-2000-11-27@glossary"),
        ("superseded by version 3", "cr-update-2000-12-18", "21", "stccg:conundrum@cr-update-2000-12-18@glossary"),
    ]
    assert ends[2] is None
    _, out, _ = run(capsys, "history", "holodeck", "--kb", str(history_root))
    assert (
        "    Ended 2000-12-25: cancelled upon release of Fixture Expansion A"
        " (Current Rulings Update (12/18/00), line 23)"
    ) in out.splitlines()


def test_consolidated_into_a_glossary(tmp_path: Path, capsys: Any) -> None:
    library = tmp_path / "library"
    shutil.copytree(FIXTURES / "library", library)
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
    (library / "stccg" / "glossary-1.8.txt").write_text("conundrum - A dilemma.\n", encoding="utf-8")
    with (library / "library.toml").open("a", encoding="utf-8") as manifest:
        manifest.write('\n[[document]]\nid = "glossary-1-8"\nfile = "stccg/glossary-1.8.txt"\ngame = "stccg"\n'
                       'kind = "glossary"\ntitle = "Glossary"\nversion = "1.8"\ndate = "2001-03-01"\n')  # fmt: skip
    build(library, tmp_path / "kb")
    _, out, _ = run(capsys, "history", "Cha'Joh", "--kb", str(tmp_path / "kb"), "--json")
    last = json.loads(out)["versions"][-1]["ended_by"]
    assert (last["why"], last["document"], last["lines"]) == ("consolidated into Glossary 1.8", "glossary-1-8", "1")


# -- 2. the publisher's summaries and the source's notes -----------------------------------


def test_summary_and_source_note_with_their_ruling(client: FlaskClient, bundled_root: Path, capsys: Any) -> None:
    page = html(client, "/entry/stccg:conundrum")
    assert ("<strong>Publisher's summary:</strong> The affected ship may not be assisted by other ships in its"
            " attack.") in page  # fmt: skip
    note = "the source adds: this also corrects the incorrect interpretation in the 7/00 Dilemma Resolution Guide"
    assert f'<p class="note">Note: {note}</p>' in page
    _, out, _ = run(capsys, "show", "Conundrum", "--kb", str(bundled_root))
    assert f"    NOTE: {note}" in out.splitlines()
    assert "    Publisher's summary: The affected ship may not be assisted by other ships in its attack." in out
    data = as_json(client, "/entry/stccg:conundrum.json")
    assert data["parts"][0]["note"] == note


def test_diff_shows_summaries_and_why_rescinded(history: FlaskClient, history_root: Path, capsys: Any) -> None:
    page = html(history, "/diff?from=2000-10-30&to=2001-01-29")
    summary = (
        '<p class="summary"><strong>Publisher\'s summary:</strong> You may no longer simultaneously change the'
        " affiliations of this ship and the Sisters of Duras aboard.</p>"
    )
    assert page.count(summary) == 1  # once, although Cha'Joh changed in two series
    assert (
        '<a href="/entry/stccg:mission-attempt">mission attempt</a> <span class="badge rescinded">rescinded</span>'
        ' <span class="ended">ended 2001-01-29: omitted from the full Current Rulings of 2001-01-29'
    ) in page
    data = as_json(history, "/diff.json?from=2000-10-30&to=2001-01-29")
    assert [(i["headword"], [e["why"] for e in i["ended_by"]]) for i in data["rescinded"]] == [
        ("holodeck", ["cancelled upon release of Fixture Expansion A"]),
        ("mission attempt", ["omitted from the full Current Rulings of 2001-01-29"]),
    ]
    _, out, _ = run(capsys, "diff", "2000-10-30", "2001-01-29", "--kb", str(history_root))
    lines = out.splitlines()
    assert lines[lines.index("- holodeck") + 1] == (
        "    Ended 2000-12-25: cancelled upon release of Fixture Expansion A"
        " (Current Rulings Update (12/18/00), line 23)"
    )


# -- 3. an old version opened by its permalink -------------------------------------------


def test_superseded_version_carries_a_banner_to_the_text_in_force(history: FlaskClient) -> None:
    page = html(history, "/version/stccg:conundrum@glossary-1-7@glossary")
    assert (
        '<p class="banner">Not in force since 2000-11-27; the text in force is'
        ' <a href="/version/stccg:conundrum@cr-update-2000-12-18@glossary">the Glossary version of 2000-12-18</a>'
        " (Current Rulings Update (12/18/00), line 21).</p>"
    ) in page
    current = html(history, "/version/stccg:conundrum@cr-update-2000-12-18@glossary")
    assert "Not in force since" not in current
    old_day = html(history, "/version/stccg:conundrum@glossary-1-7@glossary?as_of=2000-09-01")
    assert "Not in force since" not in old_day


def test_rescinded_version_banner_says_nothing_is_in_force(history: FlaskClient) -> None:
    page = html(history, "/version/stccg:kira-nerys@cr-update-2000-11-27@current-rulings")
    assert (
        '<p class="banner">Not in force since 2001-01-29; no Current Rulings text is in force: <span class="ended">'
        "ended 2001-01-29: omitted from the full Current Rulings of 2001-01-29"
    ) in page
    data = as_json(history, "/version/stccg:kira-nerys@cr-update-2000-11-27@current-rulings.json")
    assert data["now"] == {"key": None}


# -- 4. the feed: every kind of change, valid Atom --------------------------------------

ATOM = "{http://www.w3.org/2005/Atom}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def _atom(client: FlaskClient) -> ET.Element:
    response = client.get("/changes.atom")
    assert response.status_code == 200 and response.content_type == "application/atom+xml; charset=utf-8"
    return ET.fromstring(response.data)


def _assert_rfc4287(feed: ET.Element) -> None:
    """The elements RFC 4287 requires: atom:feed has one id, title and updated, and an author
    (or every entry has one); each atom:entry has one id, title and updated; dates are RFC 3339;
    xhtml content is one XHTML div."""
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert len(feed.findall(f"{ATOM}{name}")) == 1, name
    assert feed.findtext(f"{ATOM}author/{ATOM}name")
    stamp = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
    assert stamp.fullmatch(feed.findtext(f"{ATOM}updated") or "")
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    for entry in entries:
        for name in ("id", "title", "updated"):
            assert len(entry.findall(f"{ATOM}{name}")) == 1, name
        assert stamp.fullmatch(entry.findtext(f"{ATOM}updated") or "")
        assert entry.find(f"{ATOM}link") is not None or entry.find(f"{ATOM}content") is not None
        content = entry.find(f"{ATOM}content")
        if content is not None and content.get("type") == "xhtml":
            assert [child.tag for child in content] == [f"{XHTML}div"]


def test_feed_lists_every_kind_of_change_per_document(history: FlaskClient) -> None:
    feed = _atom(history)
    _assert_rfc4287(feed)
    entries = {e.find(f"{ATOM}link").get("href"): e for e in feed.findall(f"{ATOM}entry")}  # type: ignore[union-attr]
    full = entries["/docs/cr-2001-01-29"]
    assert full.findtext(f"{ATOM}title") == "Current Rulings (1/29/01): 0 added, 0 changed, 41 rescinded, 0 pending"
    update = entries["/docs/cr-update-2000-12-18"]
    assert (
        update.findtext(f"{ATOM}title")
        == "Current Rulings Update (12/18/00): 0 added, 5 changed, 1 rescinded, 1 pending"
    )
    summary = update.findtext(f"{ATOM}summary") or ""
    assert "Rescinded: holodeck (cancelled). Pending: tribble (original)." in summary
    items = [" ".join("".join(li.itertext()).split()) for li in update.iter(f"{XHTML}li")]
    assert "holodeck [Glossary] cancelled: cancelled upon release of Fixture Expansion A" in items
    assert "tribble [Current Rulings] original: upon release of Fixture Expansion B" in items
    kira = [
        " ".join("".join(li.itertext()).split()) for li in full.iter(f"{XHTML}li") if "Kira" in "".join(li.itertext())
    ]
    assert kira == [
        "Kira Nerys [Current Rulings] rescinded: omitted from the full Current Rulings of 2001-01-29"
        " Publisher's summary: The [DS9] version has the correct game text and lore."
    ]


# -- 5. reversed ranges and one vocabulary of filters -------------------------------------


def test_reversed_range_is_an_error(history: FlaskClient, history_root: Path, capsys: Any) -> None:
    status, out, err = run(capsys, "diff", "2000-11-27", "2000-10-30", "--kb", str(history_root))
    assert (status, out, err) == (
        2, "", "rulings: error: FROM 2000-11-27 is after TO 2000-10-30; give the earlier date first\n"
    )  # fmt: skip
    status, out, err = run(capsys, "diff", "2000-11-27", "2000-10-30", "--kb", str(history_root), "--json")
    assert (status, json.loads(out), err) == (
        2, {"error": "FROM 2000-11-27 is after TO 2000-10-30; give the earlier date first"}, ""
    )  # fmt: skip
    page = html(history, "/diff?from=2000-11-27&to=2000-10-30", 400)
    assert "FROM 2000-11-27 is after TO 2000-10-30; give the earlier date first" in page
    assert as_json(history, "/diff.json?from=2000-11-27&to=2000-10-30", 400)["error"] == (
        "FROM 2000-11-27 is after TO 2000-10-30; give the earlier date first"
    )


KINDS_ERROR = (
    "unknown kind 'bogus'; the kinds are rulebook, glossary, current-rulings, faq, comprehensive-rules"
    " (current-rulings-update, ruling, rulings, dated-rulings mean current-rulings; question means faq)"
)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/diff?kind=bogus", KINDS_ERROR),
        ("/diff.json?kind=bogus", KINDS_ERROR),
        ("/index.json?q=conundrum&kind=bogus", KINDS_ERROR),
        ("/?q=conundrum&kind=bogus", KINDS_ERROR),
        ("/index.json?q=conundrum&game=bogus", "unknown game 'bogus'; the games are stccg"),
        ("/diff.json?game=bogus", "unknown game 'bogus'; the games are stccg"),
        ("/asof/2000-11-27.json?game=bogus", "unknown game 'bogus'; the games are stccg"),
        ("/card/Conundrum.json?game=bogus", "unknown game 'bogus'; the games are stccg"),
        ("/deck.json?list=Conundrum&game=bogus", "unknown game 'bogus'; the games are stccg"),
    ],
)
def test_unknown_filter_values_are_a_400_listing_the_valid_ones(history: FlaskClient, url: str, message: str) -> None:
    response = history.get(url)
    assert response.status_code == 400
    if url.split("?")[0].endswith(".json"):
        assert response.get_json()["error"] == message
    else:
        assert str(escape(message)) in response.get_data(as_text=True)


def test_unknown_filter_values_in_the_cli(history_root: Path, capsys: Any) -> None:
    kb = str(history_root)
    assert run(capsys, "diff", "2000-10-30", "2000-11-27", "--kind", "bogus", "--kb", kb) == (
        2, "", f"rulings: error: {KINDS_ERROR}\n"
    )  # fmt: skip
    status, out, _ = run(capsys, "search", "conundrum", "--game", "bogus", "--kb", kb, "--json")
    assert (status, json.loads(out)) == (2, {"error": "unknown game 'bogus'; the games are stccg"})
    status, out, _ = run(capsys, "show", "conondrum", "--kb", kb, "--json")
    assert (status, json.loads(out)) == (1, {"error": "no entry 'conondrum'; did you mean: Conundrum?",
                                             "suggestions": ["Conundrum"]})  # fmt: skip
    status, out, _ = run(capsys, "show", "--json")
    assert (status, json.loads(out)) == (2, {"error": "show: the following arguments are required: topic"})


def test_one_vocabulary_of_kinds(client: FlaskClient, history: FlaskClient, history_root: Path, capsys: Any) -> None:
    found = as_json(client, "/index.json?q=conundrum&kind=glossary")["results"]
    assert [(h["headword"], h["label"]) for h in found] == [("Conundrum", "Glossary")]
    assert as_json(client, "/index.json?q=conundrum&kind=current-rulings-update")["results"] == []
    alias = as_json(history, "/diff.json?from=2000-10-30&to=2000-11-27&kind=current-rulings-update")
    named = as_json(history, "/diff.json?from=2000-10-30&to=2000-11-27&kind=current-rulings")
    assert alias == named and len(named["added"]) == 39
    status, out, _ = run(capsys, "diff", "2000-10-30", "2000-11-27", "--kind", "current-rulings-update",
                         "--kb", str(history_root), "--json")  # fmt: skip
    cli = json.loads(out)
    assert status == 0 and cli == {k: named[k] for k in cli}
    page = html(history, "/diff?from=2000-10-30&to=2000-11-27&kind=current-rulings-update")
    assert "<option selected>current-rulings</option>" in page


# -- 6. the documents in force on a date ----------------------------------------------------


def test_documents_as_of_a_date_only_those_in_force(client: FlaskClient) -> None:
    data = as_json(client, "/docs.json?as_of=1995-01-01")
    assert [d["id"] for d in data["documents"]] == ["stccg-rulebook-excerpt"]
    assert [d["id"] for d in data["later"]] == ["stccg-quick-start", "nz-rulebook", "stccg-cr-update-2000-11-27"]
    page = html(client, "/docs?as_of=1995-01-01")
    assert "<h1>Documents in force on 1995-01-01</h1>" in page
    assert '<p class="banner">Only the documents in force on <strong>1995-01-01</strong> are listed' in page
    in_force = page.split("<h2>Published after 1995-01-01</h2>")[0]
    assert "nz-rulebook" not in in_force and "/docs/stccg-rulebook-excerpt" in in_force


def test_documents_replaced_and_the_declared_complete_set(
    history: FlaskClient, history_root: Path, capsys: Any
) -> None:
    data = as_json(history, "/docs.json?as_of=2001-02-01")
    assert [d["id"] for d in data["documents"]] == ["glossary-1-7", "cr-2001-01-29"]
    assert [(d["id"], d["replaced_by"]) for d in data["replaced"]] == [
        ("cr-2000-10-30", "cr-2001-01-29"),
        ("cr-update-2000-11-27", "cr-2001-01-29"),
        ("cr-update-2000-12-18", "cr-2001-01-29"),
    ]
    assert [d["id"] for d in data["declarations"]] == [
        "cr-2001-01-29", "cr-update-2000-12-18", "cr-update-2000-11-27", "cr-2000-10-30"
    ]  # fmt: skip
    assert data["declarations"][1]["set"] == [
        {"name": "Rulebook Version 1.7 (August 2000)", "document": None},
        {"name": "Glossary Version 1.7 (August 2000)", "document": "glossary-1-7"},
        {"name": "Current Rulings (12/18/00 - full version)", "document": None},
    ]
    page = html(history, "/docs?as_of=2001-02-01")
    assert (
        '<ul><li>Rulebook Version 1.7 (August 2000) <strong class="lacking">not in this library</strong></li>'
        '<li><a href="/docs/glossary-1-7">Glossary Version 1.7 (August 2000)</a></li>'
        '<li><a href="/docs/cr-2001-01-29">Current Rulings (1/29/01)</a></li></ul>'
    ) in page
    _, out, _ = run(capsys, "docs", "--as-of", "2001-02-01", "--kb", str(history_root))
    assert out.splitlines()[3:7] == [
        "A complete set of rules, according to cr-2001-01-29:",
        "  - Rulebook Version 1.7 (August 2000)  (not in this library)",
        "  - Glossary Version 1.7 (August 2000)  [glossary-1-7]",
        "  - Current Rulings (1/29/01)  [cr-2001-01-29]",
    ]


# -- 7. cards: encoded links, one name in several games, deck headers ------------------------

PHYSICAL = SHARED / "cards" / "Physical.csv"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    if not PHYSICAL.is_file():
        pytest.skip("../shared/cards/Physical.csv is absent")
    root = tmp_path_factory.mktemp("cards-kb") / "kb"
    build(SEEDS, root, PHYSICAL)
    return create_app({"KB": str(root), "TESTING": True}).test_client()


def test_card_links_are_encoded(catalog: FlaskClient) -> None:
    first = as_json(catalog, "/complete.json?q=rule%20of%20acq")["completions"][0]
    assert (first["name"], first["url"]) == ("Rule Of Acquisition #102", "/card/Rule%20Of%20Acquisition%20%23102")
    assert catalog.get(first["url"]).status_code == 200
    page = html(catalog, "/card/Rule%20Of%20Acquisition%20%23103", 404)
    assert 'href="/card/Rule%20Of%20Acquisition%20%23102"' in page


def test_a_name_in_several_games_says_so_and_links_each(catalog: FlaskClient) -> None:
    page = html(catalog, "/card/U.S.S.%20Enterprise-E?game=stccg-2e")
    assert (
        '<p class="note">This name is also a card of neutral-zone:'
        ' <a href="/card/U.S.S.%20Enterprise-E?game=neutral-zone">U.S.S. Enterprise-E (neutral-zone)</a>; of stccg: '
        '<a href="/card/U.S.S.%20Enterprise-E?game=stccg">U.S.S. Enterprise-E (stccg)</a>.'
        " This page is the stccg-2e card.</p>"
    ) in page
    data = as_json(catalog, "/card/Kreechta.json")
    assert (data["key"], data["same_name"]) == (
        "stccg:kreechta", [{"name": "Kreetchta", "game": "neutral-zone", "key": "neutral-zone:kreetchta"}]
    )  # fmt: skip
    other = as_json(catalog, "/card/Kreetchta.json?game=neutral-zone")
    assert other["same_name"] == [{"name": "Kreechta", "game": "stccg", "key": "stccg:kreechta"}]


def test_deck_headers_are_not_cards(client: FlaskClient, bundled_root: Path, capsys: Any, tmp_path: Path) -> None:
    listing = "Missions:\n2x Conundrum\nSHIPS\nCha'Joh\nSeed deck (6)\nDraw Deck: 60\nKira Nerys x3\n"
    data = as_json(client, "/deck.json?list=" + quote(listing))
    assert data["total"] == 6 and data["unknown"] == []
    assert data["headers"] == ["Missions:", "SHIPS", "Seed deck (6)", "Draw Deck: 60"]
    assert [(c["name"], c["count"]) for c in data["cards"]] == [("Conundrum", 2), ("Cha'Joh", 1), ("Kira Nerys", 3)]
    page = html(client, "/deck?list=" + quote(listing))
    assert (
        "6 cards, 3 distinct known (section headers not counted: Missions:, SHIPS, Seed deck (6), Draw Deck: 60)"
        in page
    )
    assert '2\u00d7 <a href="/card/Conundrum?game=stccg">Conundrum</a>' in page
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text(listing, encoding="utf-8")
    _, out, _ = run(capsys, "deck", str(deck_file), "--kb", str(bundled_root))
    assert out.splitlines()[0].startswith("Deck of 6 cards, rulings in force on ")
    assert "unknown card" not in out


def test_the_entry_page_makes_no_word_diff_and_its_json_twin_carries_them(
    history: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry page lists the versions and shows no word diff: it makes none (a topic of a hundred
    versions of the 90k library spent 0.25 s of CPU on them, and its page was refused under load).
    Its JSON twin still carries each version's diff against the one it supersedes."""
    from kb.read import topics, worddiff

    made: list[tuple[str, str]] = []

    def counted(old: str, new: str) -> list[tuple[str, str]]:
        made.append((old, new))
        return worddiff.word_diff(old, new)

    monkeypatch.setattr(topics, "word_diff", counted)
    page = html(history, "/entry/stccg:conundrum")
    assert made == [] and "Glossary version 3 of 3" in page
    versions = as_json(history, "/entry/stccg:conundrum.json")["versions"]
    assert len(made) == len(versions) == 3
    second = versions[2]
    assert second["supersedes"] == versions[1]["version"]
    assert [tuple(d) for d in second["diff"]] == worddiff.word_diff(versions[1]["text"], second["text"])
    assert any(kind != "same" for kind, _ in second["diff"])
