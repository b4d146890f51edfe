"""Two cards together: every ruling and Glossary entry in force on a date that bears on how two
cards interact, best first (`together`). One of the two may be a game term (``commandeering``), a
headword no card has: an entry "names" a term when it is the term's own entry, its text holds the
term's headword as words, or it refers to it ("See commandeering"); the term's own entry always
comes, last when nothing else puts it first.

An entry bears on the pair when its text in force
- names both cards ("names both"), or
- names one card and is a rule the other card's rulings refer to ("See X"), or
- is a rule the rulings of both cards refer to.
Entries naming both come first, then those reached through one "See", then the rules both
refer to; within each, the entry whose governing text has the higher precedence
(`kb.read.standing`), then the newer, then by headword.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from kb.answers import CardRef, PairAnswer, PairEntry
from kb.errors import NotAPair, UnknownCard
from kb.model import Version, status
from kb.read import standing
from kb.read.cards import find_card
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.parts import Parts

CARDS = 2
"""How many cards a question names."""


def together(parts: Parts, names: list[str], as_of: dt.date | None = None, game: str | None = None) -> PairAnswer:
    """The entries in force on ``as_of`` (today by default) that bear on the two cards ``names``,
    best first; an unknown name is an `UnknownCard` with close names."""
    wanted = [n.strip() for n in names if n.strip()]
    if len(wanted) != CARDS:
        raise NotAPair(f"name two cards, not {len(wanted)} (e.g. names=Stop First Contact,Hero of the Empire)")
    on = as_of or dt.date.today()
    cards = [_card_or_term(parts, name, game) for name in wanted]
    if all(c.get("term") for c in cards):
        raise NotAPair(f"{wanted[0]!r} and {wanted[1]!r} are game terms, not cards; name at least one card")
    if cards[0]["key"] == cards[1]["key"]:
        raise NotAPair(f"{wanted[0]!r} and {wanted[1]!r} are one card; name two different cards")
    named = [_mentioning(parts, c, on) if c.get("term") else _naming(parts, c["key"], on) for c in cards]
    triggered = [
        {c["key"]: "it"} if c.get("term") else _referred(parts, versions, on)
        for c, versions in zip(cards, named, strict=True)
    ]
    found: dict[str, tuple[int, str]] = {}
    a, b = cards[0]["name"], cards[1]["name"]
    for topic in named[0].keys() & named[1].keys():
        term = next((c for c in cards if c["key"] == topic), None)
        card = b if term is cards[0] else a
        found[topic] = (0, f"the entry for {term['name']} names {card}" if term else f"names both {a} and {b}")
    for mine, other, who, whom in ((0, 1, a, b), (1, 0, b, a)):
        for topic, by in triggered[other].items():
            if topic in named[mine] and topic not in found:
                found[topic] = (
                    1,
                    f"names {who}; "
                    + (f"{by}, a ruling naming {whom}, refers to it" if by != "it" else "it is that term's entry"),
                )
    for topic in triggered[0].keys() & triggered[1].keys():
        if topic not in found:
            found[topic] = (2, f"the rulings of both {a} and {b} refer to it")
    for term in (c for c in cards if c.get("term")):
        found.setdefault(term["key"], (2, f"the entry for {term['name']} itself"))
    entries = [_entry(parts, topic, rank, why, on) for topic, (rank, why) in found.items()]
    entries = [e for e in entries if e["parts"]]
    entries.sort(key=lambda e: (e["rank"], *_strength(parts, e), headword_key(e["headword"])))
    return {"cards": cards, "as_of": on.isoformat(), "entries": entries}


def _card_or_term(parts: Parts, name: str, game: str | None) -> CardRef:
    """The card named ``name``, else the game term (a topic's headword) ``name``; neither is the
    `UnknownCard` of the card name."""
    try:
        key = find_card(parts, name, game)
    except UnknownCard:
        wanted = parts.game_filter(game)
        terms = [t for t in parts.reader.topics_keyed(headword_key(name)) if wanted in (None, t["game"])]
        if not terms:
            raise
        terms.sort(key=lambda t: (t["game"] != "stccg", t["id"]))
        return {"name": terms[0]["headword"], "game": terms[0]["game"], "key": terms[0]["id"], "term": True}
    row = parts.reader.card_row(key) or {}
    return {"name": row["name"], "game": row["game"], "key": key}


def _mentioning(parts: Parts, term: CardRef, on: dt.date) -> dict[str, list[Version]]:
    """The topics of ``term``'s game whose versions in force on ``on`` are its entry, hold its
    headword as words (case aside), or refer to it, with those versions."""
    words = re.compile(r"(?<!\w)" + re.escape(term["name"]) + r"(?!\w)", re.IGNORECASE)
    key = headword_key(term["name"])
    found: dict[str, list[Version]] = {}
    for topic in parts.reader.topics():
        if topic["game"] != term["game"]:
            continue
        for version in parts.in_force(topic["id"], on):
            about = topic["id"] == term["key"] or any(headword_key(r) == key for r in version.references)
            if about or words.search(version.text or ""):
                found.setdefault(topic["id"], []).append(version)
    return found


def _naming(parts: Parts, key: str, on: dt.date) -> dict[str, list[Version]]:
    """The topics whose versions in force on ``on`` name card ``key``, with those versions."""
    found: dict[str, list[Version]] = {}
    for version, _ in parts.reader.card_versions(key):
        if status(version, on) == "active":
            found.setdefault(version.topic, []).append(version)
    return found


def _referred(parts: Parts, naming: dict[str, list[Version]], on: dt.date) -> dict[str, str]:
    """The topics the versions ``naming`` a card refer to ("See X") and in force on ``on``, each
    with the headword of the ruling that refers to it."""
    found: dict[str, str] = {}
    for versions in naming.values():
        for version in versions:
            game = version.topic.split(":", 1)[0]
            for reference in version.references:
                for topic in parts.reader.topics_keyed(headword_key(reference)):
                    if topic["game"] == game and parts.in_force(topic["id"], on):
                        found.setdefault(topic["id"], version.headword)
    return found


def _entry(parts: Parts, topic: str, rank: int, why: str, on: dt.date) -> PairEntry:
    row = parts.reader.topic(topic) or {}
    shown = standing.govern([parts.part(v, on) for v in parts.in_force(topic, on)], parts.reader)
    return {"topic": topic, "headword": row["headword"], "rank": rank, "why": why, "parts": shown}


def _strength(parts: Parts, entry: PairEntry) -> tuple[int, int]:
    """How an entry sorts within its rank: its governing text's precedence, higher and newer first."""
    tier, since = standing.precedence(entry["parts"][0], parts.reader)
    return -tier, -since.toordinal()
