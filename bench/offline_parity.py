"""Offline search as the server searches: how often the export's search (``static/offline_search.js``
after ``offline_words.js`` and ``offline_index.js``, over ``search-index.json``, run by node)
gives the top three results the server gives.

For each query of the relevance sets the server's answer (`KnowledgeBase.search`, the versions in
force) and the export's are compared, result by result (version ids): the top three equal, the
first equal. Run:

    .venv/bin/python bench/offline_parity.py [SET.toml ...] [--kb KB]

with no ``--kb``, the bundled library ``data/`` is built into a temporary directory; the export
is written there too. Needs node (Debian's ``nodejs``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import given_or_built, set_options  # noqa: E402
from relevance import SETS, read_set  # noqa: E402

NODE = shutil.which("node") or shutil.which("nodejs")
SEARCH_JS = tuple(ROOT / "web" / "static" / f"offline_{name}.js" for name in ("words", "index", "search"))
"""The export's search, its files in the order the export's pages run them (``static/offline.js``)."""
DRIVER = """
const fs = require("fs");
global.window = {};
const files = process.argv.slice(1, -1);
files.forEach(function (file) { require(file); });
const engine = window.RulingsSearch;
const index = new engine.Index(JSON.parse(fs.readFileSync(process.argv[process.argv.length - 1], "utf8")));
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const out = queries.map(function (q) {  // a query, or [query, game]
  const asked = typeof q === "string" ? [q, ""] : q;
  return engine.ask(index, asked[0], { limit: 10, game: asked[1] }).hits.map(function (h) { return h.doc.id; });
});
process.stdout.write(JSON.stringify(out));
"""


@dataclass
class Compared:
    """One query: the server's versions and the export's, best first."""

    query: str
    server: list[int]
    offline: list[int]

    @property
    def same_top3(self) -> bool:
        return self.server[:3] == self.offline[:3]

    @property
    def same_top1(self) -> bool:
        return self.server[:1] == self.offline[:1]


def offline_answers(site: Path, queries: list[str], game: str | None = None) -> list[list[int]]:
    """The version ids the export in ``site`` answers each query with (node running its search;
    within ``game``, as a judge picks it first)."""
    if NODE is None:
        raise RuntimeError("node is not installed")
    done = subprocess.run(
        [NODE, "-e", DRIVER, *map(str, SEARCH_JS), str(site / "search-index.json")],
        input=json.dumps([[q, game] for q in queries] if game else queries),
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    answers: list[list[int]] = json.loads(done.stdout)
    return answers


def compare(kb_root: Path, site: Path, queries: list[str], game: str | None = None) -> list[Compared]:
    """The server's answer and the export's to each query (within ``game``: None, every game); the
    server's ranked by words alone, as the export ranks (it has no sentence encoder)."""
    from kb.paths import current
    from kb.query import KnowledgeBase

    with KnowledgeBase(current(kb_root)) as kb:
        answers = [kb.search(q, game=game, limit=10, meaning=False) for q in queries]
    server = [[hit["version"] for hit in answer["results"]] for answer in answers]
    offline = offline_answers(site, queries, game)
    return [Compared(q, s, o) for q, s, o in zip(queries, server, offline, strict=True)]


def report(name: str, compared: list[Compared]) -> None:
    count = len(compared) or 1
    top3 = sum(c.same_top3 for c in compared) / count
    top1 = sum(c.same_top1 for c in compared) / count
    print(f"{name}: {len(compared)} queries, top 3 the same {top3:.3f}, top 1 the same {top1:.3f}")
    for c in compared:
        if not c.same_top3:
            print(f"  differs: {c.query!r}: server {c.server[:3]}, offline {c.offline[:3]}")


def main() -> int:
    args = set_options(__doc__.splitlines()[0], SETS).parse_args()
    from web.export.pages import export

    with tempfile.TemporaryDirectory() as work:
        kb = given_or_built(args.kb, Path(work))
        export(kb, Path(work) / "site")
        everything: list[Compared] = []
        for path in args.sets:
            compared = compare(kb, Path(work) / "site", [str(q["q"]) for q in read_set(path)])
            report(path.name, compared)
            everything += compared
        report("all", everything) if len(args.sets) > 1 else None
    return 0


if __name__ == "__main__":
    sys.exit(main())
