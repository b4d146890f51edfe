"""Generate a realistic, scaled, deterministic library for benchmarks.

Ten years of documents: a Glossary each year (``ENTRIES`` entries, a share rewritten each
time) and a full Current Rulings each month (``RULINGS`` rulings on a pool of topics, most
of them rewritten), giving about 100,000 versions. Text is assembled from the sentences
of the bundled seed documents, with card titles from ``data/titles/stccg.txt`` worked in,
so words, lengths and card mentions look like the real thing. Same seed, same library.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
YEARS = 10
ENTRIES = 1500
RULINGS = 800
TOPICS = 950
CHANGED = 0.85
SYLLABLES = [
    "ka",
    "ro",
    "tan",
    "vel",
    "mis",
    "qu",
    "or",
    "ek",
    "dal",
    "sha",
    "ni",
    "bor",
    "ga",
    "lek",
    "tor",
    "ya",
    "zin",
    "ul",
]


def _sentences() -> list[str]:
    text = " ".join((ROOT / "data" / p).read_text(encoding="utf-8") for p in (
        "stccg/quick-start-rules.txt", "stccg/current-rulings-update-2000-11-27.txt", "neutral-zone/rulebook.txt",
        "stccg/rulebook-deck-and-spaceline.txt"))  # fmt: skip
    found = re.findall(r"[A-Z][^.!?\n]{30,200}[.!?]", text)
    return sorted({re.sub(r"\s+", " ", s).replace(" - ", ", ") for s in found})


def _titles() -> list[str]:
    lines = (ROOT / "data" / "titles" / "stccg.txt").read_text(encoding="utf-8").splitlines()
    return [t for t in lines if t and not t.startswith("#") and " - " not in t]


def _headwords(rng: random.Random, count: int, titles: list[str], lower: bool) -> list[str]:
    words = set(titles if not lower else [])
    while len(words) < count:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        words.add(word if lower else word.capitalize() + rng.choice(["", " Field", " Protocol", " Station"]))
    return sorted(words, key=lambda w: re.sub(r"[^a-z0-9]", "", w.lower()))[:count]


def _text(rng: random.Random, sentences: list[str], titles: list[str]) -> str:
    chosen = [rng.choice(sentences) for _ in range(rng.randint(2, 4))]
    if rng.random() < 0.5:
        chosen.insert(rng.randrange(len(chosen) + 1), f"This applies to {rng.choice(titles)} as well.")
    return " ".join(chosen)


def generate(target: Path, seed: int = 7) -> int:
    """Write the library into ``target``; return the number of documents."""
    rng = random.Random(seed)
    sentences, titles = _sentences(), _titles()
    (target / "stccg").mkdir(parents=True)
    glossary_words = _headwords(rng, ENTRIES, [], lower=True)
    topics = _headwords(rng, TOPICS, titles, lower=False)
    manifest = []
    glossary = {w: _text(rng, sentences, titles) for w in glossary_words}
    rulings = {t: _text(rng, sentences, titles) for t in topics}
    start = dt.date(2001, 1, 1)
    for month in range(YEARS * 12):
        date = dt.date(start.year + month // 12, month % 12 + 1, 1)
        if month % 12 == 0:
            for word in rng.sample(glossary_words, int(ENTRIES * 0.3)):
                glossary[word] = _text(rng, sentences, titles)
            name = f"glossary-{date.year}.txt"
            body = "\n\n".join(f"{w} - {glossary[w]}" for w in glossary_words)
            (target / "stccg" / name).write_text(f"GLOSSARY\nVersion {date.year}\n\n{body}\n", encoding="utf-8")
            manifest.append((f"glossary-{date.year}", name, "glossary", f"Glossary {date.year}", date))
        chosen = sorted(rng.sample(topics, RULINGS), key=lambda w: re.sub(r"[^a-z0-9]", "", w.lower()))
        for topic in chosen:
            if rng.random() < CHANGED:
                rulings[topic] = _text(rng, sentences, titles)
        body = "\n\n".join(f"* {t} - {rulings[t]}" for t in chosen)
        us = f"{date.month}/{date.day}/{date.year % 100:02d}"
        name = f"current-rulings-{date.isoformat()}.txt"
        (target / "stccg" / name).write_text(
            f"STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS\n{us}\n\nRULINGS\n\n{body}\n", encoding="utf-8"
        )
        manifest.append((f"cr-{date.isoformat()}", name, "current-rulings", "Current Rulings", date))
    tables = [
        f'[[document]]\nid = "{i}"\nfile = "stccg/{f}"\ngame = "stccg"\nkind = "{k}"\ntitle = "{t}"\n'
        f'version = "{d.isoformat()}"\ndate = "{d.isoformat()}"\n'
        for i, f, k, t, d in manifest
    ]
    (target / "library.toml").write_text("\n".join(tables), encoding="utf-8")
    (target / "titles").mkdir()
    (target / "titles" / "stccg.txt").write_text("\n".join(titles) + "\n", encoding="utf-8")
    return len(manifest)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/library")
    print(f"{generate(out)} documents written to {out}")
