"""The diffs and feeds of a knowledge base dumped to a folder, to check that a change to how
they are found changes no byte of them (issue 48: the diff of a period made cheap).

Run: ``.venv/bin/python bench/dump_diffs.py OUT --kb KB``; two runs (before and after a change)
compare with ``diff -r OUT1 OUT2``. Through the real Flask app (`web.app.create_app`), in this
order: the diff of each of a sample of consecutive document dates and of wider ranges, as JSON
and HTML, with each kind filter, each game, a deck of cards (``deck=``), small and large pages
(``size=``, ``offset=``), what one document changed (``document=``), the latest document's,
and the Atom feed; then the CLI's ``diff --json`` of a few ranges. Each answer is written with
its status and type (the build's name replaced by ``BUILD``: two builds of one library compare
equal); the CPU seconds each took are printed, not written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import re
import sqlite3
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dump_answers import cli  # noqa: E402

from kb.paths import current  # noqa: E402
from web.app import create_app  # noqa: E402

KINDS = ("current-rulings", "glossary", "rulebook")
BUILD_NAME = re.compile(rb"\b\d{8}T\d{12}\b")
"""A build's name (its time), in the pages' footer: replaced, so that two builds of one library compare."""


def urls(kb: Path) -> list[str]:
    """The diff and feed requests dumped, from the knowledge base's dates, games, cards and documents."""
    with sqlite3.connect(f"file:{current(kb) / 'kb.sqlite'}?mode=ro", uri=True) as db:
        dates = [r[0] for r in db.execute("SELECT DISTINCT date FROM documents WHERE date IS NOT NULL ORDER BY 1")]
        games = [r[0] for r in db.execute("SELECT DISTINCT game FROM documents ORDER BY 1")]
        cards = [r[0] for r in db.execute("SELECT name FROM cards ORDER BY key")]
        documents = [r[0] for r in db.execute("SELECT id FROM documents WHERE date IS NOT NULL ORDER BY date, id")]
    periods = list(itertools.pairwise(dates))
    step = max(1, len(periods) // 10)
    chosen = periods[::step][:10] + periods[-2:]
    wide = [(dates[0], dates[len(dates) // 2]), (dates[len(dates) // 3], dates[-1]), ("1990-01-01", dates[-1])]
    for date in dates[:: max(1, len(dates) // 6)][:6]:  # a day before to the day; a day to 40 days after
        day = dt.date.fromisoformat(date)
        wide += [((day - dt.timedelta(days=1)).isoformat(), date), (date, (day + dt.timedelta(days=40)).isoformat())]
    asked: list[str] = ["/diff.json", "/diff"]
    for start, end in chosen + wide:
        asked += [f"/diff.json?from={start}&to={end}", f"/diff?from={start}&to={end}"]
    start, end = chosen[len(chosen) // 2]
    for kind in KINDS:
        asked.append(f"/diff.json?from={start}&to={end}&kind={kind}")
    for game in games:
        asked.append(f"/diff.json?from={dates[0]}&to={dates[-1]}&game={game}")
    deck = "\n".join(cards[:: max(1, len(cards) // 40)][:40])
    for start, end in (chosen[0], chosen[-1], wide[1]):
        asked.append(f"/diff.json?from={start}&to={end}&" + urlencode({"deck": deck}))
    for start, end in (chosen[1], wide[0]):
        for size, offset in ((1, 0), (7, 3), (1000, 0), (100, 100)):
            asked.append(f"/diff.json?from={start}&to={end}&size={size}&offset={offset}")
    for document in documents[:: max(1, len(documents) // 6)][:6]:
        asked.append("/diff.json?" + urlencode({"document": document}))
    asked += ["/changes.atom", "/changes.atom"]
    return asked


def dump(out: Path, kb: Path) -> int:
    """Write every answer; the number written."""
    out.mkdir(parents=True, exist_ok=True)
    client = create_app({"KB": str(kb), "TESTING": True}).test_client()
    asked = urls(kb)
    for number, url in enumerate(asked):
        began = time.thread_time()
        response = client.get(url)
        spent = time.thread_time() - began
        head = f"{url}\n{response.status_code} {response.content_type}\n".encode()
        (out / f"web-{number:03}").write_bytes(head + BUILD_NAME.sub(b"BUILD", response.get_data()))
        print(f"{spent:7.3f} s  {url[:110]}")
    dates = [u.split("from=")[1].split("&to=") for u in asked if u.startswith("/diff.json?from=")][:4]
    for number, (start, end) in enumerate(dates):
        (out / "cli").mkdir(exist_ok=True)
        cli(out, f"cli-{number}", ["diff", start, end.split("&")[0], "--kb", str(kb), "--json"])
    return len(asked) + len(dates)


def run() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("out", type=Path)
    options.add_argument("--kb", type=Path, required=True)
    arguments = options.parse_args()
    print(f"{dump(arguments.out, arguments.kb)} answers written to {arguments.out}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
