"""Benchmark: `rulings add` of an update that spells a card with a curly apostrophe, against a full build (issue 37).

Run: ``.venv/bin/python bench/add_spelling.py ROOT [--work DIR] [--build]``, ROOT a folder
`bench/fresh_queries.py WORKDIR` made for one profile (``ROOT/library``, ``ROOT/kb``). Copies
both into ``--work`` (a temporary directory by default), writes a Current Rulings Update dated
the month after the last document restating 25 rulings in force with one sentence changed, and
among them a ruling headed by a card title with an apostrophe that heads earlier versions, the
apostrophe written curly (``B’iJik`` for ``B'iJik``: the same card to the linker), and runs
``rulings add`` on it in a child process. Prints the add's wall and CPU seconds (user + system)
and peak resident MB, and whether it was made from the previous build or was a full build (and
why); with ``--build``, a full ``rulings build`` of the library as it then is, timed alike.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import month_after, rulings_in_force, update_text  # noqa: E402

RULINGS = [sys.executable, "-m", "web.cli"]


def timed(command: list[str], code: Path = ROOT) -> tuple[float, float, float, str]:
    """Wall and CPU seconds, peak resident MB and output of ``command``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=code)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, after.ru_maxrss / 1024, done.stdout


def write_update(kb: Path, out: Path) -> tuple[str, str]:
    """The update (see the module) written to ``out``; its date and the curly spelling."""
    from kb.paths import current

    store = current(kb) / "kb.sqlite"
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        rows = rulings_in_force(db)
        last = max(d for (d,) in db.execute("SELECT date FROM documents WHERE date IS NOT NULL"))
        titles = {name for (name,) in db.execute("SELECT name FROM cards WHERE name LIKE '%''%'")}
    headed = [(h, t) for h, t in rows if h in titles]
    if not headed:
        raise SystemExit(f"{store}: no ruling in force is headed by a card title with an apostrophe")
    card, text = headed[0]
    curly = card.replace("'", "\u2019")
    chosen = [r for r in rows[:: max(1, len(rows) // 24)][:24] if r[0] != card] + [(curly, text)]
    when = month_after(dt.date.fromisoformat(last))
    out.write_text(update_text(when, chosen, f"This is clarified in the update of {when.isoformat()}."))
    return when.isoformat(), curly


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("root", type=Path, help="a folder fresh_queries.py made (ROOT/library, ROOT/kb)")
    options.add_argument(
        "--work", type=Path, help="copy the library and knowledge base here (default: a temporary one)"
    )
    options.add_argument("--build", action="store_true", help="also time a full build of the library with the update")
    options.add_argument(
        "--code", type=Path, default=ROOT, help="the checkout whose `rulings` to run (default this one)"
    )
    arguments = options.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = arguments.work or Path(scratch)
        shutil.copytree(arguments.root / "library", work / "library")
        shutil.copytree(arguments.root / "kb", work / "kb", symlinks=True)
        draft = work / "update.txt"
        date, curly = write_update(work / "kb", draft)
        update = draft.rename(work / f"current-rulings-update-{date}.txt")
        add = [*RULINGS, "add", str(update), "--kind", "current-rulings-update", "--date", date,
               "--library", str(work / "library"), "--kb", str(work / "kb")]  # fmt: skip
        wall, cpu, peak, said = timed(add, arguments.code)
        how = re.search(r"\(a full build: (.*)\)", said)
        print(f"rulings add of an update with {curly!r}: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB; "
              + (f"a full build: {how[1]}" if how else "made from the previous build"))  # fmt: skip
        if arguments.build:
            wall, cpu, peak, _ = timed([*RULINGS, "build", "--library", str(work / "library"),
                                        "--kb", str(work / "full")], arguments.code)  # fmt: skip
            print(f"rulings build of the same library: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
