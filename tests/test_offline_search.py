"""The export's own search: the inverted index `web.export.search_index` writes (the knowledge
base makes it: `kb.search.offline`), and ``static/offline_search.js`` answering from it in
Debian's chromium (served by a plain static file server on loopback): headwords first, typos,
prefixes while typing, card names, excluded words, the game filter, and the browser folding
words as the server's index does."""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from helpers import ROOT
from kb.analysis import folded_words, inflection_stem
from kb.boosts import BOOSTS
from kb.paths import CURRENT_DIR, INDEX_DIR, current
from kb.query import KnowledgeBase
from kb.search.offline import search_index
from kb.search.questions import FILLER
from web.export.pages import export

sys.path.insert(0, str(ROOT / "bench"))
from offline_parity import SEARCH_JS, compare, offline_answers
from relevance import read_set
from test_leads import LEADS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOPICS = "els => els.map(e => decodeURIComponent(e.getAttribute('href')).split('/entry/')[1].slice(0, -5))"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
NODE = shutil.which("node") or shutil.which("nodejs")
needs_node = pytest.mark.skipif(NODE is None, reason="node (Debian's nodejs) is not installed")


def shown(number: int, headword: str, cards: str, text: str) -> dict[str, Any]:
    return {"id": number, "topic": f"t:{number}", "headword": headword, "label": "Glossary", "status": "active",
            "game": "stccg", "kind": "glossary", "cards": cards, "text": text, "citation": {}}  # fmt: skip


def test_the_index_holds_each_words_postings_and_lengths() -> None:
    index = search_index([shown(7, "Cha'Joh", "Cha’Joh", "The Cha'Joh is cloaking; a Bio-ship cloaks."),
                          shown(9, "Cloaked ships", "", "Any ship, any ship.")])  # fmt: skip
    # Each posting: the document's number less the previous one's, and field + 4 * (count - 1);
    # filler words too (a phrase or a query of filler words alone searches them, as the server does).
    assert index["postings"] == {
        "a": [0, 2], "bio": [0, 2], "bioship": [0, 2], "chajoh": [0, 0, 0, 1, 0, 2], "cloaked": [1, 0],
        "cloaking": [0, 2], "cloaks": [0, 2], "is": [0, 2], "ship": [0, 2, 1, 6], "ships": [1, 0], "the": [0, 2],
        "any": [1, 6],
    }  # fmt: skip
    assert [d["lengths"] for d in index["documents"]] == [[1, 1, 9, 0], [2, 0, 4, 0]]  # headword, cards, text, extra
    assert index["averages"] == [1.5, 0.5, 6.5, 0.0]
    assert [sorted(d) for d in index["documents"]] == [["cards", "citation", "game", "headword", "id", "kind", "label",
                                                        "lengths", "status", "text", "topic"]] * 2  # fmt: skip
    assert index["filler"] == sorted(FILLER)
    assert index["numerals"]["zero"] == "0" and index["numerals"]["7"] == "seven" and "one" not in index["numerals"]
    assert index["boosts"] == {"headword": 4.0, "headstem": 2.5, "cards": 2.0, "cardstem": 1.5, "text": 1.0,
                               "extra": 0.8}  # fmt: skip


@pytest.fixture(scope="module")
def site(bundled_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "site"
    export(bundled_root, out)
    return out


def test_the_bundled_exports_index(site: Path) -> None:
    index = json.loads((site / "search-index.json").read_text())
    topics = [d["topic"] for d in index["documents"]]
    conundrum = topics.index("stccg:conundrum")
    assert index["postings"]["conundrum"] == [conundrum, 0, 0, 1]
    # Lengths as the server's index stores them (one byte each: 191 words of text are 196).
    assert index["documents"][conundrum]["lengths"] == [1, 1, 196, 47]
    assert index["postings"]["kreetchta"] == [topics.index("neutral-zone:neutral.kreechta"), 1]
    the = index["postings"]["the"]
    assert {the[i + 1] % 4 for i in range(0, len(the), 2)} == {0, 1, 2, 3}
    assert len(index["documents"]) == 157
    assert sorted(index["indexed"]) == ["cards", "cardstem", "extra"]  # the server's own postings of these
    assert index["indexed"]["cards"]["conundrum"] == [conundrum, 1]
    assert index["card_lists"] == ["stccg:rebuilding-your-decks.deck-list-federation-outpost",
                                   "stccg:rebuilding-your-decks.deck-list-klingon-outpost"]  # fmt: skip
    assert index["boosts"] == dict(BOOSTS)


# -- the fields' boosts, defined once (kb/boosts.py) ---------------------------------------


def test_both_indexes_hold_the_boosts_the_export_carries(bundled_root: Path) -> None:
    """The server's indexes (of the versions in force, of every version) score with `BOOSTS`,
    the boosts the export's index carries to the browser."""
    with KnowledgeBase(current(bundled_root)) as knowledge:
        for name in (CURRENT_DIR, INDEX_DIR):
            schema = knowledge.searchers.index_searcher(name).schema
            assert {field: schema[field].format.field_boost for field in BOOSTS} == dict(BOOSTS), name


def test_the_browsers_scripts_hold_no_boost_of_their_own() -> None:
    """No number of the boosts is written in the export's scripts (code or comment): they read
    the index's ``boosts``."""
    values = {float(v) for v in BOOSTS.values()}
    for path in sorted((ROOT / "web" / "static").glob("*.js")):
        written = {float(n) for n in re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])", path.read_text(encoding="utf-8"))}
        assert written & values == set(), path.name


@needs_node
def test_the_browser_scores_with_the_boosts_of_the_index(tmp_path: Path) -> None:
    """The same postings ranked two ways by the boosts the index carries alone: a headword's
    word first with the server's boosts; the text's first when the text is boosted over it."""
    found = [shown(7, "Cloaking", "", "Ships hide."), shown(9, "Ships", "", "A cloaking ship hides; cloaking costs.")]
    found = [{**document, "refers": [], "name": document["headword"].lower()} for document in found]
    index = search_index(found)
    (tmp_path / "search-index.json").write_text(json.dumps(index), encoding="utf-8")
    assert offline_answers(tmp_path, ["cloaking"]) == [[7, 9]]
    index["boosts"] = {**index["boosts"], "headword": 0.5, "headstem": 0.5, "text": 8.0}
    (tmp_path / "search-index.json").write_text(json.dumps(index), encoding="utf-8")
    assert offline_answers(tmp_path, ["cloaking"]) == [[9, 7]]


@pytest.fixture(scope="module")
def page(site: Path) -> Iterator[tuple[Any, str]]:
    """A chromium page (no service worker) and the export's address on a static server."""
    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            tab = browser.new_context(service_workers="block").new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            yield tab, f"http://127.0.0.1:{server.server_address[1]}/"
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert errors == []


def found(page: tuple[Any, str], query: str, game: str = "") -> list[str]:
    """The topics the export's search page lists for ``query`` (and the game filter)."""
    tab, host = page
    tab.goto(host + "index.html?q=" + quote(query) + (f"&game={game}" if game else ""))
    tab.wait_for_selector("#results[data-offline]")
    topics: list[str] = tab.eval_on_selector_all("#results a.headword", TOPICS)
    assert tab.text_content("#results .count") == f"{len(topics)} result{'s' * (len(topics) != 1)} for “{query}”"
    return topics


@needs_chromium
def test_a_headword_finds_its_entry_first(page: tuple[Any, str]) -> None:
    assert found(page, "Conundrum") == ["stccg:conundrum"]
    assert found(page, "U.S.S. Dauntless")[:3] == ["neutral-zone:federation.u-s-s-dauntless",
                                                   "neutral-zone:federation.u-s-s-reliant",
                                                   "neutral-zone:federation.u-s-s-defiant"]  # fmt: skip


@needs_chromium
def test_a_typo_within_an_edit_or_two_finds_the_word(page: tuple[Any, str]) -> None:
    assert found(page, "conundrun") == ["stccg:conundrum"]  # one edit, nine letters
    mended = found(page, "comandeering")  # the word mended, then found with its stem's other words
    assert (mended[0], sorted(mended)) == ("stccg:commandeering", sorted(found(page, "commandeering")))
    assert found(page, "conumdrun") == ["stccg:conundrum"]  # two edits
    assert found(page, "cnudrum") == ["stccg:conundrum"]  # two edits: as the server, within two from six letters
    assert found(page, "cnxdrum") == []  # three edits
    swapped = found(page, "attakc")  # two neighbours swapped: one edit
    assert (swapped[:2], sorted(swapped)) == (found(page, "attack")[:2], sorted(found(page, "attack")))


@needs_chromium
def test_the_last_word_while_typing_finds_the_words_it_begins(page: tuple[Any, str]) -> None:
    tab, host = page
    assert found(page, "conund") == []  # typed whole, a word the index does not hold
    tab.goto(host + "index.html")
    tab.type("#q", "conund")
    tab.wait_for_selector('#results[data-query="conund"]')
    assert tab.eval_on_selector_all("#results a.headword", TOPICS) == ["stccg:conundrum"]
    assert tab.eval_on_selector_all("#suggestions a", "els => els.map(e => e.firstChild.textContent)") == ["Conundrum"]


@needs_chromium
def test_autocomplete_rows_are_touch_targets_and_hits_can_be_cited(page: tuple[Any, str], bundled_root: Path) -> None:
    tab, host = page
    tab.goto(host + "index.html")
    tab.type("#q", "conund")
    tab.wait_for_selector("#suggestions a")
    heights = tab.eval_on_selector_all("#suggestions li", "els => els.map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44  # were 19 to 24 px
    found(page, "conundrum")
    tab.locator("#results details.whole summary").first.click()  # the citation is one tap away, as on the server
    button = tab.locator("#results button.copy-cite").first
    assert button.is_visible()  # offline.js never showed it
    with KnowledgeBase(current(bundled_root)) as kb:
        hit = kb.search("conundrum")["results"][0]
    citation = hit["citation"]
    assert button.get_attribute("data-citation") == (
        f"{hit['headword']} ({hit['label']}): {hit['text']}\n— {citation['title']} ({citation['version']}), "
        f"{citation['date']}, lines {citation['lines']}")  # fmt: skip
    assert button.get_attribute("data-permalink") == f"{host}version/{hit['key']}.html"


@needs_chromium
def test_a_card_name_finds_the_entries_naming_the_card(page: tuple[Any, str]) -> None:
    assert found(page, "Kreetchta") == ["neutral-zone:neutral.kreechta"]  # in its card names only
    assert found(page, "Montgomery Scott") == ["stccg:any", "stccg:playing-cards-from-your-hand",
                                               "stccg:rebuilding-your-decks.deck-list-federation-outpost"]  # fmt: skip


@needs_chromium
def test_an_excluded_word_and_the_stems(page: tuple[Any, str]) -> None:
    cloak = ["stccg:cloaking-and-phasing", "stccg:the-eight-types-of-cards-used-in-the-two-player-game.ships"]
    assert found(page, "cloaked") == [*cloak, "stccg:conundrum"]
    assert found(page, "cloaked -conundrum") == cloak
    assert found(page, "cloaked -cloaking") == []
    assert sorted(found(page, "ruled")) == sorted(found(page, "rules"))  # not in the index: found by its stem


@needs_chromium
def test_the_game_filter(page: tuple[Any, str], bundled_root: Path) -> None:
    both = found(page, "ship")
    only = found(page, "ship", game="neutral-zone")
    assert (len(both), len(only)) == (20, 20)
    # The server's order (the headword "Ships" and the text's "ship" weighed as the server weighs them).
    with KnowledgeBase(current(bundled_root)) as kb:
        assert both == [hit["topic"] for hit in kb.search("ship")["results"]]
        assert only == [hit["topic"] for hit in kb.search("ship", game="neutral-zone")["results"]]
    assert both[:3] == ["neutral-zone:neutral.tholian-ship",
                        "stccg:the-eight-types-of-cards-used-in-the-two-player-game.ships",
                        "stccg:a-fast-ship-would-be-nice"]  # fmt: skip
    assert {t.split(":")[0] for t in only} == {"neutral-zone"}


@needs_chromium
def test_the_browser_folds_words_as_the_index_does(page: tuple[Any, str]) -> None:
    tab, host = page
    tab.goto(host + "index.html?q=x")
    tab.wait_for_selector("#results[data-offline]")
    text = "Cha’Joh, U.S.S. Dauntless [MQ] Bio-ship's multi-affiliation 2E Mr. Quark's 60-card I.K.S. Maht-H'A ño."
    assert tab.evaluate(f"RulingsSearch.textWords({json.dumps(text)})") == folded_words(text)
    assert tab.evaluate("RulingsSearch.queryWords('Bio-ship U.S.S. bio')") == ["bio", "ship", "uss"]


# -- the browser answers as the server does ------------------------------------------------

STEMS = """
global.window = {};
process.argv.slice(1).forEach(function (file) { require(file); });
const words = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(words.map(window.RulingsSearch.inflectionStem)));
"""


FOLDS = """
global.window = {};
process.argv.slice(1).forEach(function (file) { require(file); });
const text = require("fs").readFileSync(0, "utf8");
process.stdout.write(JSON.stringify(window.RulingsSearch.textWords(text)));
"""


@needs_node
def test_the_browser_folds_compatibility_forms_as_the_server_does() -> None:
    text = "\uff2d\uff49\uff53\uff53\uff49\uff4f\uff4e \ufb01rst "
    text += "\uff22\uff49\uff4f-\uff53\uff48\uff49\uff50 \u2460 U.S.S."
    done = subprocess.run([str(NODE), "-e", FOLDS, *map(str, SEARCH_JS)], input=text, capture_output=True, text=True,
                          check=True, timeout=120)  # fmt: skip
    assert json.loads(done.stdout) == folded_words(text) == ["mission", "first", "bioship", "bio", "ship", "1", "uss"]


@needs_node
def test_the_browser_stems_every_word_as_the_server_does(site: Path) -> None:
    words = sorted(json.loads((site / "search-index.json").read_text())["postings"])
    words += ["commandeered", "commandeering", "commander", "cloaked", "hopping", "hoped", "agreed", "abilities",
              "battling", "ñandú", "2e", "yes", "skies", "dying"]  # fmt: skip
    done = subprocess.run([str(NODE), "-e", STEMS, *map(str, SEARCH_JS)], input=json.dumps(words), capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    assert json.loads(done.stdout) == [inflection_stem(w) for w in words]


@needs_node
def test_the_browser_ranks_the_relevance_sets_as_the_server_does(site: Path, bundled_root: Path) -> None:
    """The export's top three are the server's on at least 90% of the queries of both relevance
    sets (bench/offline_parity.py prints each that differs); the first result on at least 95%."""
    queries = [str(q["q"]) for name in ("relevance.toml", "relevance-heldout.toml")
               for q in read_set(ROOT / "bench" / name)]  # fmt: skip
    compared = compare(bundled_root, site, queries)
    assert len(compared) == 153
    differing = [c.query for c in compared if not c.same_top3]
    assert len(differing) <= 0.1 * len(compared), differing
    assert sum(c.same_top1 for c in compared) >= 0.95 * len(compared)


@needs_chromium
def test_a_query_typed_and_submitted_with_enter_is_answered_as_the_server_answers(page: tuple[Any, str]) -> None:
    """The form sends ``as_of=&game=any&kind=``: every game, today, any kind (issue 52 item 1: 0 results)."""
    tab, host = page
    tab.goto(host + "index.html")
    tab.fill("#q", "conundrum")
    with tab.expect_navigation():
        tab.press("#q", "Enter")
    assert "game=any" in tab.url and "as_of=" in tab.url
    tab.wait_for_selector("#results[data-offline] .count")
    assert tab.text_content("#results .count") == "1 result for “conundrum”"
    assert tab.eval_on_selector_all("#results a.headword", TOPICS) == ["stccg:conundrum"]


@needs_chromium
def test_a_date_or_game_the_copy_cannot_answer_is_said_plainly(page: tuple[Any, str]) -> None:
    tab, host = page
    tab.goto(host + "index.html?q=conundrum&as_of=1999-01-01")
    tab.wait_for_selector("#results[data-offline] .notice")
    notice = tab.text_content("#results .notice") or ""
    assert "searches the texts in force on " in notice and "not as of 1999-01-01" in notice
    assert tab.eval_on_selector_all("#results a.headword", TOPICS) == []
    tab.goto(host + "index.html?q=conundrum&game=chess")
    tab.wait_for_selector("#results[data-offline] .notice")
    assert (tab.text_content("#results .notice") or "").startswith("This copy holds nothing of the game “chess”.")


@needs_chromium
def test_the_diff_asked_for_two_dates_has_no_banner_of_the_latest_document(page: tuple[Any, str]) -> None:
    tab, host = page
    tab.goto(host + "diff.html?from=2000-01-01&to=2001-01-01")
    tab.wait_for_selector("p.count[data-offline]")
    assert tab.text_content("h1") == "Changes from 2000-01-01 to 2001-01-01"
    assert tab.query_selector_all("p.banner") == []


@needs_chromium
def test_a_hits_lead_is_cut_as_the_servers_is(page: tuple[Any, str]) -> None:
    """Issue 52 item 6: at clause boundaries, never inside a card's title (`web.leads`)."""
    tab, host = page
    shown = {}
    for query in sorted({q for q, _ in LEADS}):
        tab.goto(host + "index.html?q=" + quote(query) + "&game=stccg")
        tab.wait_for_selector("#results[data-offline] .count")
        for hit in tab.query_selector_all("#results ol.results > li"):
            headword = hit.query_selector("a.headword").inner_text()
            shown.setdefault((query, headword), hit.query_selector(".text.lead").text_content())
    assert {key: shown.get(key) for key in LEADS} == LEADS


@needs_chromium
def test_a_date_typed_in_the_copys_diff_box_is_shown_as_yyyy_mm_dd(page: tuple[Any, str]) -> None:
    """Issue 52 item 5: the copy's date boxes show and take YYYY-MM-DD as the server's do."""
    tab, host = page
    tab.goto(host + "diff.html")
    for name, typed in (("from", "2000-01-01"), ("to", "2001-01-01")):
        tab.fill(f"form.filters input[name={name}]", "")
        tab.click(f"form.filters input[name={name}]")
        tab.keyboard.type(typed)
    with tab.expect_navigation():
        tab.keyboard.press("Enter")
    tab.wait_for_selector("p.count[data-offline]")
    assert tab.text_content("h1") == "Changes from 2000-01-01 to 2001-01-01"
    shown = "els => els.map(e => [e.type, e.value, e.placeholder])"
    assert tab.eval_on_selector_all("form.filters input[name=from], form.filters input[name=to]", shown) == [
        ["text", "2000-01-01", "YYYY-MM-DD"],
        ["text", "2001-01-01", "YYYY-MM-DD"],
    ]
