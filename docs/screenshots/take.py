"""Take the README's screenshots: pages of the bundled library on a 360 px phone, light and dark.

Run from the repository root: .venv/bin/python docs/screenshots/take.py (needs Debian's chromium)."""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

import waitress
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.ingest.pipeline import build  # noqa: E402
from web.app import create_app  # noqa: E402

OUT = Path(__file__).resolve().parent


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        build(ROOT / "data", Path(work) / "kb")
        server = waitress.create_server(create_app({"KB": str(Path(work) / "kb")}), host="127.0.0.1", port=0)
        threading.Thread(target=server.run, daemon=True).start()
        site = f"http://127.0.0.1:{server.effective_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for scheme in ("light", "dark"):
                page = browser.new_context(viewport={"width": 360, "height": 640}, color_scheme=scheme).new_page()
                page.goto(site + "/?q=ship")
                page.fill("#q", "conund")
                page.wait_for_selector("#suggestions [role=option]")
                page.wait_for_function("() => document.getElementById('results').dataset.query === 'conund'")
                page.keyboard.press("ArrowDown")
                page.screenshot(path=str(OUT / f"search-{scheme}.png"))
                page.goto(site + "/entry/stccg:conundrum")
                page.screenshot(path=str(OUT / f"entry-{scheme}.png"))
                page.goto(site + "/docs/stccg-cr-update-2000-11-27?lines=79-83#L79")
                page.screenshot(path=str(OUT / f"cited-lines-{scheme}.png"))
            browser.close()
        server.close()


if __name__ == "__main__":
    main()
