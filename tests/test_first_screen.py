"""Issue 36 item 4, in Debian's chromium at 360 and 1280 px: the answer is on the first screen.
A hit shown whole opens on its paragraph that matches, the words searched marked, the rest of
its text one tap away; on a phone the filters (as of, game, kind) fold into one line. And item 6:
the two-card fields complete names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browsing import NEEDS_CHROMIUM, launch, serve

pytestmark = NEEDS_CHROMIUM
SCREEN = 740
"""The height of the first screen, in CSS pixels (a 360 by 740 phone; the desktop gets 800)."""


@pytest.fixture(scope="module")
def site(bundled_root: Path) -> Iterator[str]:
    yield from serve(bundled_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    height = SCREEN if request.param == 360 else 800
    context = browser.new_context(viewport={"width": request.param, "height": height})  # type: ignore[attr-defined]
    opened = context.new_page()
    opened.width = request.param
    yield opened
    context.close()


def test_three_results_on_the_first_screen(page: object, site: str) -> None:
    """Issue 52 item 2: a hit shows its headword, status, the sentence that matched and its source
    in a few lines, so the third hit's headword is on the first screen (the first hit alone filled
    a 360 by 740 screen)."""
    page.goto(site + "/?q=what+happens+when+a+ship+is+stopped&game=stccg")  # type: ignore[attr-defined]
    heads = page.locator("ol.results > li > a.headword")  # type: ignore[attr-defined]
    assert heads.all_inner_texts()[:3] == ['"stopped"', "SHIP VS. SHIP", "Conundrum"]
    third = heads.nth(2).bounding_box()
    assert third["y"] + third["height"] <= page.viewport_size["height"]  # type: ignore[attr-defined]


def test_the_matching_sentence_comes_first_with_the_words_marked(page: object, site: str) -> None:
    page.goto(site + "/?q=mission+attempt&game=stccg")  # type: ignore[attr-defined]
    first = page.locator("ol.results > li").first  # type: ignore[attr-defined]
    lead = first.locator(".text.lead")
    assert lead.inner_text() == (
        "A mission attempt may not be voluntarily aborted, either between dilemmas or before solving."
    )
    assert lead.locator("mark").all_inner_texts() == ["mission", "attempt"]
    box = lead.bounding_box()
    assert box["y"] + box["height"] < page.viewport_size["height"]  # type: ignore[attr-defined]
    whole = first.locator("details.whole")
    assert whole.locator("summary").inner_text() == "Whole text (2 paragraphs) · Current Rulings"
    assert not whole.locator(".text").is_visible()
    whole.locator("summary").click()
    assert whole.locator(".text p").first.inner_text().startswith("(However, if you remove all matching personnel")
    assert whole.locator(".text p").nth(1).inner_text().startswith("A mission attempt may not be voluntarily aborted")
    assert "Current Rulings Update (11/27/00), 2000-11-27, lines 123-127" in whole.locator("p.source").inner_text()


def test_a_long_sentence_is_cut_around_the_words_searched(page: object, site: str) -> None:
    page.goto(site + "/?q=commandeering&game=stccg")  # type: ignore[attr-defined]
    first = page.locator("ol.results > li").first  # type: ignore[attr-defined]
    lead = first.locator(".text.lead")
    assert len(lead.inner_text().replace("…", "").split()) <= 15
    assert lead.locator("mark").all_inner_texts()[0].lower().startswith("commandeer")
    assert first.locator("details.whole summary").inner_text().startswith("Whole text")


def test_the_filters_fold_into_one_line_on_a_phone(page: object, site: str) -> None:
    page.goto(site + "/?q=ship&kind=rulebook")  # type: ignore[attr-defined]
    filters = page.locator("#filters")  # type: ignore[attr-defined]
    date = page.locator("#filters input[name=as_of]")  # type: ignore[attr-defined]
    if page.width == 360:  # type: ignore[attr-defined]
        assert (
            filters.locator("summary").inner_text() == "Filters: as of today · game stccg · kind rulebook"
        )  # the default game
        assert filters.bounding_box()["height"] <= 60  # one line (it took 260 px, 35% of the screen)
        assert not date.is_visible()
        filters.locator("summary").click()
    else:
        assert not filters.locator("summary").is_visible()
        assert filters.bounding_box()["height"] <= 80
    assert date.is_visible()
    assert page.locator("#filters select[name=kind]").input_value() == "rulebook"  # type: ignore[attr-defined]


def test_both_fields_of_two_cards_complete_names(page: object, site: str) -> None:
    """Issue 36 item 6: the two-card view, from the menu, completes names in both fields (a game term too)."""
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.click("header nav a:text('Two cards')")  # type: ignore[attr-defined]
    page.wait_for_url(site + "/cards")  # type: ignore[attr-defined]
    for field, typed, wanted in (("pair-names-1", "a fast sh", "A Fast Ship Would Be Nice"),
                                 ("pair-names-2", "commande", "commandeering")):  # fmt: skip
        page.fill(f"input[data-complete={field}]", typed)  # type: ignore[attr-defined]
        options: list[str] = []
        for _ in range(50):
            options = page.eval_on_selector_all(f"#{field} option", "els => els.map(e => e.value)")  # type: ignore[attr-defined]
            if options:
                break
            page.wait_for_timeout(100)  # type: ignore[attr-defined]
        assert wanted in options
