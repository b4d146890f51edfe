"""Issue 36 item 7, in Debian's chromium at 360 and 1280 px: the installed app, offline, says on a
search page that search needs the saved copy (it showed a blank page), and its footer offers one
"Save for offline" that says while it saves and names the build once kept; a page never opened,
offline, is the worker's own page saying it was not saved (it was "This site can't be reached")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsing import NEEDS_CHROMIUM, launch, serve, severe_violations
from kb.paths import current

pytestmark = NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def site(bundled_root: Path) -> Iterator[str]:
    yield from serve(bundled_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def context(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    opened = browser.new_context(viewport={"width": request.param, "height": 740})
    yield opened
    opened.close()


def until(page: Any, expression: str) -> None:
    for _ in range(100):  # the app's CSP forbids wait_for_function
        if page.evaluate(expression):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {expression}")


def test_offline_search_says_it_needs_the_saved_copy(context: Any, site: str, bundled_root: Path) -> None:
    page = context.new_page()
    page.goto(site + "/")
    until(page, "navigator.serviceWorker.controller !== null")
    build = current(bundled_root).name
    page.click("footer button")
    until(page, "document.querySelector('footer .saved').textContent.startsWith('Ready')")
    assert page.text_content("footer .saved") == f"Ready offline: build {build}"
    assert page.text_content("footer button") == "Save again"  # not "Save for offline" beside "Ready offline"
    page.goto(site + "/?q=conundrum")  # online, the answer itself: no notice
    assert page.locator("#offline-search").count() == 0
    assert page.locator("#results li").count() > 0
    context.set_offline(True)  # the browser may still say it is online: the page is told by its copy
    page.goto(site + "/?q=conundrum")
    assert page.text_content("#offline-search") == (
        "offline: search needs the saved copy (the exported site, which searches in the browser); "
        "pages saved for offline still open."
    )
    box = page.locator("#offline-search").bounding_box()
    assert box["y"] + box["height"] <= 740  # on the first screen


def test_offline_a_page_never_opened_says_it_was_not_saved(context: Any, site: str, bundled_root: Path) -> None:
    page = context.new_page()
    page.goto(site + "/")
    until(page, "navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    opened = page.goto(site + "/entry/stccg:mission-attempt")  # was the browser's "This site can't be reached"
    assert opened is not None and opened.status == 503
    assert page.text_content("#offline-page") == "offline: this page was not saved; search needs the saved copy."
    box = page.locator("#offline-page").bounding_box()
    assert box["y"] + box["height"] <= 740  # on the first screen
    assert page.evaluate("getComputedStyle(document.body).margin") == "0px"  # the app's style sheet, kept
    page.click("main a")  # the search page, kept when the app was installed
    assert page.url == site + "/"
    page.go_back()
    save = page.locator("footer button")
    assert save.inner_text() in ("Save for offline", "Save again")  # "again" once the worker says it kept all
    assert page.text_content("footer .build") == f"build {current(bundled_root).name}"
    save.click()
    until(page, "document.querySelector('footer .saved').textContent.startsWith('Saving needs')")
    assert page.text_content("footer .saved") == "Saving needs the network: save once back online."
    assert severe_violations(page) == []
    context.set_offline(False)
    page.reload()
    assert page.text_content("h1") == "mission attempt"
