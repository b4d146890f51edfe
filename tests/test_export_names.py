"""Any name makes a safe, bounded file of the export, and the offline copy keeps it (issue 22, item 8):
cards named ``..``, ``X/../../../tmp/escape``, ``Back\\Slash`` or 300 characters long, a control character
in a card file's name; a keeping of the export that failed is tried again; the served app's cache is
named by its build."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from helpers import SEEDS, SHARED
from kb.ingest.pipeline import build
from kb.paths import current
from web.app import create_app
from web.cli.main import main
from web.export.pages import export
from web.export.site import MARKER, NAME_BYTES, file_name, page_file

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HEADER = "Name,Set,ImageFile,Release,Info,Property,Uniqueness,Type,Affil,Persona,Text"
LONG = "Long" * 75
HOSTILE = ["..", "X/../../../tmp/escape", "Back\\Slash", LONG, "100% Sure"]
FILES = {
    "..": "_~5ec1f7e700f37c3d",
    "X/../../../tmp/escape": "X_.._.._.._tmp_escape~c8117c0b40c267c7",
    "Back\\Slash": "Back_Slash~d1254178713d7858",
    LONG: LONG[: NAME_BYTES - 17] + "~dd49e375758d8ab3",
    "100% Sure": "100_ Sure~0db8459589e80881",
}


def test_every_name_maps_to_one_safe_bounded_file_name() -> None:
    for name in ["Nebula", "A Fast Ship Would Be Nice", "stccg:conundrum", "2000-11-27", "Q-Flash", "é" * 100]:
        assert file_name(name) == name  # the names of real pages keep their files
    made = {name: file_name(name) for name in [*HOSTILE, ".", "Nu\x00ll", "a\nb", "é" * 101, "x~0123456789abcdef"]}
    assert {n: made[n] for n in HOSTILE} == FILES
    assert len(set(made.values())) == len(made)
    for name in made.values():
        assert len(name.encode()) <= NAME_BYTES and not name.startswith(".")
        assert not any(c in name for c in "/\\%?#\x00\n")
    assert page_file("/card/X/../../../tmp/escape") == "card/X_.._.._.._tmp_escape~c8117c0b40c267c7"
    assert page_file("/diff", "from=../..&to=2000-01-01") is None


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bundled library built with a card file of hostile names, and its export."""
    work = tmp_path_factory.mktemp("hostile-names")
    cards = work / "hostile.csv"
    rows = [f'"{name}",Premiere,i{n},p,R,,,Personnel,Bajoran,,Card {n}.' for n, name in enumerate(HOSTILE)]
    rows.append("Nu\x01ll,Premiere,nul,p,R,,,Personnel,Bajoran,,Control.")  # (a NUL makes the whole file refused)
    cards.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    report = build(SEEDS, work / "kb", cards)
    assert report.imports[0].rows == 6 and report.imports[0].skipped == 1
    nul = f"{cards}:7: a control character (NUL, tab, line break...) in the card name; row skipped"
    assert nul in report.warnings
    export(work / "kb", work / "host" / "site")
    return work / "kb", work / "host" / "site"


def test_an_export_of_hostile_names_has_one_file_each_inside_it(hostile_site: tuple[Path, Path]) -> None:
    kb_root, site = hostile_site
    outside = sorted(p.name for p in site.parent.parent.iterdir())
    assert outside == ["host", "hostile.csv", "kb"]  # nothing escaped the export (nor /tmp/escape)
    assert not Path("/tmp/escape.html").exists()
    client = create_app({"KB": str(kb_root), "PAGED": False}).test_client()
    cards = json.loads((site / "cards.json").read_text())
    for name, file in FILES.items():
        assert (
            json.loads((site / "card" / f"{file}.json").read_text())
            == client.get("/card/" + quote(name) + ".json").get_json()
        )
        assert cards[next(k for k, v in cards.items() if v[0] == name)] == [name, f"card/{file}"]
    assert sorted(p.name for p in (site / "card").iterdir() if "~" in p.name) == sorted(
        f"{f}{e}" for f in FILES.values() for e in (".html", ".json")
    )
    assert json.loads((site / "files.json").read_text()) == {}  # topics, versions, documents named by their id
    slash = FILES["Back\\Slash"]
    page = (site / "card" / f"{slash}.html").read_text()
    assert f'href="../card/{quote(slash)}.json"' in page


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture()
def host(hostile_site: tuple[Path, Path]) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(hostile_site[1].parent))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/site/"
    server.shutdown()
    server.server_close()


KEPT = "caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()).then(r => r.length))))"


SETTLED = """new Promise(function (settled) {
  var channel = new MessageChannel();
  channel.port1.onmessage = function (event) { settled(event.data.type === "settled"); };
  navigator.serviceWorker.controller.postMessage({ type: "settled" }, [channel.port2]);
})"""
"""True once the service worker has done every keeping asked before (`web/static/sw.js`)."""


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_hostile_names_are_kept_offline_and_a_failed_keeping_is_tried_again(
    hostile_site: tuple[Path, Path], host: str
) -> None:
    from playwright.sync_api import sync_playwright

    site = hostile_site[1]
    files = json.loads((site / "offline.json").read_text())["files"]
    missing = site / "card" / f"{FILES['..']}.json"
    hidden = missing.with_name("hidden")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context()
            page = context.new_page()
            missing.rename(hidden)  # the first keeping fails on it
            page.goto(host + "index.html")
            for _ in range(600):  # (the pages' CSP forbids wait_for_function)
                if page.evaluate("navigator.serviceWorker.controller !== null"):
                    break
                page.wait_for_timeout(200)
            # Every keeping asked so far (the install's, then the page's once the worker was ready) has
            # failed and been removed once the worker says it has settled: no half-kept cache is left,
            # none counts as kept. (Polling for no cache saw the gap between the two keepings.)
            assert page.evaluate(SETTLED) is True
            assert page.evaluate("caches.keys()") == []
            hidden.rename(missing)
            page.reload()  # the page asks the worker to check again
            whole = [len(files) + 2]  # and the start page, and the mark that all were kept
            for _ in range(600):  # while it keeps them again
                if page.evaluate(KEPT) == whole:
                    break
                page.wait_for_timeout(200)
            assert page.evaluate(KEPT) == whole
            context.set_offline(True)
            for name, file in FILES.items():  # never opened online
                page.goto(host + "card/" + quote(file) + ".html")
                assert name in (page.text_content("h1") or ""), name
        finally:
            if hidden.exists():
                hidden.rename(missing)
            browser.close()


def test_the_served_apps_offline_cache_is_named_by_its_build(bundled_root: Path) -> None:
    client = create_app({"KB": str(bundled_root)}).test_client()
    answer = client.get("/offline.json").get_json()
    assert answer == {"build": current(bundled_root).name, "built_on": answer["built_on"], "complete": False,
                      "files": ["static/style.css", "static/cite.js", "static/app.js", "static/pwa.js",
                                "static/manifest.webmanifest", "static/icon.svg"]}  # fmt: skip
    worker = client.get("/static/sw.js")
    assert 'response.type === "basic" && !url.search' in worker.get_data(as_text=True)  # answers to a query not kept
    worker.close()


def test_the_link_header_of_a_hostile_card_has_no_dot_segment(hostile_site: tuple[Path, Path]) -> None:
    client = create_app({"KB": str(hostile_site[0])}).test_client()
    page = client.get("/card/" + quote("X/../../../tmp/escape", safe=""))
    assert page.status_code == 200
    assert (
        page.headers["Link"]
        == '</card/X/%2E%2E/%2E%2E/%2E%2E/tmp/escape.json>; rel="alternate"; type="application/json"'
    )
    twin = client.get("/card/X/%2E%2E/%2E%2E/%2E%2E/tmp/escape.json")
    assert (twin.status_code, twin.get_json()["name"]) == (200, "X/../../../tmp/escape")


def test_exported_pages_carry_the_content_security_policy(hostile_site: tuple[Path, Path]) -> None:
    site = hostile_site[1]
    policy = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
              "base-uri 'none'; form-action 'self'; worker-src 'self'; manifest-src 'self'")  # fmt: skip
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy.replace(chr(39), "&#x27;")}">'
    pages = list(site.rglob("*.html"))
    assert len(pages) > 400
    for page in pages:
        head = page.read_text().split("</head>")[0]
        assert head.startswith(f'<!doctype html>\n<html lang="en">\n<head>\n{meta}\n'), page


def test_a_document_with_a_236_character_file_name_is_exported(tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "library")
    long = tmp_path / f"{'u' * 232}.txt"
    seed = (SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt").read_bytes()
    long.write_bytes(seed.replace(b"Jolan tru", b"Jolan tru!"))  # a copy of the seed is refused
    assert len(long.name) == 236
    kb = tmp_path / "kb"
    assert main(["build", "--library", str(tmp_path / "library"), "--kb", str(kb)]) == 0
    added = ["add", str(long), "--kind", "current-rulings", "--date", "2001-01-01", "--force-contradiction"]
    assert main([*added, "--library", str(tmp_path / "library"), "--kb", str(kb)]) == 0
    report = export(kb, tmp_path / "site")
    ident = f"stccg-{'u' * 232}"
    renamed = json.loads((tmp_path / "site" / "files.json").read_text())
    assert renamed.pop(f"docs/{ident}") == f"docs/{ident[: NAME_BYTES - 17]}~{file_name(ident)[-16:]}"
    assert len(renamed) == 6 and all(k.startswith("version/") and ident in k for k in renamed)  # its new versions
    assert all((tmp_path / "site" / f"{page}.html").is_file() for page in renamed.values())
    names = [p.name for p in (tmp_path / "site").rglob("*")]
    on_disk = [p for p in (tmp_path / "site").rglob("*") if p.is_file() and p.name != MARKER]  # the marker lists them
    assert report["files"] == len(on_disk)
    assert max(len(n.encode()) for n in names) <= NAME_BYTES + len(".html")


QUESTION = "Guess Who's Coming to Dinner?"
PLAIN = "Guess Who's Coming to Dinner"


def test_a_question_mark_in_a_name_is_part_of_its_file(tmp_path: Path) -> None:
    """Issue 36 item 7: the real catalogs hold ``Guess Who's Coming to Dinner?`` (2E) and ``Guess
    Who's Coming to Dinner`` (virtual); the export read the ``?`` as a query, wrote both to one
    file and exited 1. Each now has its own stable file, holding its own page."""
    cards = tmp_path / "dinner.csv"
    rows = [f'"{QUESTION} 2E",ban_2E,q1,NE,R,,,Dilemma,,,Question.', f'"{PLAIN}",Premiere,q2,p,R,,,Incident,,,Plain.']
    cards.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    build(SEEDS, tmp_path / "kb", cards)
    site = tmp_path / "site"
    export(tmp_path / "kb", site)
    assert file_name(QUESTION) == "Guess Who's Coming to Dinner_~9a91338edc7655dc"
    assert file_name(PLAIN) == PLAIN
    client = create_app({"KB": str(tmp_path / "kb"), "PAGED": False}).test_client()
    for name in (QUESTION, PLAIN):
        written = json.loads((site / "card" / f"{file_name(name)}.json").read_text())
        assert written["name"] == name
        assert written == client.get("/card/" + quote(name, safe="") + ".json").get_json()
    assert "Question." in (site / "card" / f"{file_name(QUESTION)}.html").read_text()


REAL_CARDS = [SHARED / "cards" / "Physical.csv", SHARED / "cards" / "Virtual.csv"]


@pytest.mark.skipif(
    not all(p.is_file() for p in REAL_CARDS), reason="../shared/cards/Physical.csv or Virtual.csv is absent"
)
def test_an_export_with_both_real_catalogs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36 item 7: `rulings export` of a knowledge base built with both real catalogs exited 1."""
    build(SEEDS, tmp_path / "kb", REAL_CARDS)
    assert main(["export", str(tmp_path / "site"), "--kb", str(tmp_path / "kb")]) == 0
    dinners = sorted(p.name for p in (tmp_path / "site" / "card").glob("Guess Who*.html"))
    assert dinners == ["Guess Who's Coming to Dinner.html", "Guess Who's Coming to Dinner_~9a91338edc7655dc.html"]
    held = [json.loads((tmp_path / "site" / "card" / n.replace(".html", ".json")).read_text()) for n in dinners]
    assert [(c["name"], c["game"]) for c in held] == [(PLAIN, "stccg"), (QUESTION, "stccg-2e")]
