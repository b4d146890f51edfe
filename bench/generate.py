"""Generate a scaled, deterministic library for benchmarks, in two profiles.

Both cover ten years and give about 90,000 versions; same seed, same library.

- ``stress``: a Glossary each year (``ENTRIES`` entries, 30% rewritten each time) and a full
  Current Rulings each month (``RULINGS`` rulings from a pool of ``TOPICS``, 85% of them
  rewritten), text drawn from the few hundred sentences of the bundled seed documents, so
  every common word matches thousands of versions. The harsh case.
- ``realistic``: one Glossary at the start (a new Glossary consolidates the rulings before
  it, so a yearly one would restart every ruling), a full Current Rulings each year
  restating every ruling in force (unchanged: no new version), and a Current Rulings Update each month with a few
  percent of the rulings restated with one sentence changed, plus a few new ones. Text is
  drawn from the game text and lore of the card files in ``../shared/cards/`` when they are
  there (the seed sentences otherwise), so the vocabulary is that of the game.

Card titles from ``data/titles/stccg.txt`` are worked into the text in both. ``share``
keeps the first part of the documents in date order (0.25: the first 30 months), so a
smaller library is a prefix of the full one and growth can be measured.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
YEARS = 10
ENTRIES = 1500
RULINGS = 800
TOPICS = 950
CHANGED = 0.85
REALISTIC_TOPICS = 14_000
"""Rulings in force at the start of the realistic profile."""
REALISTIC_CHANGED = 0.04
"""Share of the rulings an update restates with one sentence changed."""
REALISTIC_NEW = 60
"""New rulings in each update."""
CARDS = ROOT.parent / "shared" / "cards"
PROFILES = ("stress", "realistic")
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


def _card_sentences() -> list[str]:
    """The sentences of the card files' game text and lore (none when the files are absent)."""
    found: set[str] = set()
    for path in sorted(CARDS.glob("*.csv")):
        with path.open(encoding="utf-8-sig", newline="") as handle:
            for row in csv.DictReader(handle):
                for column in ("Text", "Lore"):
                    text = re.sub(r"\s+", " ", row.get(column) or "")
                    found.update(s for s in re.findall(r"[A-Z][^.!?]{30,200}[.!?]", text) if " - " not in s)
    return sorted(found)


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


def _one_changed(rng: random.Random, text: str, sentences: list[str]) -> str:
    """``text`` with one of its sentences replaced."""
    parts = re.findall(r"[^.!?]+[.!?]", text) or [text]
    parts[rng.randrange(len(parts))] = " " + rng.choice(sentences)
    return " ".join(p.strip() for p in parts)


Manifest = list[tuple[str, str, str, str, dt.date]]


def _current_rulings(target: Path, manifest: Manifest, date: dt.date, rulings: dict[str, str], update: bool) -> None:
    """Write a Current Rulings (or an Update) of ``rulings`` dated ``date``."""
    us = f"{date.month}/{date.day}/{date.year % 100:02d}"
    body = "\n\n".join(
        f"* {t} - {rulings[t]}" for t in sorted(rulings, key=lambda w: re.sub(r"[^a-z0-9]", "", w.lower()))
    )
    title, kind, stem = ("Current Rulings Update", "current-rulings-update", "cr-update") if update else (
        "Current Rulings", "current-rulings", "cr")  # fmt: skip
    name = f"{kind}-{date.isoformat()}.txt"
    (target / "stccg" / name).write_text(
        f"STAR TREK CUSTOMIZABLE CARD GAME\n{title.upper()}\n{us}\n\nRULINGS\n\n{body}\n", encoding="utf-8"
    )
    manifest.append((f"{stem}-{date.isoformat()}", name, kind, title, date))


def _glossary(target: Path, manifest: Manifest, date: dt.date, glossary: dict[str, str]) -> None:
    name = f"glossary-{date.year}.txt"
    body = "\n\n".join(f"{w} - {text}" for w, text in glossary.items())
    (target / "stccg" / name).write_text(f"GLOSSARY\nVersion {date.year}\n\n{body}\n", encoding="utf-8")
    manifest.append((f"glossary-{date.year}", name, "glossary", f"Glossary {date.year}", date))


def _month(number: int) -> dt.date:
    return dt.date(2001 + number // 12, number % 12 + 1, 1)


def _realistic(target: Path, rng: random.Random, titles: list[str]) -> Manifest:
    sentences = _card_sentences() or _sentences()
    manifest: Manifest = []
    glossary_words = _headwords(rng, ENTRIES, [], lower=True)
    pool = _headwords(rng, REALISTIC_TOPICS + YEARS * 12 * REALISTIC_NEW, titles, lower=False)
    rng.shuffle(pool)
    glossary = {w: _text(rng, sentences, titles) for w in glossary_words}
    rulings = {t: _text(rng, sentences, titles) for t in pool[:REALISTIC_TOPICS]}
    fresh = iter(pool[REALISTIC_TOPICS:])
    for month in range(YEARS * 12):
        date = _month(month)
        if month == 0:
            _glossary(target, manifest, date, glossary)
        if month % 12 == 0:
            _current_rulings(target, manifest, date, rulings, update=False)
            continue
        changed = {
            t: _one_changed(rng, rulings[t], sentences)
            for t in rng.sample(sorted(rulings), int(len(rulings) * REALISTIC_CHANGED))
        }
        changed.update({next(fresh): _text(rng, sentences, titles) for _ in range(REALISTIC_NEW)})
        rulings.update(changed)
        _current_rulings(target, manifest, date, changed, update=True)
    return manifest


def _stress(target: Path, rng: random.Random, titles: list[str]) -> Manifest:
    sentences = _sentences()
    glossary_words = _headwords(rng, ENTRIES, [], lower=True)
    topics = _headwords(rng, TOPICS, titles, lower=False)
    manifest: Manifest = []
    glossary = {w: _text(rng, sentences, titles) for w in glossary_words}
    rulings = {t: _text(rng, sentences, titles) for t in topics}
    for month in range(YEARS * 12):
        date = _month(month)
        if month % 12 == 0:
            for word in rng.sample(glossary_words, int(ENTRIES * 0.3)):
                glossary[word] = _text(rng, sentences, titles)
            _glossary(target, manifest, date, glossary)
        chosen = sorted(rng.sample(topics, RULINGS), key=lambda w: re.sub(r"[^a-z0-9]", "", w.lower()))
        for topic in chosen:
            if rng.random() < CHANGED:
                rulings[topic] = _text(rng, sentences, titles)
        _current_rulings(target, manifest, date, {t: rulings[t] for t in chosen}, update=False)
    return manifest


def generate(target: Path, seed: int = 7, profile: str = "stress", share: float = 1.0) -> int:
    """Write the library of ``profile`` into ``target``, its first ``share`` of documents in
    date order; return the number of documents."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; the profiles are {', '.join(PROFILES)}")
    rng = random.Random(seed)
    titles = _titles()
    (target / "stccg").mkdir(parents=True)
    everything = (_stress if profile == "stress" else _realistic)(target, rng, titles)
    last = _month(max(1, round(YEARS * 12 * share)) - 1)
    manifest = [m for m in everything if m[4] <= last]
    for _, name, *_ in everything[len(manifest) :]:
        (target / "stccg" / name).unlink()
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
    parser = argparse.ArgumentParser(description="Generate a benchmark library.")
    parser.add_argument("target", nargs="?", default="bench/library", type=Path)
    parser.add_argument("--profile", choices=PROFILES, default="stress")
    parser.add_argument("--share", type=float, default=1.0, help="the first share of the documents (0 to 1)")
    arguments = parser.parse_args()
    written = generate(arguments.target, profile=arguments.profile, share=arguments.share)
    print(f"{written} documents written to {arguments.target}")
