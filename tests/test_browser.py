"""The pages in a real browser: Debian's chromium, headless, driven by Playwright, against
the real app served by waitress on loopback. Screenshots land in tests/artifacts/."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import waitress

from helpers import ROOT
from web.app import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip
KLINGON_DECK = (
    (Path(__file__).resolve().parent.parent / "data/stccg/quick-start-rules.txt").read_text().splitlines()[92]
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed "
                                "(.ci/run installs it: apt-get install chromium)")  # fmt: skip


def serve(kb: Path) -> Iterator[str]:
    server = waitress.create_server(create_app({"KB": str(kb)}), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()


@pytest.fixture(scope="module")
def site(bundled_root: Path) -> Iterator[str]:
    yield from serve(bundled_root)


@pytest.fixture(scope="module")
def history_site(history_root: Path) -> Iterator[str]:
    yield from serve(history_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": request.param, "height": 800})  # type: ignore[attr-defined]
    opened = context.new_page()
    opened.width = request.param
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{page.width}.png"), full_page=True)  # type: ignore[attr-defined]


def test_search_as_you_type(page: object, site: str) -> None:
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.keyboard.press("/")  # type: ignore[attr-defined]
    page.keyboard.type("conund")  # type: ignore[attr-defined]
    page.wait_for_selector("#suggestions li a")  # type: ignore[attr-defined]
    shown = page.eval_on_selector_all("#suggestions li a", "els => els.map(e => e.textContent)")  # type: ignore[attr-defined]
    assert shown == ["Conundrum entry · stccg", "Conundrum card · stccg"]
    page.wait_for_selector("ol.results li")  # type: ignore[attr-defined]
    assert page.inner_text("ol.results li .headword") == "Conundrum"  # type: ignore[attr-defined]
    shot(page, "search")
    page.click("#suggestions li a")  # type: ignore[attr-defined]
    page.wait_for_selector("h1")  # type: ignore[attr-defined]
    assert page.inner_text("h1") == "Conundrum"  # type: ignore[attr-defined]
    assert "Current Rulings Update (11/27/00), 2000-11-27, lines 79-83" in page.inner_text(".source")  # type: ignore[attr-defined]
    shot(page, "entry")


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
    assert page.inner_text("#compare del").strip().startswith("If you resolve all dilemmas and Q-Flashes")  # type: ignore[attr-defined]
    shot(page, "entry-diff")


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
    assert page.inner_text("p.count") == "40 added, 10 changed, 0 rescinded, 0 pending"  # type: ignore[attr-defined]
    assert page.locator("section.change ins").count() > 0  # type: ignore[attr-defined]
    shot(page, "diff")


def test_filters_apply_to_the_query_being_typed(page: object, site: str) -> None:
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.fill("#q", "ship")  # type: ignore[attr-defined]
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
