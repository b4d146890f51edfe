"""What the browser tests share: Debian's chromium as Playwright launches it, the real app
served by waitress on loopback, and the checks a page of the app must pass on a phone."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import waitress
from waitress.channel import HTTPChannel

from web.app import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip
NEEDS_CHROMIUM = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed "
                                    "(.ci/run installs it: apt-get install chromium)")  # fmt: skip
TAP = 44
"""The least width and height of a control, in CSS pixels."""
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=option]')]
  .filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
  .map(e => [e.outerHTML.slice(0, 80), Math.round(e.getBoundingClientRect().width),
             Math.round(e.getBoundingClientRect().height)])
  .filter(([, w, h]) => w < TAP || h < TAP)""".replace("TAP", str(TAP))
"""Script: every visible control smaller than TAP by TAP pixels, as [html, width, height]."""
SEVERE = ("moderate", "serious", "critical")
"""The axe-core impacts a page of the app may not have."""


def serve(kb: Path) -> Iterator[str]:
    """The app on ``kb`` served on a free loopback port, until the generator is closed."""
    server = waitress.create_server(create_app({"KB": str(kb)}), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"

    def stop() -> None:
        """Close every socket of the loop from the loop's own thread: its map empties and the loop
        ends. Closed from this thread, the loop's select() could meet a closed descriptor (EBADF,
        an unhandled exception in the server's thread at a test's teardown, seen under load). A
        connection is closed as waitress closes it (``handle_close``), its buffers with it: a file
        still being sent (``wsgi.file_wrapper``) left open warned, unclosed, at a later test."""
        for channel in list(server._map.values()):
            (channel.handle_close if isinstance(channel, HTTPChannel) else channel.close)()

    try:
        server.trigger.pull_trigger(stop)
    except OSError:  # the loop's trigger already closed (EBADF, once in a full run): close from here
        stop()
    thread.join(10)
    server.task_dispatcher.shutdown()


def launch() -> Iterator[object]:
    """Debian's chromium, headless, for one test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


def opened_at(browser: object, width: int) -> Iterator[object]:
    """A page of a new context ``width`` px wide (800 high), its ``width`` noted on it; closed after
    the test, which fails if a script of the page threw."""
    context = browser.new_context(viewport={"width": width, "height": 800})  # type: ignore[attr-defined]
    opened = context.new_page()
    opened.width = width
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []


def severe_violations(page: object) -> list[tuple[str, str, list[str]]]:
    """Each moderate, serious or critical axe-core violation of the page: rule, impact, the elements' selectors."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], [str(n["target"]) for n in v["nodes"]]) for v in found if v["impact"] in SEVERE]


def open_filters(page: object) -> None:
    """Unfold the search filters where a phone shows them folded into one line."""
    summary = page.locator("#filters > summary")  # type: ignore[attr-defined]
    if summary.is_visible() and not page.locator("#filters select[name=game]").is_visible():  # type: ignore[attr-defined]
        summary.click()
