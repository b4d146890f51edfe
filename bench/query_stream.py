"""The query stream of the fresh-queries benchmark (`fresh_queries.py`), drawn from a knowledge base itself.

`stream` reads the versions of a built knowledge base's SQLite store and draws, with a seeded
random generator, ``count`` distinct queries (no text twice in a run) in six classes, each
asked in one of three scopes (in force today, every version, as of a day drawn between the
first and the last document's dates):

- ``word``: one word, banded by how many versions hold it (`BANDS`: rare ones, in at most 6
  versions, to the commonest), the same number from each band that has words;
- ``pair``: two words of one version's text;
- ``phrase``: two to four consecutive words of a text, quoted;
- ``question``: a 6-10 word question made of a question opening and words of one text;
- ``field``: ``card:"NAME"`` of a card a version names, or ``headword:WORD`` of a headword's word;
- ``fuzzy``: a word of six letters or more with one edit (a letter dropped, doubled or two
  swapped) that spells no word of the knowledge base.

Words are the runs of ASCII letters (three or more) of the folded texts, headwords and card
names, less the question and filler words the search drops (`kb.search.questions.FILLER`).
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from common import middle_date, version_rows

from kb.search.questions import FILLER

SCOPES = ("in force", "every version", "as of")
CLASSES = ("word", "pair", "phrase", "question", "field", "fuzzy")
BANDS = ((1, 6), (7, 60), (61, 600), (601, 6000), (6001, 10**9))
"""Document-frequency bands of the single words: versions holding the word, lowest and highest."""
SHARES = {"word": 0.4, "pair": 0.12, "phrase": 0.12, "question": 0.12, "field": 0.12, "fuzzy": 0.12}
"""The share of the stream each class gets."""
OPENINGS = ("can", "does", "how does", "what happens when", "may i", "is it true that", "when does", "why can")
WORD = re.compile(r"[a-z]{3,}")


@dataclass(frozen=True)
class Query:
    """One query of the stream: what is typed, its class, its scope and (as of) day, and a single
    word's band (``"1-6"``) and document frequency."""

    text: str
    kind: str
    scope: str
    day: dt.date | None = None
    band: str = ""
    frequency: int = 0


def band_name(low: int, high: int) -> str:
    return f"{low}-{high}" if high < 10**9 else f">{low - 1}"


def words_of(text: str) -> list[str]:
    """The words of ``text`` as the stream counts them (lower case, ASCII letters, filler dropped)."""
    return [w for w in WORD.findall(text.lower()) if w not in FILLER]


def stream(store: Path, count: int = 1800, seed: int = 37) -> list[Query]:
    """``count`` distinct queries drawn from the versions of the SQLite ``store`` with ``seed``."""
    rows = version_rows(store)
    rng = random.Random(seed)
    frequency: Counter[str] = Counter()
    texts = []
    for row in rows:
        text_words = words_of(row.text)
        frequency.update({*words_of(f"{row.headword} {row.cards}"), *text_words})
        if len(text_words) >= 6:
            texts.append(row.text)
    with sqlite3.connect(store) as db:
        dates = sorted(dt.date.fromisoformat(d) for (d,) in db.execute("SELECT date FROM documents") if d)
    first, last = dates[0], max(dates[-1], middle_date(store))
    taken: set[str] = set()
    drawn: list[tuple[str, str, str, int]] = []

    def take(text: str, kind: str, band: str = "", df: int = 0) -> bool:
        if text in taken:
            return False
        taken.add(text)
        drawn.append((text, kind, band, df))
        return True

    quotas = {kind: round(count * share) for kind, share in SHARES.items()}
    quotas["word"] += count - sum(quotas.values())
    _words(rng, frequency, quotas["word"], take)
    makers = {
        "pair": lambda: " ".join(rng.sample(sorted(set(words_of(rng.choice(texts)))), 2)),
        "phrase": lambda: _phrase(rng, rng.choice(texts)),
        "question": lambda: _question(rng, rng.choice(texts)),
        "field": lambda: _field(rng, rng.choice(rows)),
        "fuzzy": lambda: _fuzzy(rng, rng.choice(texts), frequency),
    }
    for kind, make in makers.items():
        made, tries = 0, 0
        while made < quotas[kind] and tries < quotas[kind] * 50:
            tries += 1
            text = make()
            made += bool(text) and take(text, kind)
    rng.shuffle(drawn)
    span = (last - first).days
    queries = []
    for number, (text, kind, band, df) in enumerate(drawn):
        scope = SCOPES[number % 3]
        day = first + dt.timedelta(days=rng.randrange(span + 1)) if scope == "as of" else None
        queries.append(Query(text, kind, scope, day, band, df))
    return queries


def _words(rng: random.Random, frequency: Counter[str], quota: int, take: object) -> None:
    """Single words, the same number from each band that has words (a band short of words
    leaves the rest of its share to the bands with more)."""
    banded = [
        (band_name(low, high), sorted(w for w, n in frequency.items() if low <= n <= high)) for low, high in BANDS
    ]
    banded = sorted((b for b in banded if b[1]), key=lambda b: len(b[1]))
    for index, (band, words) in enumerate(banded):
        want = min(len(words), -(-quota // (len(banded) - index)))
        for word in rng.sample(words, want):
            take(word, "word", band, frequency[word])  # type: ignore[operator]
        quota -= want


def _phrase(rng: random.Random, text: str) -> str:
    words = WORD.findall(text.lower())
    size = rng.randint(2, 4)
    if len(words) < size:
        return ""
    start = rng.randrange(len(words) - size + 1)
    return '"' + " ".join(words[start : start + size]) + '"'


def _question(rng: random.Random, text: str) -> str:
    opening = rng.choice(OPENINGS)
    content = words_of(text)
    size = rng.randint(6, 10) - len(opening.split())
    if len(content) < size:
        return ""
    start = rng.randrange(len(content) - size + 1)
    return " ".join([opening, *content[start : start + size]])


def _field(rng: random.Random, row: object) -> str:
    cards = [c for c in row.cards.split(" | ") if c and '"' not in c]  # type: ignore[attr-defined]
    if cards and rng.random() < 0.6:
        return f'card:"{rng.choice(cards)}"'
    words = words_of(row.headword)  # type: ignore[attr-defined]
    return f"headword:{rng.choice(words)}" if words else ""


def _fuzzy(rng: random.Random, text: str, frequency: Counter[str]) -> str:
    words = [w for w in words_of(text) if len(w) >= 6]
    if not words:
        return ""
    word = rng.choice(words)
    at = rng.randrange(1, len(word) - 1)
    edit = rng.randrange(3)
    if edit == 0:
        typo = word[:at] + word[at + 1 :]
    elif edit == 1:
        typo = word[:at] + word[at] + word[at:]
    else:
        typo = word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]
    return "" if typo in frequency or typo == word else typo
