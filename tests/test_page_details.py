"""Issue 36 item 8, in Debian's chromium at 360 and 1280 px: a word diff breaks paragraphs only
where the new text does; no page is wider than a 360 px phone (the compare menu made it 387 px);
the "press /" hint only where a keyboard is likely; warnings, notes and notices each their own
style, with an icon, at 6:1 or more in the light and the dark scheme."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsing import NEEDS_CHROMIUM, launch, serve
from web.cli.main import main

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


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
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    context = browser.new_context(**(PHONE if request.param == 360 else DESKTOP))
    opened = context.new_page()
    opened.width = request.param
    yield opened
    context.close()


# -- a word diff: a sentence of the new text is never split by a break only the old text had -----

KEPT = """() => [...document.querySelectorAll('#compare .diff p')].map(p => {
  const copy = p.cloneNode(true);
  copy.querySelectorAll('del').forEach(d => d.remove());
  return copy.textContent.replace(/\\s+/g, ' ').trim();
})"""
"""Script: each paragraph of the word diff as the new text reads (the removed words left out)."""


@NEEDS_CHROMIUM
def test_a_removed_paragraph_break_does_not_split_the_new_sentence(page: Any, history_site: str) -> None:
    versions = page.request.get(history_site + "/entry/stccg:conundrum.json").json()["versions"]
    glossary, update = versions[0]["version"], versions[1]["version"]  # Glossary 1.7, as of 11/27/00
    # back from the 11/27/00 text (two paragraphs) to Glossary 1.7's one sentence
    page.goto(history_site + f"/entry/stccg:conundrum?a={update}&b={glossary}#compare")
    assert page.evaluate(KEPT) == ["When you fail this dilemma, your ship attacks any target."]
    assert "\n" not in page.inner_text("#compare .diff")  # one paragraph on the screen too (pre-wrap split it)
    removed = page.locator("#compare .diff del").all_inner_texts()
    assert "join the battle. ¶ You may not target a cloaked" in removed[1]  # the break it removed, marked
    # forward: the break the 11/27/00 text added is a paragraph of its own
    page.goto(history_site + f"/entry/stccg:conundrum?a={glossary}&b={update}#compare")
    kept = page.evaluate(KEPT)
    assert [p[:26] for p in kept] == ["When you fail to overcome ", "You may not target a cloak"]
    assert " ".join(kept) == " ".join(versions[1]["text"].split())


def test_the_cli_marks_a_removed_paragraph_break_within_the_removed_words(
    history_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "tribble", "--kb", str(history_root)]) == 0
    shown = capsys.readouterr().out.split("upon release of Fixture Expansion B")[1].splitlines()[2:]
    assert "" not in shown  # one paragraph: the removed break no longer splits "…of those" / "Bred tribble cards"
    assert "    Tribbles card does not leave play. ¶ You may not report or breed tribbles at your" in shown


# -- a 360 px phone scrolls down only -----------------------------------------------------------

WIDE = {
    "entry": "/entry/stccg:chajoh",  # its compare menu made the page 387 px wide
    "search": "/?q=conundrum",
    "card": "/card/Cha'Joh",
    "diff": "/diff",
}
HISTORY_WIDE = {"entry-history": "/entry/stccg:mission-attempt", "diff-history": "/diff?from=2000-10-30&to=2000-11-27"}


@NEEDS_CHROMIUM
@pytest.mark.parametrize("name", [*WIDE, *HISTORY_WIDE])
def test_no_page_is_wider_than_the_phone(browser: Any, site: str, history_site: str, name: str) -> None:
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto((history_site + HISTORY_WIDE[name]) if name in HISTORY_WIDE else (site + WIDE[name]))
    assert phone.evaluate("document.documentElement.scrollWidth") == 360
    assert phone.evaluate("(n => n.scrollWidth - n.clientWidth)(document.querySelector('header nav'))") == 0
    if name.startswith("entry"):
        assert phone.locator("form.compare select").first.bounding_box()["width"] <= 336
    context.close()


# -- "press /" where a keyboard is likely, not on a phone ----------------------------------------


@NEEDS_CHROMIUM
def test_the_keyboard_hint_only_where_a_keyboard_is_likely(page: Any, site: str) -> None:
    page.goto(site + "/?q=conundrum")
    assert page.get_attribute("#q", "placeholder") == "Search rulings"  # was "Search rulings (press /)"
    hint = page.locator("header .key-hint")
    if page.width == 360:  # a phone: a touch screen, no hover
        assert not hint.is_visible()
    else:
        assert hint.is_visible() and hint.inner_text() == "press /"
        page.keyboard.press("/")
        assert page.evaluate("document.activeElement.id") == "q"


# -- warnings, notes and notices: each its own colour and icon, 6:1 or more -----------------------

MESSAGES = """() => Object.fromEntries(['p.partial', 'p.gives-way', 'p.note', 'p.banner'].map(s => {
  const e = document.querySelector(s), own = getComputedStyle(e), icon = getComputedStyle(e, '::before');
  const link = e.querySelector('a');
  return [s, {background: own.backgroundColor, text: own.color, edge: own.borderLeftColor, icon: icon.content,
              iconColour: icon.color, link: link ? getComputedStyle(link).color : null}];
}))"""
"""Script: the colours and the icon of the first warning (partial, gives way), note and notice."""


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG 2) of a computed colour, ``rgb(r, g, b)``."""
    channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@NEEDS_CHROMIUM
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_warnings_notes_and_notices_each_have_their_own_style(page: Any, site: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(site + "/entry/stccg:chajoh?as_of=2000-12-01")  # a partial text that gives way, a note, the date
    found = page.evaluate(MESSAGES)
    warning, note, notice = found["p.partial"], found["p.note"], found["p.banner"]
    assert found["p.gives-way"] == {**warning, "link": found["p.gives-way"]["link"]}  # both warnings alike
    assert len({warning["background"], note["background"], notice["background"]}) == 3  # was one pale yellow
    assert len({warning["edge"], note["edge"], notice["edge"]}) == 3
    icons = ["\u26a0\ufe0e", "\u2139\ufe0e", "\u2691\ufe0e"]  # a warning sign, an information sign, a flag
    assert [m["icon"] for m in (warning, note, notice)] == [f'"{i}" / ""' for i in icons]  # not colour alone
    for name, shown in found.items():
        for colour in (shown["text"], shown["iconColour"], shown["edge"], shown["link"]):
            if colour:
                assert contrast(colour, shown["background"]) >= 6, (name, colour, shown["background"])
