"""Every answer the CLI and the web give over the bundled library, dumped to a folder, to check
that a refactoring changes no byte of them.

Run: ``.venv/bin/python bench/dump_answers.py OUT [--kb DIR]``. It builds ``data/`` into a
temporary knowledge base (or reads ``--kb``), then writes to ``OUT``: the ``--json`` output of
the answering commands (show, blame, history, diff, card, cards, deck, search, docs) for a sample
of topics, cards and dates; the web pages and their ``.json`` twins of the same, through Flask's
test client; and a static export (`rulings export`). Two runs (before and after a change)
compare with ``diff -r OUT1 OUT2``. Dates are fixed, and "today" is the day of the run, so
compare two runs of one day.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.ingest.pipeline import build  # noqa: E402
from kb.paths import current  # noqa: E402
from web.app import create_app  # noqa: E402
from web.cli.main import main  # noqa: E402

DATES = ["1996-06-01", "1999-01-01", "2001-06-01"]
SEARCHES = ["ship", "away team", "dilemma -ship", "mis* attempt", "seed kind:ruling", "conundrum", "battle bridge"]


def cli(out: Path, name: str, argv: list[str]) -> None:
    """One command's standard output, error and exit status, to ``out/cli/name``."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            status = main(argv)
        except SystemExit as err:
            status = err.code if isinstance(err.code, int) else 1
    (out / "cli" / name).write_text(f"{status}\n{stdout.getvalue()}\n--\n{stderr.getvalue()}", encoding="utf-8")


def web(out: Path, client: object, name: str, url: str) -> None:
    """One response's status, type and body, to ``out/web/name``."""
    response = client.get(url)  # type: ignore[attr-defined]
    head = f"{response.status_code} {response.content_type}\n".encode()
    (out / "web" / name).write_bytes(head + response.get_data())


def dump(out: Path, kb: Path) -> int:
    """Write every answer; the number of files written."""
    for part in ("cli", "web"):
        (out / part).mkdir(parents=True, exist_ok=True)
    store = sqlite3.connect(current(kb) / "kb.sqlite")
    topics = [row[0] for row in store.execute("SELECT id FROM topics ORDER BY id")]
    topics = topics[:: max(1, len(topics) // 40)]
    cards = [row[0] for row in store.execute("SELECT name FROM cards ORDER BY key")]
    cards = cards[:: max(1, len(cards) // 15)]
    versions = [row[0] for row in store.execute("SELECT id FROM versions ORDER BY id")]
    versions = versions[:: max(1, len(versions) // 30)]
    documents = [row[0] for row in store.execute("SELECT id FROM documents ORDER BY id")]
    store.close()
    base = ["--kb", str(kb), "--json"]
    deck = out / "deck.txt"
    deck.write_text("\n".join(["2 " + c for c in cards[:6]] + ["1 No Such Card"]) + "\n", encoding="utf-8")
    for i, topic in enumerate(topics):
        cli(out, f"show-{i}", ["show", topic, *base])
        cli(out, f"history-{i}", ["history", topic, *base])
        cli(out, f"blame-{i}", ["blame", topic, *base])
        for date in DATES:
            cli(out, f"show-{i}-{date}", ["show", topic, "--as-of", date, *base])
    cli(out, "show-unknown", ["show", "Conundrom", *base])
    for i, card in enumerate(cards):
        cli(out, f"card-{i}", ["card", card, *base])
    cli(out, "cards-pair", ["cards", cards[0], cards[1], *base])
    cli(out, "deck", ["deck", str(deck), *base])
    cli(out, "diff-latest", ["diff", *base])
    for a, b in itertools.pairwise(DATES):
        cli(out, f"diff-{a}-{b}", ["diff", a, b, *base])
        cli(out, f"diff-{a}-{b}-deck", ["diff", a, b, "--deck", str(deck), *base])
    for date in DATES:
        cli(out, f"docs-{date}", ["docs", "--as-of", date, *base])
    for i, text in enumerate(SEARCHES):
        cli(out, f"search-{i}", ["search", text, *base])
        cli(out, f"search-{i}-all", ["search", text, "--all", *base])
        cli(out, f"search-{i}-{DATES[1]}", ["search", text, "--as-of", DATES[1], *base])
    client = create_app({"KB": str(kb), "TESTING": True}).test_client()
    pages: list[tuple[str, str]] = [("home", "/"), ("docs", "/docs"), ("diff", "/diff"), ("feed", "/changes.atom")]
    pages += [("offline", "/offline.json"), ("complete", "/complete.json?q=co"), ("cards", "/cards")]
    for i, topic in enumerate(topics):
        pages += [(f"entry-{i}", f"/entry/{quote(topic)}"), (f"sources-{i}", f"/sources/{quote(topic)}")]
        pages += [(f"entry-{i}-{DATES[1]}", f"/entry/{quote(topic)}?as_of={DATES[1]}")]
    pages += [("entry-compare", f"/entry/{quote(topics[0])}?a={versions[0]}&b={versions[1]}")]
    for v in versions:
        pages += [(f"version-{v}", f"/version/{v}"), (f"version-{v}-{DATES[0]}", f"/version/{v}?as_of={DATES[0]}")]
    pages += [("version-missing", "/version/999999999")]
    for i, card in enumerate(cards):
        pages += [(f"card-{i}", f"/card/{quote(card)}")]
    for date in DATES:
        pages += [(f"asof-{date}", f"/asof/{date}"), (f"diff-{date}", f"/diff?from={DATES[0]}&to={date}")]
        pages += [(f"docs-{date}", f"/docs?as_of={date}")]
    for document in documents:
        pages += [(f"doc-{document}", f"/docs/{quote(document)}")]
    for i, text in enumerate(SEARCHES):
        pages += [(f"search-{i}", f"/?q={quote(text)}"), (f"search-{i}-all", f"/?q={quote(text)}&all=1")]
    for name, url in pages:
        web(out, client, name + ".html", url)
        if not url.endswith((".json", ".atom")):
            path, _, query = url.partition("?")
            twin = "/index.json" if path == "/" else path + ".json"
            web(out, client, name + ".json", twin + ("?" + query if query else ""))
    cli(out, "export", ["export", str(out / "export"), "--kb", str(kb)])
    deck.unlink()
    return sum(1 for p in out.rglob("*") if p.is_file())


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--kb", type=Path)
    arguments = parser.parse_args()
    if arguments.out.exists():
        shutil.rmtree(arguments.out)
    with tempfile.TemporaryDirectory() as work:
        kb = arguments.kb or Path(work) / "kb"
        if arguments.kb is None:
            build(ROOT / "data", kb)
        print(f"{dump(arguments.out, kb)} files in {arguments.out}")
        # the paths of the run (the knowledge base's, the folder's) are not part of an answer
        for path in arguments.out.rglob("*"):
            if path.is_file() and path.suffix in ("", ".html", ".json"):
                with contextlib.suppress(UnicodeDecodeError):
                    text = path.read_text(encoding="utf-8")
                    path.write_text(text.replace(str(kb), "KB").replace(str(arguments.out), "OUT"), encoding="utf-8")


if __name__ == "__main__":
    run()
