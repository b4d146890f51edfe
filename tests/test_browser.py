"""The pages in a real browser: Debian's chromium, headless, driven by Playwright, against
the real app served by waitress on loopback. Screenshots land in tests/artifacts/."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from browsing import NEEDS_CHROMIUM, SMALL_TARGETS, launch, open_filters, opened_at, serve
from helpers import ROOT
from kb.paths import current
from kb.query import KnowledgeBase

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
KLINGON_DECK = (
    (Path(__file__).resolve().parent.parent / "data/stccg/quick-start-rules.txt").read_text().splitlines()[92]
)

pytestmark = NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def site(bundled_root: Path) -> Iterator[str]:
    yield from serve(bundled_root)


@pytest.fixture(scope="module")
def history_site(history_root: Path) -> Iterator[str]:
    yield from serve(history_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    yield from opened_at(browser, request.param)


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{page.width}.png"), full_page=True)  # type: ignore[attr-defined]


def test_search_as_you_type(page: object, site: str) -> None:
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.keyboard.press("/")  # type: ignore[attr-defined]
    page.keyboard.type("conund")  # type: ignore[attr-defined]
    page.wait_for_selector("#suggestions [role=option]")  # type: ignore[attr-defined]
    expected = ["Conundrum entry · stccg", "Conundrum card · stccg"]
    shown: list[str] = []
    for _ in range(50):  # a slow machine may show a shorter prefix's suggestions first ("con"), then these
        shown = page.eval_on_selector_all("#suggestions [role=option]", "els => els.map(e => e.textContent)")  # type: ignore[attr-defined]
        if shown == expected:
            break
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    assert shown == expected
    page.wait_for_selector("ol.results li")  # type: ignore[attr-defined]
    assert page.inner_text("ol.results li .headword") == "Conundrum"  # type: ignore[attr-defined]
    shot(page, "search")
    page.click("#suggestions [role=option]")  # type: ignore[attr-defined]
    page.wait_for_selector("h1")  # type: ignore[attr-defined]
    assert page.inner_text("h1") == "Conundrum"  # type: ignore[attr-defined]
    assert "Current Rulings Update (11/27/00), 2000-11-27, lines 79-83" in page.inner_text(".source")  # type: ignore[attr-defined]
    shot(page, "entry")


def test_live_search_keeps_its_address_for_sharing_and_back(page: object, site: str) -> None:
    """Issue 24 item 7: the address follows the query typed (with the filters chosen), so the
    results can be shared, and Back from a result shows them again."""
    page.goto(site + "/")  # type: ignore[attr-defined]
    open_filters(page)
    page.select_option("select[name=game]", "stccg")  # type: ignore[attr-defined]
    page.fill("#q", "commandeering")  # type: ignore[attr-defined]
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'commandeering'")  # type: ignore[attr-defined]
    page.wait_for_url(site + "/?q=commandeering&game=stccg")  # type: ignore[attr-defined]
    page.keyboard.press("Escape")  # type: ignore[attr-defined]
    page.click("ol.results li a.headword")  # type: ignore[attr-defined]
    page.wait_for_url("**/entry/stccg:commandeering")  # type: ignore[attr-defined]
    page.go_back()  # type: ignore[attr-defined]
    page.wait_for_selector("ol.results li")  # type: ignore[attr-defined]
    assert page.input_value("#q") == "commandeering"  # type: ignore[attr-defined]
    assert page.inner_text("ol.results li a.headword") == "commandeering"  # type: ignore[attr-defined]


def test_search_without_javascript_submits_the_form(browser: object, site: str) -> None:
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    plain = context.new_page()
    plain.goto(site + "/")
    plain.fill("#q", "damaged ship")
    plain.click("header button[type=submit]")
    plain.wait_for_selector("ol.results li")
    assert plain.inner_text("ol.results li .headword") == "SHIP VS. SHIP"
    context.close()


def test_pick_two_versions_and_see_the_diff(page: object, history_site: str) -> None:
    page.goto(history_site + "/entry/stccg:mission-attempt")  # type: ignore[attr-defined]
    options = page.eval_on_selector_all("select[name=a] option", "els => els.map(e => e.value)")  # type: ignore[attr-defined]
    assert len(options) == 3
    page.select_option("select[name=a]", options[1])  # type: ignore[attr-defined]
    page.select_option("select[name=b]", options[2])  # type: ignore[attr-defined]
    page.click("form.compare button")  # type: ignore[attr-defined]
    page.wait_for_selector("#compare del")  # type: ignore[attr-defined]
    assert page.url.endswith("#compare")  # type: ignore[attr-defined]  # opens where the word diff is
    assert page.inner_text("#compare del").strip().startswith("If you resolve all dilemmas and Q-Flashes")  # type: ignore[attr-defined]
    shot(page, "entry-diff")


def test_a_superseded_or_rescinded_version_by_permalink_shows_the_banner(
    page: object, history_site: str, history_root: Path
) -> None:
    kb = KnowledgeBase(current(history_root))
    old = min((v for v in kb.store.versions_of("stccg:conundrum") if v.end == "superseded"), key=lambda v: v.id)
    now = next(v for v in kb.in_force(old.topic, dt.date.today()) if v.series == old.series)
    assert (old.key, now.key) == (
        "stccg:conundrum@glossary-1-7@glossary", "stccg:conundrum@cr-update-2000-12-18@glossary"
    )  # fmt: skip
    page.goto(history_site + "/version/" + old.key)  # type: ignore[attr-defined]
    assert page.inner_text("p.banner") == (  # type: ignore[attr-defined]
        "Not in force since 2000-11-27; the text in force is the Glossary version of 2000-12-18 "
        "(Current Rulings Update (12/18/00), line 21)."
    )
    shot(page, "version-banner")
    page.click("p.banner a")  # type: ignore[attr-defined]
    page.wait_for_url("**/version/stccg:conundrum@cr-update-2000-12-18@glossary")  # type: ignore[attr-defined]
    assert page.query_selector("p.banner") is None  # type: ignore[attr-defined]
    assert page.inner_text("h1") == "Conundrum Glossary, version 3 of 3"  # type: ignore[attr-defined]  # not a row id
    gone = next(v for v in kb.store.versions_of("stccg:a-fast-ship-would-be-nice") if v.end == "rescinded")
    page.goto(history_site + "/version/" + gone.key)  # type: ignore[attr-defined]
    assert page.inner_text("p.banner") == (  # type: ignore[attr-defined]
        "Not in force since 2001-01-29; no Current Rulings text is in force: ended 2001-01-29: omitted from the full "
        "Current Rulings of 2001-01-29 — Current Rulings (1/29/01), lines 13-15. The entry and its history."
    )
    page.click("p.banner >> text=The entry and its history")  # type: ignore[attr-defined]
    page.wait_for_url("**/entry/stccg:a-fast-ship-would-be-nice")  # type: ignore[attr-defined]
    assert page.inner_text("h1") == "A Fast Ship Would Be Nice"  # type: ignore[attr-defined]


def test_card_page(page: object, site: str) -> None:
    page.goto(site + "/card/Nebula")  # type: ignore[attr-defined]
    assert page.inner_text("h1") == "Nebula"  # type: ignore[attr-defined]
    links = page.eval_on_selector_all("main h3 a", "els => els.map(e => e.textContent)")  # type: ignore[attr-defined]
    assert links == ["[univ] Nebula", "movement"]
    shot(page, "card")


def test_paste_the_klingon_deck(page: object, site: str) -> None:
    page.goto(site + "/deck")  # type: ignore[attr-defined]
    page.fill("#list", KLINGON_DECK)  # type: ignore[attr-defined]
    page.click("form.deck button")  # type: ignore[attr-defined]
    page.wait_for_selector(".count")  # type: ignore[attr-defined]
    assert page.inner_text(".count") == "60 cards, 51 distinct known"  # type: ignore[attr-defined]
    assert "Klingon Outpost" in page.inner_text("main")  # type: ignore[attr-defined]
    shot(page, "deck")


def test_diff_between_two_dates(page: object, history_site: str) -> None:
    page.goto(history_site + "/diff")  # type: ignore[attr-defined]
    page.fill("input[name=from]", "2000-10-30")  # type: ignore[attr-defined]
    page.fill("input[name=to]", "2000-11-27")  # type: ignore[attr-defined]
    page.click("main form.filters button")  # type: ignore[attr-defined]
    page.wait_for_selector("p.count")  # type: ignore[attr-defined]
    assert page.inner_text("p.count") == "10 changed, 40 added, 0 rescinded, 0 pending"  # type: ignore[attr-defined]
    assert page.locator("section.change ins").count() > 0  # type: ignore[attr-defined]
    shot(page, "diff")


def test_filters_apply_to_the_query_being_typed(page: object, site: str) -> None:
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.fill("#q", "ship")  # type: ignore[attr-defined]
    page.wait_for_selector("#suggestions [role=option]")  # type: ignore[attr-defined]
    page.keyboard.press("Escape")  # type: ignore[attr-defined]
    open_filters(page)
    page.select_option("select[name=kind]", "rulebook")  # type: ignore[attr-defined]
    page.click("#filters button")  # type: ignore[attr-defined]
    page.wait_for_selector("ol.results li")  # type: ignore[attr-defined]
    assert "q=ship" in page.url and "kind=rulebook" in page.url  # type: ignore[attr-defined]
    labels = page.eval_on_selector_all("ol.results .label", "els => els.map(e => e.textContent)")  # type: ignore[attr-defined]
    assert labels and all(label.startswith("Rulebook") for label in labels)


def test_typing_shows_what_enter_gives(browser: object, site: str) -> None:
    """For every query of the relevance set, the results shown while typing begin with
    exactly the results Enter gives (prefix completions of the last word may follow)."""
    import json
    import tomllib
    import urllib.request
    from urllib.parse import unquote, urlencode

    queries = tomllib.loads((ROOT / "bench" / "relevance.toml").read_text(encoding="utf-8"))["query"]
    context = browser.new_context()  # type: ignore[attr-defined]
    typing = context.new_page()
    typing.goto(site + "/")
    for typed in [str(q["q"]) for q in queries]:
        typing.fill("#q", typed)
        typing.wait_for_function("q => document.getElementById('results').dataset.query === q", arg=typed)
        shown = typing.eval_on_selector_all("ol.results a.headword", "els => els.map(e => e.getAttribute('href'))")
        with urllib.request.urlopen(f"{site}/index.json?{urlencode({'q': typed})}") as response:
            submitted = [hit["topic"] for hit in json.load(response)["results"]]
        live = [unquote(href.split("?")[0].removeprefix("/entry/")) for href in shown]
        assert live[: len(submitted)] == submitted, typed
    context.close()


def test_a_cited_line_lands_below_the_header_and_highlighted(page: object, site: str) -> None:
    page.goto(site + "/docs/stccg-cr-update-2000-11-27?lines=79-83#L79")  # type: ignore[attr-defined]
    header = page.locator("header").bounding_box()  # type: ignore[attr-defined]
    line = page.locator("#L79").bounding_box()  # type: ignore[attr-defined]
    assert header["y"] + header["height"] <= line["y"] < 800
    cited = page.eval_on_selector_all(".line.cited", "els => els.map(e => e.id)")  # type: ignore[attr-defined]
    assert cited == ["L79", "L80", "L81", "L82", "L83"]
    plain = page.eval_on_selector("#L78", "e => getComputedStyle(e).backgroundColor")  # type: ignore[attr-defined]
    marked = page.eval_on_selector("#L79", "e => getComputedStyle(e).backgroundColor")  # type: ignore[attr-defined]
    assert marked != plain
    shot(page, "cited-lines")


@pytest.mark.parametrize("path", ["/?q=conundrum", "/?q=card%3ANebula&kind=glossary", "/entry/stccg:conundrum",
                                  "/card/Nebula", "/deck?list=Nebula%0AConundrum", "/docs",
                                  "/docs/stccg-cr-update-2000-11-27?lines=79-83", "/asof/2000-11-27", "/diff",
                                  "/entry/no-such-topic", "/cards?names=Stop+First+Contact,Hero+of+the+Empire",
                                  "/?q=how+many+seed+cards&game=stccg", "/sources/stccg:conundrum",
                                  "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary"])  # fmt: skip
def test_every_control_is_44_px_on_a_phone(browser: object, site: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})  # type: ignore[attr-defined]
    phone = context.new_page()
    phone.goto(site + path)
    assert phone.evaluate(SMALL_TARGETS) == []
    if path == "/?q=conundrum":
        phone.fill("#q", "conund")
        phone.wait_for_selector("#suggestions [role=option]")
        assert phone.evaluate(SMALL_TARGETS) == []
    context.close()


def test_autocomplete_by_keyboard_alone(page: object, site: str) -> None:
    """The WAI-ARIA combobox: arrows move through the suggestions, Enter opens the active one, Esc closes."""
    page.goto(site + "/?q=ship")  # type: ignore[attr-defined]
    page.keyboard.press("/")  # type: ignore[attr-defined]
    page.keyboard.type("conund")  # type: ignore[attr-defined]
    page.wait_for_selector("#suggestions [role=option]")  # type: ignore[attr-defined]
    box = page.locator("#q")  # type: ignore[attr-defined]
    assert box.get_attribute("role") == "combobox" and box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("aria-controls") == "suggestions"
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'conund'")  # type: ignore[attr-defined]
    page.wait_for_function("() => document.getElementById('status').textContent.includes('conund')")  # type: ignore[attr-defined]
    assert page.inner_text("#status") == "1 result for “conund”"  # type: ignore[attr-defined]
    selected = "els => els.filter(e => e.getAttribute('aria-selected') === 'true').map(e => e.textContent)"
    for key, active in [("ArrowDown", "suggestion-0"), ("ArrowDown", "suggestion-1"), ("ArrowUp", "suggestion-0")]:
        page.keyboard.press(key)  # type: ignore[attr-defined]
        assert box.get_attribute("aria-activedescendant") == active
    assert page.eval_on_selector_all("#suggestions [role=option]", selected) == ["Conundrum entry · stccg"]  # type: ignore[attr-defined]
    assert page.evaluate("document.activeElement.id") == "q"  # type: ignore[attr-defined]
    page.keyboard.press("Escape")  # type: ignore[attr-defined]
    assert page.is_hidden("#suggestions")  # type: ignore[attr-defined]
    assert box.get_attribute("aria-expanded") == "false" and box.get_attribute("aria-activedescendant") is None
    page.keyboard.press("ArrowDown")  # type: ignore[attr-defined]
    page.keyboard.press("ArrowDown")  # type: ignore[attr-defined]
    assert box.get_attribute("aria-activedescendant") == "suggestion-1"
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
    assert page.url == site + "/card/Conundrum"  # type: ignore[attr-defined]
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.keyboard.press("/")  # type: ignore[attr-defined]
    page.keyboard.type("conund")  # type: ignore[attr-defined]
    page.wait_for_selector("#suggestions [role=option]")  # type: ignore[attr-defined]
    for key in ["ArrowDown", "ArrowDown", "ArrowUp"]:
        page.keyboard.press(key)  # type: ignore[attr-defined]
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
    assert page.url == site + "/entry/stccg:conundrum"  # type: ignore[attr-defined]


def test_apply_without_javascript_sends_the_query_as_typed(browser: object, site: str) -> None:
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    plain = context.new_page()
    plain.goto(site + "/?q=ship")
    plain.fill("#q", "damaged ship")
    plain.select_option("select[name=kind]", "rulebook")
    plain.click("#filters button")
    plain.wait_for_selector("ol.results li")
    assert plain.url == site + "/?q=damaged+ship&as_of=&game=stccg&kind=rulebook"  # the default game, chosen
    assert plain.input_value("#q") == "damaged ship"
    context.close()


def test_copy_citation(browser: object, site: str) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])  # type: ignore[attr-defined]
    opened = context.new_page()
    opened.goto(site + "/entry/stccg:conundrum")
    opened.click(".part button.copy-cite")
    opened.wait_for_function("() => document.getElementById('status').textContent === 'Citation copied'")
    copied = opened.evaluate("navigator.clipboard.readText()")
    lines = copied.split("\n")
    assert lines[0].startswith("Conundrum (Glossary, version 1 of 1): When you fail to overcome this dilemma,")
    assert lines[-2:] == ["— Current Rulings Update (11/27/00), 2000-11-27, lines 79-83",
                          site + "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary"]  # fmt: skip
    opened.goto(site + "/?q=conundrum")
    opened.click("ol.results details.whole summary")  # a hit's citation is one tap away
    assert opened.is_visible("ol.results button.copy-cite")
    context.close()
    plain = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    page = plain.new_page()
    page.goto(site + "/entry/stccg:conundrum")
    assert page.is_hidden(".part button.copy-cite")
    assert page.inner_text(".part .source") == (
        "Current Rulings Update (11/27/00), 2000-11-27, lines 79-83 · permalink"
    )
    plain.close()
