"""Every page type checked by axe-core (shipped by the axe-playwright-python package) in Debian's
chromium: on a phone (360 px) and a desktop (1280 px), in the light and the dark colour scheme,
with no moderate, serious or critical violation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from browsing import NEEDS_CHROMIUM, launch, serve, severe_violations

pytestmark = NEEDS_CHROMIUM
VERSION = "stccg:conundrum@stccg-cr-update-2000-11-27@glossary"
PAGES = {
    "search": "/?q=conundrum",
    "search-empty": "/",
    "entry": "/entry/stccg:conundrum",
    "version": "/version/" + quote(VERSION),
    "card": "/card/Nebula",
    "deck": "/deck?list=" + quote("2x Nebula\nConundrum\nNo Such Card"),
    "docs": "/docs",
    "sources": "/sources/stccg:conundrum",
    "document": "/docs/stccg-cr-update-2000-11-27?lines=79-83#L79",
    "asof": "/asof/2000-11-27",
    "error-404": "/entry/no-such-topic",
    "search-governing": "/?q=how+many+seed+cards&game=stccg",
    "search-heading": "/?q=setup",
    "entry-partial": "/entry/stccg:chajoh",
    "two-cards": "/cards?names=" + quote("Stop First Contact,Hero of the Empire"),
    "two-cards-term": "/cards?names=" + quote("A Fast Ship Would Be Nice,commandeering"),
    "deck-shared": "/deck?list=" + quote("Stop First Contact\n2x Hero of the Empire\nNebula\nI.K.C. K'Vort"),
    "search-whole": "/?q=mission+attempt&game=stccg",
}
HISTORY_PAGES = {
    "diff": "/diff?from=2000-10-30&to=2000-11-27",
    "entry-compare": "/entry/stccg:mission-attempt",
    "asof-history": "/docs?as_of=2000-11-01",
    "diff-latest": "/diff",
}


@pytest.fixture(scope="module")
def sites(bundled_root: Path, history_root: Path) -> Iterator[dict[str, str]]:
    bundled, history = serve(bundled_root), serve(history_root)
    yield {"bundled": next(bundled), "history": next(history)}
    bundled.close()
    history.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(scope="module", params=[(360, "light"), (360, "dark"), (1280, "light"), (1280, "dark")],
                ids=["phone-light", "phone-dark", "desktop-light", "desktop-dark"])  # fmt: skip
def viewer(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    """One page, reused by every check of one width and colour scheme."""
    width, scheme = request.param
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)  # type: ignore[attr-defined]
    opened = context.new_page()
    opened.scheme = scheme
    yield opened
    context.close()


@pytest.mark.parametrize("name", [*PAGES, *HISTORY_PAGES])
def test_no_moderate_or_worse_violation(viewer: object, sites: dict[str, str], name: str) -> None:
    site = sites["history"] if name in HISTORY_PAGES else sites["bundled"]
    viewer.goto(site + {**PAGES, **HISTORY_PAGES}[name])  # type: ignore[attr-defined]
    dark = viewer.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")  # type: ignore[attr-defined]
    assert dark == (viewer.scheme == "dark")  # type: ignore[attr-defined]
    assert severe_violations(viewer) == []


def test_no_moderate_or_worse_violation_with_suggestions_open(viewer: object, sites: dict[str, str]) -> None:
    viewer.goto(sites["bundled"] + "/?q=ship")  # type: ignore[attr-defined]
    viewer.fill("#q", "conund")  # type: ignore[attr-defined]
    viewer.wait_for_selector("#suggestions [role=option]")  # type: ignore[attr-defined]
    viewer.keyboard.press("ArrowDown")  # type: ignore[attr-defined]
    assert severe_violations(viewer) == []
