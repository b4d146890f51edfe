"""No comma or date orphaned on a line of its own (issue 52 item 6): on the diff and documents
pages at 360 px in Debian's chromium, no line of a paragraph, list item or heading begins with a
comma or closing punctuation, and no date is cut at one of its hyphens; at 1280 px too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browsing import NEEDS_CHROMIUM, SMALL_TARGETS, launch, opened_at, serve, severe_violations

pytestmark = NEEDS_CHROMIUM
LINES = r"""() => {
  // Each rendered line of each paragraph, list item and heading of the page's main part, as
  // [tag, its text, the block's lines], for the lines that begin with punctuation or end a
  // date cut at a hyphen.
  const out = [];
  for (const block of document.querySelectorAll('main p, main li, main h1, main h2, main summary')) {
    const lines = new Map();
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      let up = node.parentElement, nested = false;
      for (; up && up !== block; up = up.parentElement) {
        if (['LI', 'P', 'UL', 'OL', 'DIV'].includes(up.tagName)) { nested = true; }
      }
      if (nested) { continue; }
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) { const top = Math.round(rect.top); lines.set(top, (lines.get(top) || '') + node.data[i]); }
      }
    }
    const shown = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1].trim()).filter(Boolean);
    shown.forEach((line, i) => {
      if ((i > 0 && /^[,;:.)]/.test(line)) || /\d{4}-(\d{2}-)?$/.test(line)) {
        out.push([block.tagName, line, shown.join(' | ')]);
      }
    });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(bundled_root: Path) -> Iterator[str]:
    yield from serve(bundled_root)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch()


@pytest.fixture(params=[360, 1280], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    yield from opened_at(browser, request.param)


@pytest.mark.parametrize("path", ["/diff", "/diff?from=2000-01-01&to=2001-01-01", "/docs", "/docs?as_of=2001-01-01"])
def test_no_comma_or_date_alone_on_a_line(page: object, site: str, path: str) -> None:
    page.goto(site + path)  # type: ignore[attr-defined]
    assert page.evaluate(LINES) == []  # type: ignore[attr-defined]
    assert page.evaluate(SMALL_TARGETS) == []  # type: ignore[attr-defined]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.width  # type: ignore[attr-defined]
    assert severe_violations(page) == []
