"""The date control of an entry page in Debian's chromium at 360 and 1280 px (issue #36, item 5):
a date chosen in the box shows the entry as it stood then, a later version said to be later; a
date that is not one comes back in the box with its message beside it; every control 44 px,
nothing wider than the screen, and no moderate or worse axe-core violation on either page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from browsing import NEEDS_CHROMIUM, SMALL_TARGETS, launch, opened_at, serve, severe_violations

pytestmark = NEEDS_CHROMIUM
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WIDE = "() => document.documentElement.scrollWidth"


@pytest.fixture(scope="module")
def history_site(history_root: Path) -> Iterator[str]:
    yield from serve(history_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    yield from opened_at(browser, request.param)


def checked(page: object, name: str) -> None:
    """The page's controls are 44 px, it is no wider than the screen, axe finds nothing; a screenshot."""
    assert page.evaluate(SMALL_TARGETS) == []  # type: ignore[attr-defined]
    assert page.evaluate(WIDE) <= page.width  # type: ignore[attr-defined]
    assert severe_violations(page) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{page.width}.png"), full_page=True)  # type: ignore[attr-defined]


def test_choose_a_date_on_an_entry_page(page: object, history_site: str) -> None:
    page.goto(history_site + "/entry/stccg:commandeering")  # type: ignore[attr-defined]
    box = page.locator("form.date-control input[name=as_of]")  # type: ignore[attr-defined]
    assert box.input_value() == dt.date.today().isoformat()
    assert " ".join(page.locator("form.date-control label").inner_text().split()) == "As of (YYYY-MM-DD)"  # type: ignore[attr-defined]
    box.fill("2000-11-01")
    page.click("form.date-control button")  # type: ignore[attr-defined]
    page.wait_for_url("**/entry/stccg:commandeering?as_of=2000-11-01")  # type: ignore[attr-defined]
    headings = page.eval_on_selector_all("main h2", "els => els.map(e => e.textContent)")  # type: ignore[attr-defined]
    assert headings[:2] == ["In force on 2000-11-01", "Later versions, not yet in force on 2000-11-01"]
    assert page.locator("main .badge.pending").all_inner_texts() == ["later version", "later version"]  # type: ignore[attr-defined]
    assert page.locator("form.date-control input[name=as_of]").input_value() == "2000-11-01"  # type: ignore[attr-defined]
    checked(page, "entry-as-of")


def test_a_date_that_is_not_one_comes_back_beside_its_box(page: object, history_site: str) -> None:
    page.goto(history_site + "/entry/stccg:commandeering?as_of=2000-11-01")  # type: ignore[attr-defined]
    page.eval_on_selector("form.date-control input[name=as_of]", "e => { e.value = '262000-12-17'; }")  # type: ignore[attr-defined]
    with page.expect_navigation() as answered:  # type: ignore[attr-defined]
        page.click("form.date-control button")  # type: ignore[attr-defined]
    assert answered.value.status == 400
    box = page.locator("form.date-control input[name=as_of]")  # type: ignore[attr-defined]
    assert box.input_value() == "262000-12-17"
    assert box.get_attribute("aria-invalid") == "true"
    message = page.locator("#" + box.get_attribute("aria-describedby"))  # type: ignore[attr-defined]
    assert message.inner_text() == "'262000-12-17' is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)"
    below = page.evaluate(  # type: ignore[attr-defined]
        "() => [document.querySelector('form.date-control input[name=as_of]').getBoundingClientRect().bottom,"
        " document.querySelector('form.date-control .error').getBoundingClientRect().top]"
    )
    assert 0 <= below[1] - below[0] <= 16  # right under the box
    checked(page, "entry-bad-date")


def test_a_date_typed_in_a_box_is_shown_as_yyyy_mm_dd(browser: object, history_site: str) -> None:
    """Issue 52 item 5: one date rule everywhere. The boxes were the browser's date control, shown
    in the locale's form (mm/dd/yyyy in en-US: typing 2000-10-30 filled its month with 20) while
    the server's messages ask for YYYY-MM-DD; a box now shows and takes YYYY-MM-DD, its label says so."""
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(history_site + "/diff")
    for name, typed in (("from", "2000-10-30"), ("to", "2000-11-27")):
        page.locator(f"form.filters input[name={name}]").fill("")
        page.locator(f"form.filters input[name={name}]").click()
        page.keyboard.type(typed)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "from=2000-10-30&to=2000-11-27" in page.url
    assert page.locator("h1").inner_text() == "Changes from 2000-10-30 to 2000-11-27"
    boxes = page.locator("form.filters input[name=from], form.filters input[name=to]")
    assert boxes.evaluate_all("els => els.map(e => [e.type, e.value, e.placeholder])") == [
        ["text", "2000-10-30", "YYYY-MM-DD"],
        ["text", "2000-11-27", "YYYY-MM-DD"],
    ]
    labels = page.locator("form.filters label").all_inner_texts()
    assert [" ".join(t.split()) for t in labels[:2]] == ["From (YYYY-MM-DD)", "To (YYYY-MM-DD)"]
    page.goto(history_site + "/entry/stccg:commandeering")
    box = page.locator("form.date-control input[name=as_of]")
    box.fill("")
    box.click()
    page.keyboard.type("2000-11-01")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/entry/stccg:commandeering?as_of=2000-11-01")
    assert box.evaluate("e => [e.type, e.value]") == ["text", "2000-11-01"]
    context.close()
