"""Search relevance on a set of judge and player queries: success@1, success@3, MRR, the misses.

Each query of ``bench/relevance.toml`` lists the entries (topic ids) that answer it. A query
succeeds at k when one of them is among the first k distinct entries `rulings search --json`
returns; its reciprocal rank is 1/rank of the first answer (0 beyond the first ten). A set whose
queries also list ``pooled`` answers (found by a second blind assessor among the rules several
rankings returned) is scored twice: with the answers as written, then with the pooled ones too.
Run:

    .venv/bin/python bench/relevance.py [SET.toml ...] [--kb KB]

with no ``--kb``, the bundled library ``data/`` is built into a temporary directory.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import given_or_built, set_options  # noqa: E402

SETS = [ROOT / "bench" / "relevance.toml"]


@dataclass
class Outcome:
    """One query's answer: the entries returned (distinct, in order) and the expected ones."""

    query: str
    kind: str
    expected: list[str]
    returned: list[str]
    pooled: tuple[str, ...] = ()

    @property
    def rank(self) -> int | None:
        """1-based rank of the first expected entry, or None."""
        return next((i for i, topic in enumerate(self.returned, start=1) if topic in self.expected), None)

    def with_pooled(self) -> Outcome:
        """The same outcome, the pooled answers counted as expected."""
        return Outcome(self.query, self.kind, [*self.expected, *self.pooled], self.returned)


def read_set(path: Path) -> list[dict[str, object]]:
    """The queries of a relevance file; a file naming a ``game`` (``game = "mtg"``, as a judge
    picks the game before searching its rules) gives it to each of its queries."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    queries: list[dict[str, object]] = data["query"]
    return [{"game": data.get("game", "any"), **q} for q in queries]


def ask(kb: Path, text: str, game: str = "any") -> list[str]:
    """The distinct topics ``rulings search --json`` returns for ``text`` (in ``game``: "any", every
    game, as the STCCG sets span two), in order."""
    from web.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["search", text, "--kb", str(kb), "--json", "--limit", "10", "--game", game])
    return list(dict.fromkeys(hit["topic"] for hit in json.loads(out.getvalue())["results"]))


def evaluate(kb: Path, queries: list[dict[str, object]]) -> list[Outcome]:
    """Every query's outcome against the knowledge base under ``kb``."""
    return [
        Outcome(
            str(q["q"]),
            str(q.get("type", "")),
            list(q["answers"]),  # type: ignore[call-overload]
            ask(kb, str(q["q"]), str(q["game"])),
            tuple(q.get("pooled", ())),  # type: ignore[arg-type]
        )
        for q in queries
    ]


def scores(outcomes: list[Outcome]) -> dict[str, float]:
    """success@1, success@3 and MRR."""
    count = len(outcomes) or 1
    return {
        "success@1": sum(o.rank == 1 for o in outcomes) / count,
        "success@3": sum(o.rank is not None and o.rank <= 3 for o in outcomes) / count,
        "mrr": sum(1 / o.rank for o in outcomes if o.rank) / count,
    }


def report(name: str, outcomes: list[Outcome]) -> None:
    """Print the scores and the queries whose answer is not in the top three."""
    s = scores(outcomes)
    print(f"{name}: {len(outcomes)} queries, success@1 {s['success@1']:.3f}, success@3 {s['success@3']:.3f}, "
          f"MRR {s['mrr']:.3f}")  # fmt: skip
    for o in outcomes:
        if o.rank is None or o.rank > 3:
            print(f"  miss ({o.kind}, rank {o.rank or '-'}): {o.query!r} wants {o.expected[0]}; got {o.returned[:3]}")
    if any(o.pooled for o in outcomes):
        s = scores([o.with_pooled() for o in outcomes])
        print(f"{name} with pooled answers: success@1 {s['success@1']:.3f}, success@3 {s['success@3']:.3f}, "
              f"MRR {s['mrr']:.3f}")  # fmt: skip


def main() -> int:
    args = set_options(__doc__.splitlines()[0], SETS).parse_args()
    with tempfile.TemporaryDirectory() as work:
        kb = given_or_built(args.kb, Path(work))
        for path in args.sets:
            report(path.name, evaluate(kb, read_set(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
