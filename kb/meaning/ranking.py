"""A question's answers re-ranked by meaning as well as by words.

The words' ranking finds the candidates (the first `POOL`); each gets a second rank, its place
among every numbered rule of the game in force by the cosine of its vector to the question's
(`kb.meaning.vectors`). The two are fused by reciprocal rank, ``1/(K + rank)`` each, the meaning's
counting within its first `DEPTH` only; a candidate without a vector (a Glossary entry) gets its
words' share alone; ties keep the words' order. Measured on the relevance sets of Magic's and
Lorcana's Comprehensive Rules (docs/search.md): "can I see the cards in my opponent's hand" puts
Lorcana's 7.3.2 first, seventh by words alone.

Only a question within one game (``--game``) whose build holds that game's vectors is re-ranked:
the answer says so (``by_meaning``). A build's table is read once per process (`table`).
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.meaning import encoder, vectors

POOL = 30
"""The words' candidates re-ranked."""
K = 10
"""The reciprocal-rank constant: the first places weigh most."""
DEPTH = 50
"""A candidate further than this in meaning gets nothing from it."""
_tables: dict[Path, Table | None] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Table:
    """One build's vectors: the day they serve from, version ids, games (and the set of them), first
    and last days in force (ordinals; `vectors.NEVER`: none), vectors."""

    since: int
    ids: np.ndarray
    games: np.ndarray
    held: frozenset[str]
    starts: np.ndarray
    ends: np.ndarray
    vectors: np.ndarray


def table(build: Path) -> Table | None:
    """The vectors of ``build`` (None when it has none), read once per process: a build never changes."""
    with _lock:
        if build not in _tables:
            saved = vectors.read(build)
            _tables[build] = None
            if saved is not None:
                games = saved["games"]
                _tables[build] = Table(
                    int(saved["since"]),
                    saved["ids"],
                    games,
                    frozenset(games.tolist()),
                    saved["starts"],
                    saved["ends"],
                    saved["vectors"],
                )
        return _tables[build]


def holds(build: Path, game: str | None, on: dt.date | None) -> bool:
    """Whether a question within ``game`` about the rules in force ``on`` (None: every version) can be
    re-ranked by meaning on ``build``: its vectors hold that game and serve on that day, and the
    model is installed. A build without vectors (no numbered rules) answers from memory."""
    if game is None or on is None or (found := table(build)) is None:
        return False
    return game in found.held and on.toordinal() >= found.since and encoder.available()


def reranked(build: Path, question: str, hits: list[tuple[int, str]], game: str, on: dt.date) -> list[tuple[int, str]]:
    """``hits`` (version id, snippet), best first by words, in the order of words and meaning fused."""
    found = table(build)
    if found is None or not hits:
        return hits
    day = on.toordinal()
    rows = (found.games == game) & (found.starts <= day) & ((found.ends == vectors.NEVER) | (found.ends > day))
    if not rows.any():
        return hits
    scores = found.vectors[rows] @ encoder.encoder().encode([question])[0]
    ordered = np.sort(scores)[::-1]
    by_id = dict(zip(found.ids[rows].tolist(), scores.tolist(), strict=True))

    def fused(place: int) -> float:
        words = 1 / (K + place)
        score = by_id.get(hits[place][0])
        if score is None:  # a Glossary entry: measured, its words alone rank the rules best (docs/search.md)
            return words
        rank = int(np.searchsorted(-ordered, -score, side="left"))  # how many score higher
        return words + (1 / (K + rank) if rank < DEPTH else 0.0)

    return [hits[i] for i in sorted(range(len(hits)), key=lambda i: -fused(i))]
