"""Take the screenshots of issue 36 item 5, dates (docs/screenshots/issue36-5-*.png): at 360 and
1280 px, an entry as of a date with its date control and later versions, a date that is not one
given back beside its box, and the diff of what one document changed (Changed first, its counts
jumping to their sections), on the test library of a Glossary, two Current Rulings and two
updates (tests/fixtures/library with data/'s 11/27/00 update).

Run from the repository root: .venv/bin/python docs/screenshots/issue36_dates.py (needs Debian's chromium)."""

from __future__ import annotations

import shutil
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
PAGES = {
    "entry-date": "/entry/stccg:commandeering?as_of=2000-11-01",
    "bad-date": "/entry/stccg:commandeering?as_of=262000-12-17",
    "diff-document": "/diff?document=cr-update-2000-12-18",
}


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        library = Path(work) / "library"
        shutil.copytree(ROOT / "tests" / "fixtures" / "library", library)
        shutil.copy(ROOT / "data" / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
        build(library, Path(work) / "kb")
        server = waitress.create_server(create_app({"KB": str(Path(work) / "kb")}), host="127.0.0.1", port=0)
        threading.Thread(target=server.run, daemon=True).start()
        site = f"http://127.0.0.1:{server.effective_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for width in (360, 1280):
                context = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 800})
                page = context.new_page()
                for name, url in PAGES.items():
                    page.goto(site + url)
                    page.screenshot(path=str(OUT / f"issue36-5-{name}-{width}.png"))
                context.close()
            browser.close()
        server.close()


if __name__ == "__main__":
    main()
