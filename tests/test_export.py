"""`rulings export`: the static site of the bundled knowledge base, its links, its JSON twins
against the app's answers, byte-identical re-exports, and the export in Debian's chromium,
served by a plain static file server on loopback, used offline through its service worker."""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlencode, urlsplit

import pytest

from kb.paths import current
from web.app import create_app
from web.errors import ExportError
from web.export.pages import export

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LINK = re.compile(r'\s(?:href|src|action|data-sw)="([^"]*)"')
QUERIES = ["chajoh", "Cha'Joh", "can conundrum target a cloaked ship", "comandeering", "USS Dauntless",
           "U.S.S. Dauntless"]  # fmt: skip


@pytest.fixture(scope="module")
def site(bundled_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "site"
    export(bundled_root, out)
    return out


@pytest.fixture(scope="module")
def client(bundled_root: Path) -> Any:
    """The app as the export asks it: long answers whole, not a page at a time."""
    return create_app({"KB": str(bundled_root), "PAGED": False, "EXPORT": True}).test_client()


def app_json(client: Any, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_json()


def test_every_page_has_its_json_twin_equal_to_the_apps_answer(site: Path, client: Any, bundled_root: Path) -> None:
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if p.name != "404.html")
    assert len(pages) == 447
    assert pages[:6] == ["asof/1994-11-01.html", "asof/1996-12-01.html", "asof/2000-11-27.html",
                         "asof/2023-01-01.html", "card/A Fast Ship Would Be Nice.html",
                         "card/A Good Place To Die.html"]  # fmt: skip
    urls = {name: f"/{name}" for name in ("index.json", "deck.json", "docs.json", "diff.json")}
    for page in pages:
        twin = page[: -len(".html")] + ".json"
        assert (site / twin).is_file(), twin
        if page.startswith("diff/"):
            start, end = Path(page).stem.split("_")
            urls[twin] = f"/diff.json?from={start}&to={end}"
        elif "/" in page:
            urls[twin] = "/" + quote(twin)
    for twin, url in urls.items():
        assert json.loads((site / twin).read_bytes()) == app_json(client, url), twin
    kb_build = current(bundled_root).name
    assert json.loads((site / "offline.json").read_text())["build"] == kb_build
    assert f'data-build="{kb_build}"' in (site / "index.html").read_text()


def test_links_are_relative_and_open_a_file_of_the_export(site: Path) -> None:
    checked = 0
    for page in [*site.rglob("*.html"), site / "changes.atom"]:
        for link in LINK.findall(page.read_text()):
            url = urlsplit(html.unescape(link))
            if url.scheme == "data" or not url.path:
                continue
            assert not url.scheme and not url.netloc and not url.path.startswith("/"), (page, link)
            assert (page.parent / unquote(url.path)).resolve().is_file(), (page, link)
            checked += 1
    assert checked > 10_000


def test_nothing_names_the_exporting_machine(site: Path, bundled_root: Path) -> None:
    machine = ["127.0.0.1", "localhost", str(bundled_root), str(site), str(Path.home()), "/tmp/", "/work/",
               str(Path(__file__).resolve().parent.parent)]  # fmt: skip
    for file in site.rglob("*"):
        if file.is_file():
            text = file.read_text()
            assert [m for m in machine if m in text] == [], file


def test_a_second_export_is_byte_identical(site: Path, bundled_root: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    export(bundled_root, again)
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []


def test_the_command_writes_an_export_and_refuses_a_folder_that_is_not_one(bundled_root: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "web.cli", "export"]
    done = subprocess.run([*command, str(tmp_path / "out"), "--kb", str(bundled_root),
                           "--base-url", "https://rules.example/st/"], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("exported 447 pages (")
    feed = (tmp_path / "out" / "changes.atom").read_text()
    assert '<link rel="self" href="https://rules.example/st/changes.atom"/>' in feed
    assert '<link href="https://rules.example/st/docs/nz-rulebook.html"/>' in feed
    again = subprocess.run([*command, str(tmp_path / "out"), "--kb", str(bundled_root)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    refused = subprocess.run([*command, str(tmp_path / "mine"), "--kb", str(bundled_root)], capture_output=True,
                             text=True)  # fmt: skip
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (f"rulings: error: {tmp_path / 'mine'}: exists and is not an export; "
                              "choose an empty or new folder\n")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "out"]
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_the_served_app_is_installable(client: Any) -> None:
    page = client.get("/")
    assert "worker-src 'self'" in page.headers["Content-Security-Policy"]
    assert "manifest-src 'self'" in page.headers["Content-Security-Policy"]
    body = page.get_data(as_text=True)
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in body
    assert '<script src="/static/pwa.js" data-sw="/static/sw.js" defer></script>' in body
    worker = client.get("/static/sw.js")
    assert (worker.status_code, worker.headers["Service-Worker-Allowed"]) == (200, "/")
    worker.close()
    manifest = client.get("/static/manifest.webmanifest")
    assert (json.loads(manifest.get_data())["start_url"], json.loads(manifest.get_data())["scope"]) == ("../", "../")
    manifest.close()


# -- in the browser, offline -------------------------------------------------------------


def wait_until(page: Any, expression: str, tries: int = 600) -> None:
    """Evaluate ``expression`` in the page every 0.2 s until it is true, at most ``tries`` times."""
    for _ in range(tries):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"never true: {expression}")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_host(site: Path) -> Iterator[str]:
    """The export served by Python's plain static file server on loopback, under a base path."""
    holder = site.parent / "host"
    holder.mkdir()
    (holder / "rules").symlink_to(site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(holder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rules/"
    server.shutdown()
    server.server_close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_export_works_offline_in_the_browser(static_host: str, site: Path, client: Any) -> None:
    from playwright.sync_api import sync_playwright

    files = json.loads((site / "offline.json").read_text())["files"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context()
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(static_host)
        wait_until(page, "navigator.serviceWorker.controller !== null")  # the pages' CSP forbids wait_for_function
        kept = (
            "caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()).then(r => r.length))))"
        )
        assert page.evaluate(kept) == [len(files) + 2]  # and the start page, and the mark that all were kept
        assert page.text_content(".build") == "build {} of {}".format(*page.evaluate(
            "fetch('offline.json').then(r => r.json()).then(b => [b.build, b.built_on])"))  # fmt: skip
        context.set_offline(True)

        for query in QUERIES:
            page.goto(static_host + "index.html?q=" + quote(query))
            page.wait_for_selector("#results[data-offline]")
            shown = page.eval_on_selector_all("#results a.headword", "els => els.map(e => e.getAttribute('href'))")
            answer = app_json(client, "/index.json?q=" + quote(query))
            assert unquote(shown[0]) == f"{static_host}entry/{answer['results'][0]['topic']}.html", query
            assert page.text_content("#results .count") == f"{len(shown)} result{'s' * (len(shown) != 1)} for “{query}”"

        page.goto(static_host + "index.html?q=commandeering")  # a partial text says so offline too
        page.wait_for_selector("#results[data-offline]")
        assert page.text_content("#results li:first-child p.partial") == (
            "Partial text: it replaces the second paragraph of the Glossary entry; the rest of that entry is not in"
            " this library."
        )

        for path, url, title in [
            ("entry/stccg:conundrum", "/entry/stccg:conundrum", "Conundrum"),
            ("card/Conundrum", "/card/Conundrum", "Conundrum"),
            ("diff/2000-11-27_2023-01-01", "/diff?from=2000-11-27&to=2023-01-01",
             "Changes from 2000-11-27 to 2023-01-01"),
            ("version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary",
             "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary", "Conundrum Glossary, version 1 of 1"),
        ]:  # fmt: skip
            page.goto(static_host + quote(path) + ".html")
            assert " ".join(page.text_content("h1").split()).startswith(title), path
            offline = page.evaluate(f"fetch({json.dumps(static_host + quote(path) + '.json')}).then(r => r.json())")
            twin = url.replace("?", ".json?") if "?" in url else url + ".json"
            assert offline == app_json(client, twin), path
        page.click("a.cite")  # the cited lines are marked by the page's script once it has loaded: wait for them
        page.wait_for_selector("span.cited")
        assert page.url.endswith("docs/stccg-cr-update-2000-11-27.html?lines=79-83#L79")
        assert page.eval_on_selector_all("span.cited", "els => els.map(e => e.id)") == [f"L{n}" for n in range(79, 84)]

        page.goto(static_host + "deck.html?list=" + quote("2x Conundrum\nNo Such Card"))
        page.wait_for_selector(".deckcard h3 a")
        assert page.text_content("p.count") == "2 cards, 1 distinct known, 1 unknown"
        # The deck page shows each card's rulings as the server's does, and "did you mean" (both were missing).
        listed = "2x Conundrum\nConundrom"
        page.goto(static_host + "deck.html?list=" + quote(listed))
        page.wait_for_selector(".deckcard .part .text")
        served = app_json(client, "/deck.json?list=" + quote(listed))
        shown = page.eval_on_selector_all(".deckcard .part .text", "els => els.map(e => e.textContent)")
        wanted = [p["text"] for c in served["cards"] for e in c["entries"] for p in e["parts"] if p["text"]]
        assert ["".join(t.split()) for t in shown] == ["".join(t.split()) for t in wanted]
        assert served["unknown"][0]["suggestions"][0] == "Conundrum"
        assert " ".join(page.text_content("p.error").split()) == "Unknown card: Conundrom — did you mean Conundrum?"
        # Copy citation is shown offline, its permalink a page of the export.
        page.goto(static_host + quote("entry/stccg:conundrum") + ".html")
        button = page.locator("button.copy-cite").first
        assert button.is_visible()
        permalink = urlsplit(button.get_attribute("data-permalink") or "").path
        assert (site / "entry" / unquote(permalink)).resolve().is_file(), permalink
        # A page the export does not have: its own 404 page, not the browser's error.
        page.goto(static_host + "entry/no-such-entry.html")
        assert (page.text_content("h1"), page.url.split("?")[0]) == ("404", static_host + "404.html")
        assert "This page is not in this export" in page.text_content("p.error")
        page.goto(static_host + "diff.html?from=1994-10-31&to=2023-01-01")
        page.wait_for_selector("p.count[data-offline]")
        assert page.text_content("p.count") == "0 changed, 156 added, 0 rescinded"
        context.close()
        browser.close()
    assert errors == []


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_a_new_build_is_picked_up_when_the_network_returns(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from helpers import SEEDS
    from kb.ingest.pipeline import build

    kb_root, out = tmp_path / "kb", tmp_path / "host" / "site"
    first = build(SEEDS, kb_root).directory.name
    export(kb_root, out)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    home = f"http://127.0.0.1:{server.server_address[1]}/site/index.html"
    kept = "caches.keys()"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            page = context.new_page()
            page.goto(home)
            wait_until(page, "navigator.serviceWorker.controller !== null")  # the pages' CSP forbids wait_for_function
            assert page.evaluate(kept) == [f"rulings-{first}"]
            context.set_offline(True)
            second = build(SEEDS, kb_root).directory.name
            export(kb_root, out)
            page.reload()
            assert page.get_attribute(".build", "data-build") == first
            context.set_offline(False)
            shown = "t => (t.match(/data-build=.(\\w+)/) || [])[1]"
            wait_until(
                page, f"fetch('index.html').then(r => r.text()).then({shown}).then(b => b === '{second}', () => false)"
            )
            page.reload()
            assert page.get_attribute(".build", "data-build") == second
            wait_until(page, f"caches.keys().then(k => k.join() === 'rulings-{second}')")
            kept_page = f"caches.match(new URL('docs.html', location.href).href).then(r => r.text()).then({shown})"
            wait_until(page, f"{kept_page}.then(b => b === '{second}', () => false)")
            context.set_offline(True)
            page.goto(home.replace("index.html", "docs.html"))
            assert page.get_attribute(".build", "data-build") == second
            context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_served_app_keeps_its_pages_offline(bundled_root: Path) -> None:
    import waitress
    from playwright.sync_api import sync_playwright

    server = waitress.create_server(create_app({"KB": str(bundled_root)}), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    site = f"http://127.0.0.1:{server.effective_port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            page = context.new_page()
            page.goto(site + "/")
            wait_until(page, "navigator.serviceWorker.controller !== null")  # the app's CSP forbids wait_for_function
            assert page.evaluate("caches.keys()") == [f"rulings-{current(bundled_root).name}"]  # named by its build
            page.goto(site + "/entry/stccg:conundrum")
            context.set_offline(True)
            page.goto(site + "/entry/stccg:conundrum")
            assert page.text_content("h1") == "Conundrum"
            built_on = (current(bundled_root) / "built_on.txt").read_text().strip()
            assert page.text_content(".build") == f"build {current(bundled_root).name} of {built_on}"
            context.close()
            browser.close()
    finally:
        server.close()


def test_a_large_export_is_kept_offline_by_its_shell_and_each_page_once_opened(
    bundled_root: Path, tmp_path: Path
) -> None:
    export(bundled_root, tmp_path / "site", keep_whole=100)
    kept = json.loads((tmp_path / "site" / "offline.json").read_text())
    assert kept["complete"] is False
    assert [f for f in kept["files"] if not f.startswith("static/")] == [
        "404.html", "cards.json", "changes.atom", "dates.json", "deck.html", "deck.json", "diff.html", "diff.json",
        "docs.html", "docs.json", "files.json", "index.html", "index.json", "search-index.json", "sw.js"]  # fmt: skip


# -- the diff between any two dates, in the browser ----------------------------------------

SHOWN = """() => Object.fromEntries([...document.querySelectorAll('main h2')].map(h => [h.textContent.toLowerCase(),
    [...h.nextElementSibling.querySelectorAll('a')].map(a => decodeURIComponent(new URL(a.href).pathname))]))"""
BUNDLED_PAIRS = [("1994-10-31", "2023-01-01"), ("1995-06-01", "2000-12-25"), ("2000-11-27", "2000-11-27")]
HISTORY_PAIRS = [("2000-08-01", "2001-01-29"), ("2000-10-30", "2000-12-21"), ("2000-12-18", "2001-01-28"),
                 ("2000-11-30", "2001-02-01"), ("1999-01-01", "2000-11-02")]  # fmt: skip


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_diff_page_compares_any_two_dates_in_the_browser(
    static_host: str, client: Any, history_root: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    export(history_root, tmp_path / "site")
    assert json.loads((tmp_path / "site" / "dates.json").read_text()) == [
        "2000-08-01", "2000-10-30", "2000-11-27", "2000-12-18", "2000-12-25", "2001-01-29"]  # fmt: skip
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    history_host = f"http://127.0.0.1:{server.server_address[1]}/site/"
    history_client = create_app({"KB": str(history_root)}).test_client()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            checked: list[list[int]] = []
            sites = [(static_host, client, BUNDLED_PAIRS), (history_host, history_client, HISTORY_PAIRS)]
            for host, app, pairs in sites:
                for start, end in pairs:
                    page.goto(host + "diff.html?" + urlencode({"from": start, "to": end}))
                    page.wait_for_selector("p.count[data-offline]")
                    answer = app_json(app, f"/diff.json?from={start}&to={end}")
                    shown = page.evaluate(SHOWN)
                    for kind in ("added", "changed", "rescinded"):
                        topics = [unquote(urlsplit(host).path) + f"entry/{i['topic']}.html" for i in answer[kind]]
                        assert shown[kind] == topics, (start, end, kind)
                    counts = [len(answer[k]) for k in ("added", "changed", "rescinded")]
                    checked.append(counts)
                    assert page.text_content("p.count") == "{1} changed, {0} added, {2} rescinded".format(*counts)
                    jumps = page.eval_on_selector_all("p.count a", "els => els.map(e => e.getAttribute('href'))")
                    assert jumps == [f"#{k}" for k in ("changed", "added", "rescinded") if answer[k]]
                    assert page.text_content("h1") == f"Changes from {start} to {end}"
                    assert "Pending rulings are not counted here" in page.text_content("p.note")
            page.goto(history_host + "diff.html?from=2001-01-29&to=2000-08-01")
            page.wait_for_selector("p.error[data-offline]")
            assert page.text_content("p.error") == "FROM 2001-01-29 is after TO 2000-08-01; give the earlier date first"
            assert history_client.get("/diff?from=2001-01-29&to=2000-08-01").status_code == 400
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert errors == []
    assert checked == [[156, 0, 0], [90, 0, 0], [0, 0, 0], [3, 7, 1], [40, 11, 0], [0, 0, 1], [0, 6, 40], [12, 0, 0]]


def test_a_folder_is_replaced_only_when_it_holds_nothing_but_an_earlier_export(
    site: Path, bundled_root: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "offline.json").write_text('{"build": "mine"}')
    (mine / "important.txt").write_text("keep me")
    with pytest.raises(ExportError) as refused:
        export(bundled_root, mine)
    assert str(refused.value) == f"{mine}: exists and is not an export; choose an empty or new folder"
    assert sorted(p.name for p in mine.iterdir()) == ["important.txt", "offline.json"]
    assert (mine / "important.txt").read_text() == "keep me"
    earlier = tmp_path / "earlier"
    shutil.copytree(site, earlier)
    (earlier / "card" / "notes.txt").write_text("mine too")
    with pytest.raises(ExportError) as refused:
        export(bundled_root, earlier)
    assert (
        str(refused.value)
        == f"{earlier}: holds card/notes.txt, which no export wrote; move it away or choose another folder"
    )
    assert (earlier / "card" / "notes.txt").read_text() == "mine too"
    (earlier / "card" / "notes.txt").unlink()
    export(bundled_root, earlier)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["earlier", "mine"]
    written = sorted(p.relative_to(earlier).as_posix() for p in earlier.rglob("*") if p.is_file())
    assert json.loads((earlier / ".rulings-export").read_text()) == {
        "files": [name for name in written if name != ".rulings-export"],
        "written by": "rulings export",
    }
