"""Single-bit flips in a knowledge base's store: how many change an answer silently.

Run: ``.venv/bin/python bench/store_flips.py [--kb KB] [--flips 40] [--seed 48]``. Copies the
build in service of KB (default: the bundled library ``data/`` built into a temporary
directory), then for each flip: a fresh copy whose ``kb.sqlite`` has one bit flipped at a
random offset, opened and asked every answer `probes` lists (each topic shown, each document's
page, each card, the whole diff, a few searches). A flip is *refused* when an answer is the
one-line error of a damaged knowledge base (`kb.errors.Damaged`, a 503 on the web), *silent*
when some answer differs from the undamaged copy's with no error, *harmless* when every answer
is the same, and *crashed* when an answer raised anything else. Prints each flip's offset and
outcome, then the counts. ``--unchecked`` first removes the copy's ``checksums.json``, as a
build made before they were kept (`kb.checksums`): what the store's own checks catch alone.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.checksums import CHECKSUMS  # noqa: E402
from kb.errors import Damaged  # noqa: E402
from kb.ingest.pipeline import build  # noqa: E402
from kb.paths import DB_NAME, current  # noqa: E402
from kb.query import KnowledgeBase  # noqa: E402

SEARCHES = ("conundrum target", "damaged ship", "mission", "Cha'Joh", "away team")


def probes(directory: Path) -> dict[str, Callable[[KnowledgeBase], Any]]:
    """The answers asked of each copy, by name, listed from the undamaged store."""
    with closing(sqlite3.connect(f"file:{directory / DB_NAME}?mode=ro", uri=True)) as db:
        topics = [t for (t,) in db.execute("SELECT id FROM topics ORDER BY id")]
        documents = [d for (d,) in db.execute("SELECT id FROM documents ORDER BY id")]
        cards = [n for (n,) in db.execute("SELECT name FROM cards ORDER BY key")]
    asked: dict[str, Callable[[KnowledgeBase], Any]] = {}
    for topic in topics:
        asked[f"show {topic}"] = lambda kb, t=topic: kb.show(t, game=None)
        asked[f"history {topic}"] = lambda kb, t=topic: kb.history(t, game=None)
    for document in documents:
        asked[f"docs {document}"] = lambda kb, d=document: kb.document_page(d)
    for name in cards:
        asked[f"card {name}"] = lambda kb, n=name: kb.card(n, game=None)
    asked["diff"] = lambda kb: kb.diff(*kb.latest_range()[:2])
    for text in SEARCHES:
        asked[f"search {text}"] = lambda kb, q=text: kb.search(q, limit=10)
    return asked


def answers(directory: Path, asked: dict[str, Callable[[KnowledgeBase], Any]]) -> tuple[str, dict[str, str]]:
    """How the copy in ``directory`` answered: ``ok``, ``refused`` (the first `Damaged` line) or
    ``crashed`` (another error), and each answer as JSON."""
    got: dict[str, str] = {}
    try:
        with KnowledgeBase(directory) as kb:
            for name, ask in asked.items():
                got[name] = json.dumps(ask(kb), sort_keys=True, default=str)
    except Damaged as err:
        return f"refused: {err}", got
    except Exception as err:  # what the bench counts: anything but the damaged store's line
        return f"crashed: {type(err).__name__}: {err}", got
    return "ok", got


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kb", type=Path, help="a knowledge base (default: the bundled library, built)")
    parser.add_argument("--flips", type=int, default=40)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--unchecked", action="store_true", help="remove the build's checksums.json first")
    args = parser.parse_args(arguments)
    work = Path(tempfile.mkdtemp(prefix="store-flips-"))
    try:
        kb = args.kb or build(ROOT / "data", work / "kb").directory.parent.parent
        pristine = current(kb)
        asked = probes(pristine)
        status, want = answers(pristine, asked)
        assert status == "ok", status
        size = (pristine / DB_NAME).stat().st_size
        chance = random.Random(args.seed)
        counts = {"harmless": 0, "silent": 0, "refused": 0, "crashed": 0}
        for flip in range(args.flips):
            offset, bit = chance.randrange(size), chance.randrange(8)
            copy = work / f"flip-{flip}"
            shutil.copytree(pristine, copy)
            if args.unchecked:
                (copy / CHECKSUMS).unlink()
            with (copy / DB_NAME).open("r+b") as file:
                file.seek(offset)
                byte = file.read(1)[0]
                file.seek(offset)
                file.write(bytes([byte ^ (1 << bit)]))
            status, got = answers(copy, asked)
            if status == "ok":
                differ = [name for name in asked if got.get(name) != want[name]]
                outcome = f"silent: {len(differ)} answers differ, e.g. {differ[0]}" if differ else "harmless"
            else:
                outcome = status
            counts[outcome.split(":")[0]] += 1
            print(f"flip {flip + 1:>2} at byte {offset:>8} bit {bit}: {outcome[:160]}")
            shutil.rmtree(copy)
        print(f"{args.flips} flips in {pristine / DB_NAME} ({size} bytes), {len(asked)} answers each: "
              + ", ".join(f"{n} {k}" for k, n in counts.items()))  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
