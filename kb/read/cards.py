"""Card answers: everything that touches one card, or every card of a deck, on a date.

A card's answer lists the topics headed by it (its rulings), the other topics whose text
in force names it, and every version that ever named it (its history of changes). A deck
list is read in the quick-start format (``SHIPS Runabout U.S.S. Galaxy (2) ...``) or one
card per line with an optional count (``2x Conundrum``, ``Conundrum x2``, ``2 Conundrum``).
A deck is read within a budget: its first `DECK_LINES` card lines (the rest are counted as
skipped), and close names suggested for its first `SUGGESTED` unknown names only.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import TYPE_CHECKING, Any

from kb.answers import (
    CardAnswer,
    CardFacts,
    CardRef,
    CardRuling,
    CardVersion,
    DeckAnswer,
    DeckCard,
    Entry,
    UnknownDeckName,
    iso,
)
from kb.errors import UnknownCard
from kb.model import status
from kb.paging import FIRST, Paging, page_of
from kb.read import standing
from kb.vocabulary import close_matches
from rulings.kinds.rulebook.cardlist import parse_deck_line
from rulings.kinds.rulebook.lines import Line, card_list
from rulings.normalize import title_key, without_universal

if TYPE_CHECKING:
    from kb.read.parts import Parts

_COUNTED = re.compile(r"^(?:(?P<pre>\d+)\s*x?\s+)?(?P<name>.+?)(?:\s+x\s*(?P<post>\d+)|\s+\((?P<paren>\d+)\))?$", re.I)
DECK_LINES = 500
"""Card lines of a deck list read; the rest are skipped (and counted)."""
SUGGESTED = 20
"""Unknown names of a deck that get "did you mean" suggestions."""
_SECTION_WORDS = (
    "mission missions ship ships personnel dilemma dilemmas equipment event events interrupt interrupts facility"
    " facilities doorway doorways artifact artifacts objective objectives incident incidents outpost outposts site"
    " sites time location locations q card cards q-card q-cards tribble tribbles trouble troubles seed draw side"
    " deck decks sideboard headquarters battle bridge"
)
SECTIONS = frozenset(_SECTION_WORDS.split())
"""Words of a deck list's section headers ("SHIPS", "Seed deck", "Q-cards")."""
_HEADER = re.compile(
    r"^(?P<name>[^:]{1,40}):\s*(?:\(?\d{1,4}\)?)?$|^(?P<bare>[A-Za-z][A-Za-z' -]{0,38})\s*(?:\(\d{1,4}\))?$"
)


def find_card(parts: Parts, name: str, game: str | None = None) -> str:
    """The catalog key of a card named (or aliased) ``name``: punctuation-, case- and quote-insensitive."""
    game = parts.game_filter(game)
    key = _known_card(parts, name, game)
    if key is None:
        elsewhere = sorted({str(c["game"]) for c in parts.reader.cards_titled(_wanted(name))})
        raise UnknownCard(name, _close_cards(_card_names(parts, game), name), elsewhere)
    return key


def _known_card(parts: Parts, name: str, game: str | None) -> str | None:
    """The card of that name: spelt exactly so first (``Guess Who's Coming to Dinner?``, the 2E card,
    not the 1E ``Guess Who's Coming to Dinner``), then the first game's."""
    matches = [c for c in parts.reader.cards_titled(_wanted(name)) if game in (None, c["game"])]
    best = sorted(matches, key=lambda c: (c["name"] != name.strip(), not c["key"].startswith("stccg:"), c["key"]))
    return str(best[0]["key"]) if best else None


def _wanted(name: str) -> str:
    return title_key(without_universal(name.strip()))


def _card_names(parts: Parts, game: str | None) -> dict[str, str]:
    return {title_key(c["name"]): c["name"] for c in parts.reader.cards() if game in (None, c["game"])}


def _close_cards(names: dict[str, str], name: str) -> list[str]:
    """Up to five card names like ``name``: spelt alike, or holding its words (``kira`` finds
    ``Kira Nerys``), those spelt alike first."""
    wanted = _wanted(name)
    alike = close_matches(wanted, names, n=5, cutoff=0.6)
    words = wanted.split()
    holding = sorted(k for k in names if words and all(w in k.split() for w in words) and k not in alike)
    return [names[c] for c in [*alike, *holding][:5]]


def card(parts: Parts, name: str, as_of: dt.date | None = None, game: str | None = None) -> CardAnswer:
    """The card's catalog row, the rulings headed by it, the entries naming it, and its history."""
    return _card(parts, find_card(parts, name, game), as_of or dt.date.today())


def _card(parts: Parts, key: str, on: dt.date, history_too: bool = True) -> CardAnswer:
    """`card` of the catalog key ``key`` on ``on``; without ``history_too`` (a deck), only the
    versions in force are read and the history is left empty."""
    row = parts.reader.card_row(key) or {}
    headed: dict[str, Entry] = {}
    mentioning: dict[str, Entry] = {}
    history: list[CardVersion] = []
    for version, vias in parts.reader.card_versions(key, None if history_too else on):
        state = status(version, on)
        if history_too:
            history.append(
                {
                    "topic": version.topic,
                    "headword": version.headword,
                    "series": version.series,
                    "valid_from": iso(version.valid_from),
                    "valid_to": iso(version.valid_to),
                    "operation": version.operation,
                    "status": state,
                    "via": sorted(vias),
                    "citation": parts.citation(version),
                }
            )
        if state != "active":
            continue
        bucket = headed if "headword" in vias else mentioning
        headword = (parts.reader.topic(version.topic) or {})["headword"]
        bucket.setdefault(version.topic, {"topic": version.topic, "headword": headword, "parts": []})["parts"].append(
            parts.part(version, on)
        )
    for topic in headed:
        mentioning.pop(topic, None)
    for entry in [*headed.values(), *mentioning.values()]:
        entry["parts"] = standing.govern(entry["parts"], parts.reader)
    return {
        **_catalog_row(row),
        "key": key,
        "as_of": on.isoformat(),
        "headed": list(headed.values()),
        "entries": list(headed.values()) + list(mentioning.values()),
        "rulings": _dated(parts, [*headed.values(), *mentioning.values()]),
        "history": history,
        "same_name": same_name(parts, key),
    }


def _catalog_row(row: Any) -> CardFacts:
    """The catalog's facts of a card; ``printed`` is whether a card file gave any printing's
    set, rarity, text or lore (the bundled catalog gives none)."""
    printings = json.loads(row["printings"])
    printed = any(p.get(f) for p in printings for f in ("release", "rarity", "text", "lore", "icons"))
    return {
        "name": row["name"],
        "game": row["game"],
        "type": row["type"],
        "sets": json.loads(row["sets"]),
        "affiliation": row["affiliation"],
        "uniqueness": row["uniqueness"],
        "persona": row["persona"],
        "aliases": json.loads(row["aliases"]),
        "printings": printings,
        "printed": printed,
    }


def _dated(parts: Parts, entries: list[Entry]) -> list[CardRuling]:
    """The rulings in force among ``entries`` (deck lists left out), one per part, newest first:
    date (``since``: in force from, else the source's date), topic, headword, text and citation."""
    rulings: list[CardRuling] = [
        {
            "since": p["valid_from"] or p["citation"]["date"],
            "topic": e["topic"],
            "headword": e["headword"],
            "label": p["label"],
            "text": p["text"],
            "key": p["key"],
            "citation": p["citation"],
        }
        for e in entries
        if not _card_list(parts, e["topic"])
        for p in e["parts"]
    ]
    rulings.sort(key=lambda r: (r["topic"], r["label"]))
    rulings.sort(key=lambda r: r["since"] or "", reverse=True)
    return rulings


def _card_list(parts: Parts, topic: str) -> bool:
    """Whether ``topic`` is a deck list (a rulebook's list of cards), not a ruling."""
    return (parts.reader.topic(topic) or {}).get("kind") == "card list"


def same_name(parts: Parts, key: str) -> list[CardRef]:
    """The other cards (of other games, or other printings) a name or alias of card ``key``
    also names: name, game and key of each, in key order."""
    row = parts.reader.card_row(key) or {}
    spellings = {title_key(s) for s in [row["name"], *json.loads(row["aliases"])]}
    others = {c["key"]: c for s in spellings for c in parts.reader.cards_titled(s) if c["key"] != key}
    return [{"name": others[k]["name"], "game": others[k]["game"], "key": k} for k in sorted(others)]


def read_deck(text: str, titles: list[str]) -> list[tuple[str, int]]:
    """(name, count) for each card of a deck list's first `DECK_LINES` card lines, in order."""
    return _read_deck(text, titles)[0]


def _read_deck(text: str, titles: list[str]) -> tuple[list[tuple[str, int]], int, list[str]]:
    """The cards of a deck list's first `DECK_LINES` lines, and how many lines follow. Section
    headers ("Missions:", "SHIPS", "Seed deck (6)") are not cards: a line ending in a colon
    (and perhaps a count), or words of `SECTIONS` alone that are no card's title."""
    lines = [line for line in (raw.strip() for raw in text.splitlines()) if line and not line.startswith("#")]
    known: set[str] | None = None
    cards: list[tuple[str, int]] = []
    headers: list[str] = []
    for line in lines[:DECK_LINES]:
        header = _HEADER.match(line)
        if header and header["bare"]:
            known = known if known is not None else {title_key(t) for t in titles}
            words = header["bare"].lower().replace("'s", "").split()
            if title_key(header["bare"]) in known or not all(w in SECTIONS for w in words):
                header = None
        if header:
            headers.append(line)
            continue
        if card_list(Line(0, line, True, True)):
            cards += [(c.name, c.count) for c in parse_deck_line(line, titles)[0]]
            continue
        match = _COUNTED.match(line)
        if match is None:  # never: the pattern takes any line that is not empty
            continue
        count = match["pre"] or match["post"] or match["paren"] or "1"
        cards.append((match["name"].strip(), int(count)))
    return cards, max(0, len(lines) - DECK_LINES), headers


def resolve_deck(
    parts: Parts, text: str, game: str | None = None
) -> tuple[dict[str, int], list[UnknownDeckName], int, list[str]]:
    """A deck list's known cards (catalog key -> count, in order), its unknown names (each
    once, with suggestions for the first `SUGGESTED`), the number of lines skipped and the
    section headers read."""
    game = parts.game_filter(game)
    titles = [c["name"] for c in parts.reader.cards() if game in (None, c["game"])]
    cards, skipped, headers = _read_deck(text, titles)
    known: dict[str, int] = {}
    unknown: dict[str, UnknownDeckName] = {}
    names: dict[str, str] | None = None
    for name, count in cards:
        key = _known_card(parts, name, game)
        if key is not None:
            known[key] = known.get(key, 0) + count
        elif name in unknown:
            unknown[name]["count"] += count
        else:
            suggestions: list[str] = []
            if len(unknown) < SUGGESTED:
                names = names if names is not None else _card_names(parts, game)
                suggestions = _close_cards(names, name)
            unknown[name] = {"name": name, "count": count, "suggestions": suggestions}
    return known, list(unknown.values()), skipped, headers


def deck(
    parts: Parts, text: str, as_of: dt.date | None = None, game: str | None = None, paging: Paging = FIRST
) -> DeckAnswer:
    """For each card of a deck list, its rulings in force (deck lists themselves left out):
    the cards of the page ``paging`` asks (`kb.paging`); unknown names with suggestions;
    ``skipped``: card lines past `DECK_LINES`, not read."""
    on = as_of or dt.date.today()
    known, unknown, skipped, headers = resolve_deck(parts, text, game)

    def card(item: tuple[str, int]) -> DeckCard:
        key, count = item
        answer = _card(parts, key, on, history_too=False)
        rulings = [e for e in answer["entries"] if not _card_list(parts, e["topic"])]
        return {"name": answer["name"], "key": key, "count": count, "type": answer["type"], "entries": rulings}

    cards, page = page_of(
        list(known.items()), paging, card, weigh=lambda c: 1 + sum(len(e["parts"]) for e in c["entries"])
    )
    return {
        "as_of": on.isoformat(),
        "cards": cards,
        "unknown": unknown,
        "skipped": skipped,
        "headers": headers,
        "total": sum(known.values()) + sum(u["count"] for u in unknown),
        "page": page,
    }


def deck_keys(parts: Parts, text: str, game: str | None = None) -> set[str]:
    """The catalog keys of a deck's known cards (for a diff limited to the deck)."""
    return set(resolve_deck(parts, text, game)[0])
