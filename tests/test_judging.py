"""Issue 24 (items 3-7): answers a judge can stake a ruling on, through the real app and CLI over
the bundled library and the history fixture: a partial or empty text says so wherever it is shown
or copied, an empty heading lists its sections and ranks after text, the governing text comes
first with the others saying why they give way, versions are numbered in their series, diff items
cite their source, the default diff is the latest document's, and the search keeps its address."""

from __future__ import annotations

import datetime as dt
import html as markup
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from kb.model import history_order, placed
from kb.paths import current
from kb.query import KnowledgeBase
from kb.read import standing
from web.cli.main import main

COMMANDEERING_PARTIAL = (
    "Partial text: it replaces the second paragraph of the Glossary entry; the rest of that entry is not in this"
    " library."
)
CHAJOH_EMPTY = "No text of its own: it deletes the first sentence of the Glossary entry, which is not in this library."
GLOSSARY_WHY = "the Current Rulings govern over the Glossary"


def page(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_data(as_text=True)


def data(client: FlaskClient, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, (url, response.data[:300])
    return response.get_json()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().out


def citations(text: str) -> list[str]:
    """The texts the Copy citation buttons of a page copy."""
    return [markup.unescape(c) for c in re.findall(r'data-citation="([^"]*)"', text)]


# -- 3. partial and empty texts say so ----------------------------------------------------


def test_a_partial_text_says_what_is_missing_in_results_entry_json_and_cli(
    client: FlaskClient, bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hit = data(client, "/index.json?q=commandeering")["results"][0]
    assert (hit["headword"], hit["status"], hit["partial"]) == ("commandeering", "active", COMMANDEERING_PARTIAL)
    results = page(client, "/?q=commandeering")
    assert (
        '<p class="partial"><strong>Partial text:</strong> it replaces the second paragraph of the Glossary entry;'
        " the rest of that entry is not in this library.</p>"
    ) in results
    assert citations(results)[0].startswith("commandeering (Glossary, version 1 of 1): When you commandeer a ship")
    assert (
        "the ship's affiliation does not change until your personnel arrive to take custody of the ship."
        f" [{COMMANDEERING_PARTIAL}]" in citations(results)[0]
    )
    entry = page(client, "/entry/stccg:commandeering")
    assert '<p class="partial"><strong>Partial text:</strong>' in entry
    status, out = run(capsys, "show", "commandeering", "--kb", str(bundled_root))
    assert status == 0 and out.splitlines()[2:4] == [
        "    PARTIAL TEXT: it replaces the second paragraph of the Glossary entry; the rest of that",
        "    entry is not in this library.",
    ]


def test_an_amendment_with_no_text_never_copies_an_empty_ruling(client: FlaskClient) -> None:
    shown = data(client, "/entry/stccg:chajoh.json")
    assert [(p["label"], p["text"] != "", p["partial"]) for p in shown["parts"]] == [
        ("Current Rulings", True, None),
        ("Glossary", False, CHAJOH_EMPTY),
    ]
    copied = citations(page(client, "/entry/stccg:chajoh"))
    assert copied[1] == (
        f"Cha'Joh (Glossary, version 1 of 1):  [{CHAJOH_EMPTY}]"
        "\n— Current Rulings Update (11/27/00), 2000-11-27, line 69"
    )
    deck = data(client, "/deck.json?list=Cha%27Joh")["cards"][0]["entries"][0]["parts"]
    assert [(p["label"], p["partial"]) for p in deck] == [("Current Rulings", None), ("Glossary", CHAJOH_EMPTY)]
    card = page(client, "/card/Cha'Joh")
    assert f'<p class="partial"><strong>No text of its own:</strong>{CHAJOH_EMPTY.split(":", 1)[1]}</p>' in card
    see_only = citations(page(client, "/?q=commandeering"))[1]
    assert see_only.startswith("A Fast Ship Would Be Nice (Current Rulings, version 1 of 1): See commandeering.\n")


def test_an_empty_heading_lists_its_sections_and_ranks_after_text(client: FlaskClient) -> None:
    found = data(client, "/index.json?q=setup&game=any")["results"]
    assert [(r["headword"], r["text"] != "") for r in found] == [("For 4 Players", True), ("Setup", False)]
    assert found[1]["partial"] == "No text of its own: it is a heading; the sections under it follow."
    assert found[1]["sections"] == [{"topic": "neutral-zone:for-2-players", "headword": "For 2 Players"}]
    steps = data(client, "/entry/stccg:how-to-play-the-game-in-three-easy-steps.json")["parts"][0]["sections"]
    assert [s["headword"] for s in steps] == [
        "STEP 1: CHOOSE AN AFFILIATION", "STEP 2: CREATE AND SEED THE SPACELINE", "IMPORTANT NOTE",
        "STEP 3: PLAYING THE GAME",
    ]  # fmt: skip
    assert '<p class="sections">Its sections: <a href="/entry/neutral-zone:for-2-players">For 2 Players</a>.</p>' in (
        page(client, "/?q=setup&game=any")
    )


# -- 4. which text governs -----------------------------------------------------------------


def test_the_governing_text_comes_first_and_the_others_say_why_they_give_way(
    client: FlaskClient, bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # precedence holds within a topic's series: its Current Rulings over its Glossary text
    found = data(client, "/index.json?q=chajoh+cloak&game=stccg")["results"]
    assert [(r["headword"][:40], r["governs"] is not None, (r["gives_way"] or {}).get("why")) for r in found[:3]] == [
        ("Cha'Joh", True, None),
        ("Cha'Joh", False, GLOSSARY_WHY),
        ("cloaking and phasing", False, None),  # another topic: it neither governs nor gives way
    ]
    assert found[1]["gives_way"] == {
        "key": "stccg:chajoh@stccg-cr-update-2000-11-27@current-rulings", "topic": "stccg:chajoh",
        "headword": "Cha'Joh", "label": "Current Rulings", "date": "2000-11-27", "why": GLOSSARY_WHY,
    }  # fmt: skip
    results = page(client, "/?q=chajoh+cloak&game=stccg")
    assert (
        '<p class="gives-way"><strong>Gives way:</strong> the Current Rulings govern over the Glossary. The text that'
        ' governs: <a href="/version/stccg:chajoh@stccg-cr-update-2000-11-27@current-rulings">Cha&#39;Joh (Current'
        " Rulings, 2000-11-27)</a></p>"
    ) in results
    status, out = run(capsys, "search", "chajoh cloak", "--game", "stccg", "--kb", str(bundled_root))
    lines = out.splitlines()
    assert status == 0 and lines[1] == "1. Cha'Joh  [Current Rulings] active"
    assert "    GIVES WAY to Cha'Joh (Current Rulings, 2000-11-27): the Current Rulings govern over the" in lines
    shown = data(client, "/entry/stccg:chajoh.json")["parts"]
    assert shown[0]["governs"] == "over the Glossary text of 2000-11-27"
    assert shown[1]["gives_way"]["why"] == "the Current Rulings govern over the Glossary"


def test_a_later_document_governs_and_the_quick_start_rules_are_a_variant(
    client: FlaskClient, history_root: Path
) -> None:
    # two rulebooks' sections on seeding are different topics naming neither other: no precedence
    found = data(client, "/index.json?q=create+and+seed+the+spaceline&game=stccg")["results"]
    assert [(r["headword"], (r["gives_way"] or {}).get("why"), r["governs"]) for r in found[:2]] == [
        ("STEP 2: CREATE AND SEED THE SPACELINE", None, None),
        ("Seeding The Spaceline", None, None),
    ]  # fmt: skip
    # a first hit the query names keeps its place too
    named = data(client, "/index.json?q=conundrum+target")["results"]
    assert named[0]["headword"] == "Conundrum" and named[0]["full"]

    with KnowledgeBase(current(history_root)) as kb:
        on = dt.date(2000, 12, 1)
        earlier = kb.part(kb.in_force("stccg:docking", dt.date(2000, 11, 1))[-1], dt.date(2000, 11, 1))
        later = kb.part(kb.in_force("stccg:tribble", on)[-1], on)
        ordered = standing.govern([earlier, later], kb.store)
        card = kb.card("Cha'Joh", None)
    assert [p["topic"] for p in ordered] == ["stccg:tribble", "stccg:docking"]
    assert ordered[1]["gives_way"]["why"] == "a later document governs over an earlier one (2000-11-27 over 2000-10-30)"
    assert ordered[0]["governs"] == "over docking (2000-10-30)"
    assert [(p["label"], (p["gives_way"] or {}).get("why")) for p in card["headed"][0]["parts"]] == [
        ("Current Rulings", None),
        ("Glossary", "the Current Rulings govern over the Glossary"),
    ]


def test_the_search_keeps_the_game_chosen_and_labels_other_games(client: FlaskClient) -> None:
    mixed = page(client, "/?q=cloaked+ship&game=")
    assert '<span class="badge other-game">other game: neutral-zone</span>' in mixed
    response = client.get("/?q=cloaked+ship&game=stccg")
    assert "game=stccg" in response.headers["Set-Cookie"]
    remembered = data(client, "/index.json?q=cloaked+ship")  # the test client sends the cookie back
    assert {r["game"] for r in remembered["results"]} == {"stccg"}
    assert "<option selected>stccg</option>" in page(client, "/?q=cloaked+ship")
    client.get("/?q=cloaked+ship&game=")  # "any": forgotten
    assert "neutral-zone" in {r["game"] for r in data(client, "/index.json?q=cloaked+ship")["results"]}


# -- 5. versions numbered per topic and series ----------------------------------------------


def test_versions_are_numbered_in_their_series_everywhere(
    history: FlaskClient, history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "stccg:docking@cr-update-2000-11-27@current-rulings"
    version = page(history, f"/version/{key}")
    assert "<h1>docking <small>Current Rulings, version 2 of 2</small></h1>" in version  # its topic's 3rd
    assert data(history, f"/version/{key}.json")[("number")] == 2
    first = data(history, "/version/stccg:docking@cr-2000-10-30@current-rulings.json")
    assert (first["number"], first["of"], first["ended_by"]["why"]) == (1, 2, "superseded by version 2")
    entry = page(history, "/entry/stccg:docking")
    assert "Current Rulings version 2 of 2: replace" in entry
    status, out = run(capsys, "history", "docking", "--kb", str(history_root))
    assert status == 0 and [line for line in out.splitlines() if line[:2] in ("1.", "2.", "3.")] == [
        "1. 2000-08-01 -> in force  [Glossary, version 1 of 1] original, active",
        "2. 2000-10-30 -> 2000-11-27  [Current Rulings, version 1 of 2] original, superseded",
        "3. 2000-11-27 -> 2001-01-29  [Current Rulings, version 2 of 2] replace, rescinded",
    ]
    status, out = run(capsys, "history", "docking", "--kb", str(history_root), "--json")
    assert [(v["number"], v["of"]) for v in json.loads(out)["versions"]] == [(1, 1), (1, 2), (2, 2)]


# -- 6. diff items cite their source; the default range is the latest document's -------------


def test_diff_items_cite_their_source_and_the_default_is_the_latest_document(
    history: FlaskClient, history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = data(history, "/diff.json")
    assert (plain["from"], plain["to"], plain["latest"]["id"]) == ("2001-01-28", "2001-01-29", "cr-2001-01-29")
    assert [c["headword"] for c in plain["changed"]] == ["docking", "tribble"]
    assert plain["changed"][0]["ended_by"][0]["why"] == "omitted from the full Current Rulings of 2001-01-29"
    shown = page(history, "/diff")
    assert '<h1>Changes from <span class="date">2001-01-28</span> to <span class="date">2001-01-29</span></h1>' in shown
    assert 'What the latest document changed: <a href="/docs/cr-2001-01-29">Current Rulings (1/29/01)</a>' in shown
    ranged = page(history, "/diff?from=2000-10-30&to=2000-11-27")
    assert (
        # the 11/27/00 update deleted Cha'Joh's first sentence: what is left, Glossary 1.7 wrote
        '<p class="source">Glossary version 2 of 2, since <span class="date">2000-11-27</span>: <a class="cite"'
        ' href="/docs/glossary-1-7?lines=9#L9">Glossary (1.7), <span class="date">2000-08-01</span>, line 9 ¶1</a>'
    ) in ranged
    status, out = run(capsys, "diff", "--kb", str(history_root))
    assert status == 0 and out.splitlines()[:2] == [
        "What the latest document changed: Current Rulings (1/29/01) of 2001-01-29",
        "Changes from 2001-01-28 to 2001-01-29: 2 changed, 0 added, 39 rescinded, 0 pending",
    ]
    status, out = run(capsys, "diff", "2000-10-30", "--kb", str(history_root))
    assert status == 2


def test_show_changes_opens_at_the_word_diff(history: FlaskClient) -> None:
    entry = page(history, "/entry/stccg:conundrum")
    assert '<form method="get" class="compare" action="/entry/stccg:conundrum#compare">' in entry


# -- 7. sharing and paging -------------------------------------------------------------------


def test_a_bad_as_of_is_a_400_without_a_query_too(client: FlaskClient) -> None:
    assert "&#39;2000-13-45&#39; is not a date" in page(client, "/?as_of=2000-13-45", 400)


def test_the_404_page_says_did_you_mean_once(client: FlaskClient) -> None:
    missing = page(client, "/entry/conundrumm", 404)
    assert missing.lower().count("did you mean") == 1
    assert '<p class="error">no entry &#39;conundrumm&#39;</p>' in missing


def test_the_card_page_shows_each_ruling_once(client: FlaskClient) -> None:
    card = page(client, "/card/Cha'Joh")
    ruling = "<p>You may no longer simultaneously change the affiliations of a ship and the personnel aboard.</p>"
    assert card.count(ruling) == 1
    assert card.count('href="/version/stccg:chajoh@stccg-cr-update-2000-11-27@current-rulings">permalink</a>') == 1


@pytest.mark.parametrize("library", ["bundled_root", "history_root"])
def test_a_versions_number_is_its_place_in_its_series_sorted_oldest_first(
    request: pytest.FixtureRequest, library: str
) -> None:
    """The build numbers each version of every topic by its place in its series sorted by
    `history_order` (from 1: the versions of its series not after it), with the series' length,
    and stores it with the version (`kb.model.Place`); its successor is the last version built
    that superseded it and began."""
    with KnowledgeBase(current(request.getfixturevalue(library))) as reader:
        compared = 0
        for topic in reader.store.topics():
            history = reader.store.versions_of(topic["id"])
            for version in history:
                series = [v for v in history if v.series == version.series]
                before = sum(history_order(v) <= history_order(version) for v in series)
                place = placed(version)
                assert (place.number, place.of) == (before, len(series))
                after = [v for v in history if v.supersedes == version.id and v.valid_from]
                assert place.successor == (after[-1].key if after else None)
                assert place.successor_number == (placed(after[-1]).number if after else None)
                compared += 1
        assert compared > 60
