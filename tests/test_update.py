"""``rulings follow`` and ``rulings update`` against a publisher served from 127.0.0.1 (never the
internet): Magic's real releases from ``../shared/mtg-cr`` (skipped without them), one linked
first, then the next two; a second update that downloads nothing; and each way a source can fail
(an HTML error page where a ``.txt`` was linked, HTTP 404, a truncated download, a download that
never ends, one too large, a text of another kind, a dead port), each changing nothing of the
library or the knowledge base."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from helpers import ROOT, SHARED
from rulings.errors import ManifestError
from rulings.manifest import MANIFEST, load_manifest, load_sources
from web.app import create_app
from web.cli.main import main

RELEASES = SHARED / "mtg-cr"
releases = pytest.mark.skipif(not RELEASES.is_dir(), reason="../shared/mtg-cr (the real releases) is absent")
FIRST, SECOND, THIRD = "MagicCompRules-20170825.txt", "MagicCompRules-20180713.txt", "MagicCompRules-20190712.txt"


class Publisher(SimpleHTTPRequestHandler):
    """Files of a folder, as a publisher serves them (``Last-Modified``, 304 on ``If-Modified-Since``),
    with three faulty addresses: ``/cut/...`` announces more bytes than it sends, ``/big/...`` more than
    a document may hold, ``/slow/...`` never ends."""

    asked: list[tuple[str, int]]

    def do_GET(self) -> None:
        if self.path.startswith("/cut/"):
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"1. Game Concepts\n" * 10)
            self.wfile.flush()
            self.asked.append((self.path, 200))
            return
        if self.path.startswith("/big/"):  # more than any document: refused before its body is read
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "8000001")
            self.end_headers()
            self.asked.append((self.path, 200))
            return
        if self.path.startswith("/slow/"):
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"100.1. A line\n")
            self.wfile.flush()
            time.sleep(3)  # longer than the update's --timeout 1
            with contextlib.suppress(OSError):  # the client has given up
                self.wfile.write(b"100.2. Another line\n")
            self.asked.append((self.path, 200))
            return
        super().do_GET()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if not self.path.startswith(("/cut/", "/big/", "/slow/")):
            self.asked.append((self.path, int(code)))

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def publisher(tmp_path: Path) -> Iterator[tuple[str, Path, list[tuple[str, int]]]]:
    site = tmp_path / "site"
    site.mkdir()
    asked: list[tuple[str, int]] = []
    handler = type("Handler", (Publisher,), {"asked": asked})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", site, asked
    finally:
        server.shutdown()
        server.server_close()


def _page(site: Path, *targets: str) -> None:
    """The rules page, linking ``targets`` (relative addresses), and each real release it names."""
    links = "".join(f'<li><a href="{t}">{t}</a></li>' for t in targets)
    (site / "rules.html").write_text(f"<!doctype html><html><body><ul>{links}</ul></body></html>", encoding="utf-8")
    for target in targets:
        if (RELEASES / target).is_file() and not (site / target).exists():
            (site / target).write_bytes((RELEASES / target).read_bytes())


def _run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def _dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@releases
def test_update_brings_each_new_release_then_nothing(
    publisher: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, site, asked = publisher
    library, kb = tmp_path / "library", tmp_path / "kb"
    _page(site, FIRST)
    status, out, _ = _run("follow", "mtg", "--library", str(library), "--url", f"{base}/rules.html", capsys=capsys)
    assert status == 0 and "follows mtg comprehensive-rules" in out
    assert [(s.game, s.kind, s.url) for s in load_sources(library)] == [
        ("mtg", "comprehensive-rules", f"{base}/rules.html")
    ]

    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), "--json", capsys=capsys)
    assert status == 0, err
    first = json.loads(out)["sources"][0]
    assert first["error"] is None
    assert [(a["id"], a["date"], a["url"]) for a in first["added"]] == [
        ("mtg-magiccomprules-20170825", "2017-08-25", f"{base}/{FIRST}")
    ]
    assert first["added"][0]["changes"] == {"added": 2901, "changed": 0, "rescinded": 0}  # its rules and terms

    _page(site, FIRST, SECOND, THIRD)
    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), capsys=capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"mtg comprehensive-rules {base}/rules.html"
    assert [line.split(":")[0] for line in lines[1:]] == [
        "  + mtg-magiccomprules-20180713 (2018-07-13)",
        "  + mtg-magiccomprules-20190712 (2019-07-12)",
    ]
    documents = load_manifest(library)
    assert [(d.id, d.url, d.date and d.date.isoformat()) for d in documents][1:] == [
        ("mtg-magiccomprules-20180713", f"{base}/{SECOND}", "2018-07-13"),
        ("mtg-magiccomprules-20190712", f"{base}/{THIRD}", "2019-07-12"),
    ]
    assert sorted(p.name for p in (library / "mtg").iterdir()) == [FIRST, SECOND, THIRD]

    asked.clear()
    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), capsys=capsys)
    assert (status, out.splitlines()[1:], err) == (0, ["  nothing new"], "")
    assert asked == [("/rules.html", 304)]  # the page unchanged: nothing downloaded

    client = create_app({"KB": str(kb), "TESTING": True}).test_client()
    home = client.get("/?game=mtg").get_data(as_text=True)
    assert (
        "Current release of mtg: Magic: The Gathering Comprehensive Rules of 2019-07-12 · "
        '<a href="/diff?document=mtg-magiccomprules-20190712">what it changed</a>'
    ) in home
    assert "mtg-magiccomprules-20190712" in client.get("/changes.atom").get_data(as_text=True)

    status, out, _ = _run("games", "--library", str(library), "--kb", str(kb), "--json", capsys=capsys)
    game = json.loads(out)["games"][0]
    assert (game["game"], game["documents"], game["current"]["date"]) == ("mtg", 3, "2019-07-12")
    assert game["sources"] == [
        {"url": f"{base}/rules.html", "kind": "comprehensive-rules", "title": game["sources"][0]["title"]}
    ]


@releases
@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("MagicCompRules-20200601.txt", "an HTML page came where a .txt document was linked"),
        ("MagicCompRules-20990101.txt", "HTTP 404"),
        ("cut/MagicCompRules-20200601.txt", "truncated"),
        ("slow/MagicCompRules-20200601.txt", "timed out after 1 s"),
        ("big/MagicCompRules-20200601.txt", "8,000,001 bytes announced, more than the 8,000,000 read"),
        ("MagicCompRules-20001127.txt", "its text reads as current-rulings-update, not comprehensive-rules"),
    ],
)
def test_a_source_that_cannot_be_read_changes_nothing(
    publisher: tuple[str, Path, list[tuple[str, int]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    target: str,
    reason: str,
) -> None:
    """Nothing is added, the manifest keeps its bytes, no knowledge base is built. Behind an HTML
    error page, the page links a good release first: it is not added either (a source's documents
    are all read before any is added)."""
    base, site, _ = publisher
    library, kb = tmp_path / "library", tmp_path / "kb"
    (site / "MagicCompRules-20200601.txt").write_text(
        "<!DOCTYPE html><html><body>Page not found</body></html>", encoding="utf-8"
    )
    update = (ROOT / "data" / "stccg" / "current-rulings-update-2000-11-27.txt").read_bytes()
    (site / "MagicCompRules-20001127.txt").write_bytes(update)  # a document of another kind
    _page(site, *([FIRST] if "HTML" in reason else []), target)
    _run("follow", "mtg", "--library", str(library), "--url", f"{base}/rules.html", capsys=capsys)
    manifest = (library / MANIFEST).read_bytes()
    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), "--timeout", "1", capsys=capsys)
    assert status == 1
    assert err.count("\n") == 1 and err.startswith(f"rulings: error: {base}/{target}: {reason}"), err
    assert "Traceback" not in err and "not read" in out
    assert (library / MANIFEST).read_bytes() == manifest
    assert sorted(p.name for p in library.rglob("*")) == [MANIFEST]
    assert not (kb / "current").exists()
    again = _run("update", "--library", str(library), "--kb", str(kb), "--timeout", "1", capsys=capsys)
    assert again[0] == 1  # the page's validators were not kept: the failed source is read again


@releases
def test_a_dead_port_is_one_line_and_the_other_sources_are_read(
    publisher: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, site, _ = publisher
    library, kb = tmp_path / "library", tmp_path / "kb"
    dead = f"http://127.0.0.1:{_dead_port()}/rules.html"
    _page(site, FIRST)
    _run("follow", "mtg", "--library", str(library), "--url", dead, capsys=capsys)
    _run("follow", "mtg", "--library", str(library), "--url", f"{base}/rules.html", capsys=capsys)
    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), "--json", capsys=capsys)
    assert status == 1
    assert err == f"rulings: error: {dead}: connection refused\n"
    rows = json.loads(out)["sources"]
    assert [(r["url"], r["error"], len(r["added"])) for r in rows] == [
        (dead, f"{dead}: connection refused", 0),
        (f"{base}/rules.html", None, 1),
    ]


@releases
def test_the_same_text_under_a_new_name_is_not_new(
    publisher: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, site, _ = publisher
    library, kb = tmp_path / "library", tmp_path / "kb"
    _page(site, FIRST)
    _run("follow", "mtg", "--library", str(library), "--url", f"{base}/rules.html", capsys=capsys)
    _run("update", "--library", str(library), "--kb", str(kb), capsys=capsys)
    (site / "MagicCompRules-copy.txt").write_bytes((RELEASES / FIRST).read_bytes().replace(b"\r\n", b"\n"))
    _page(site, FIRST, "MagicCompRules-copy.txt")
    status, out, err = _run("update", "--library", str(library), "--kb", str(kb), capsys=capsys)
    assert (status, out.splitlines()[1:], err) == (0, ["  nothing new"], "")
    assert len(load_manifest(library)) == 1


def test_a_misspelt_source_key_is_refused_with_its_line(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).write_text(
        '[[source]]\ngame = "mtg"\nkind = "comprehensive-rules"\nurl = "http://127.0.0.1/"\nlinkz = "x"\n',
        encoding="utf-8",
    )
    with pytest.raises(ManifestError, match=r"\[\[source\]\] #1: unknown key 'linkz' on line 5; did you mean 'links'"):
        load_manifest(tmp_path)


def test_following_the_bundled_library_or_an_unknown_game_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("follow", "mtg", "--library", "data", capsys=capsys)[2].startswith(
        "rulings: error: data: the bundled library is part of the program"
    )
    err = _run("follow", "chess", "--library", str(tmp_path), capsys=capsys)[2]
    assert err == (
        "rulings: error: no sources known for the game 'chess' (known: lorcana, mtg, stccg, vtes); "
        "add a [[source]] table by hand\n"
    )


def test_in_a_checkout_the_commands_read_the_knowledge_base_make_run_built(tmp_path: Path) -> None:
    """``make run`` builds ``instance/kb`` of the checkout; ``.venv/bin/rulings search ship`` reads it there."""
    code = "from kb.paths import DEFAULT_KB; print(DEFAULT_KB)"
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_KB"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout == f"{ROOT / 'instance' / 'kb'}\n"


def test_the_readmes_first_screen_says_how_to_follow_a_game() -> None:
    first_screen = (ROOT / "README.md").read_text(encoding="utf-8").split("---")[0]
    assert "rulings follow mtg --library ~/rules" in first_screen
    assert "rulings update --library ~/rules" in first_screen
    assert all(game in first_screen for game in ("Magic", "Lorcana", "VTES"))


def test_ctrl_c_during_a_download_leaves_nothing_half_written(
    publisher: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, site, asked = publisher
    library, kb = tmp_path / "library", tmp_path / "kb"
    _page(site, "slow/MagicCompRules-20200601.txt")
    _run("follow", "mtg", "--library", str(library), "--url", f"{base}/rules.html", capsys=capsys)
    manifest = (library / MANIFEST).read_bytes()
    command = [sys.executable, "-m", "web.cli", "update", "--library", str(library), "--kb", str(kb)]
    running = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    # (a test run in a shell's background ignores SIGINT, and so would the command without it)
    for _ in range(300):  # the page read, the document's download begun (the server sends one line, then waits)
        if any(path == "/rules.html" for path, _ in asked):
            break
        time.sleep(0.05)
    time.sleep(0.5)
    running.send_signal(signal.SIGINT)
    out, err = running.communicate(timeout=60)
    assert (running.returncode, out, err) == (130, "", "rulings: interrupted; nothing half-written was left\n")
    assert (library / MANIFEST).read_bytes() == manifest
    assert sorted(p.name for p in library.rglob("*")) == [MANIFEST]
    assert not (kb / "current").exists()
