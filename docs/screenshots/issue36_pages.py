"""Take the screenshots of issue 36 items 4, 6 and 7 (docs/screenshots/issue36-*.png): the first
screen a judge sees at 360 and 1280 px of a search, a deck, a card, two cards, an export opened
from a folder and the installed app offline, on the bundled library.

Run from the repository root: .venv/bin/python docs/screenshots/issue36_pages.py (needs Debian's chromium)."""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

import waitress
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.ingest.pipeline import build  # noqa: E402
from web.app import create_app  # noqa: E402
from web.export.pages import export  # noqa: E402

OUT = Path(__file__).resolve().parent
DECK = "Stop First Contact\n2x Hero of the Empire\nNebula\nI.K.C. K'Vort"
PAGES = {
    "search": "/?q=mission+attempt&game=stccg",
    "deck": "/deck?list=" + quote(DECK),
    "card": "/card/Nebula",
    "two-cards": "/cards?names=" + quote("A Fast Ship Would Be Nice,commandeering"),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        kb = Path(work) / "kb"
        build(ROOT / "data", kb)
        export(kb, Path(work) / "site")
        server = waitress.create_server(create_app({"KB": str(kb)}), host="127.0.0.1", port=0)
        threading.Thread(target=server.run, daemon=True).start()
        site = f"http://127.0.0.1:{server.effective_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for width in (360, 1280):
                context = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 800})
                page = context.new_page()
                for name, url in PAGES.items():
                    page.goto(site + url)
                    page.screenshot(path=str(OUT / f"issue36-{name}-{width}.png"))
                page.goto((Path(work) / "site" / "index.html").as_uri())
                page.screenshot(path=str(OUT / f"issue36-export-folder-{width}.png"))
                page.goto(site + "/")
                page.wait_for_timeout(1500)
                page.click("footer button")
                page.wait_for_timeout(1500)
                context.set_offline(True)
                page.goto(site + "/?q=conundrum")
                page.screenshot(path=str(OUT / f"issue36-offline-{width}.png"))
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                page.screenshot(path=str(OUT / f"issue36-offline-saved-{width}.png"))
                context.close()
            browser.close()
        server.close()


def small() -> None:
    """Item 8 and the rest of item 7 (issue36-8-*.png, issue36-7-not-saved-*.png): a word diff back
    from the 11/27/00 Conundrum to Glossary 1.7's (one paragraph, the removed break marked ¶), an
    entry's compare menu on a phone, the warnings, notes and notices in both schemes, and a page
    never opened, offline. Run: .venv/bin/python docs/screenshots/issue36_pages.py small"""
    import shutil

    from kb.paths import current
    from kb.query import KnowledgeBase

    with tempfile.TemporaryDirectory() as work:
        library, bundled, history = Path(work) / "library", Path(work) / "kb", Path(work) / "history"
        build(ROOT / "data", bundled)
        shutil.copytree(ROOT / "tests" / "fixtures" / "library", library)
        shutil.copy(ROOT / "data" / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
        build(library, history)
        sites = {}
        for name, kb in (("bundled", bundled), ("history", history)):
            server = waitress.create_server(create_app({"KB": str(kb)}), host="127.0.0.1", port=0)
            threading.Thread(target=server.run, daemon=True).start()
            sites[name] = f"http://127.0.0.1:{server.effective_port}"
        versions = sorted(v.id for v in KnowledgeBase(current(history)).versions_of("stccg:conundrum"))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for width in (360, 1280):
                phone = {"is_mobile": True, "has_touch": True} if width == 360 else {}
                for scheme in ("light", "dark"):
                    context = browser.new_context(
                        viewport={"width": width, "height": 740 if width == 360 else 800}, color_scheme=scheme, **phone
                    )
                    page = context.new_page()
                    page.goto(sites["bundled"] + "/entry/stccg:chajoh?as_of=2000-12-01")
                    page.locator("p.partial").scroll_into_view_if_needed()
                    page.screenshot(path=str(OUT / f"issue36-8-messages-{scheme}-{width}.png"))
                    if scheme == "light":
                        page.goto(sites["history"] + f"/entry/stccg:conundrum?a={versions[1]}&b={versions[0]}#compare")
                        page.screenshot(path=str(OUT / f"issue36-8-diff-{width}.png"))
                        page.goto(sites["bundled"] + "/entry/stccg:chajoh")
                        page.locator("form.compare").scroll_into_view_if_needed()
                        page.screenshot(path=str(OUT / f"issue36-8-compare-{width}.png"))
                        page.goto(sites["bundled"] + "/")
                        page.wait_for_timeout(1500)
                        context.set_offline(True)
                        page.goto(sites["bundled"] + "/entry/stccg:mission-attempt")
                        page.screenshot(path=str(OUT / f"issue36-7-not-saved-{width}.png"))
                    context.close()
            browser.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["small"]:
        small()
    else:
        main()
