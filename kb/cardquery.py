"""Card answers: everything that touches one card, or every card of a deck, on a date.

A card's answer lists the topics headed by it (its rulings), the other topics whose text
in force names it, and every version that ever named it (its history of changes). A deck
list is read in the quick-start format (``SHIPS Runabout U.S.S. Galaxy (2) ...``) or one
card per line with an optional count (``2x Conundrum``, ``Conundrum x2``, ``2 Conundrum``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from typing import Any

from kb.query import KnowledgeBase, iso
from kb.versions import status
from rulings.cardlist import parse_deck_line
from rulings.normalize import title_key
from rulings.rulebook_lines import Line, card_list

_COUNTED = re.compile(r"^(?:(?P<pre>\d+)\s*x?\s+)?(?P<name>.+?)(?:\s+x\s*(?P<post>\d+)|\s+\((?P<paren>\d+)\))?$", re.I)
_UNIV = re.compile(r"^\[univ\]\s*", re.I)


class UnknownCard(LookupError):
    """No card has that name; carries the closest names."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no card {name!r}{hint}")
        self.suggestions = suggestions


def find_card(kb: KnowledgeBase, name: str, game: str | None = None) -> str:
    """The catalog key of a card named (or aliased) ``name``: punctuation-, case- and quote-insensitive."""
    wanted = title_key(_UNIV.sub("", name.strip()))
    matches = [k for k in kb.cards_by_title.get(wanted, []) if game in (None, kb.cards[k]["game"])]
    if matches:
        return sorted(matches, key=lambda k: (not k.startswith("stccg:"), k))[0]
    names = {title_key(c["name"]): c["name"] for c in kb.cards.values() if game in (None, c["game"])}
    close = difflib.get_close_matches(wanted, list(names), n=5, cutoff=0.6)
    raise UnknownCard(name, [names[c] for c in close])


def card(kb: KnowledgeBase, name: str, as_of: dt.date | None = None, game: str | None = None) -> dict[str, Any]:
    """The card's catalog row, the rulings headed by it, the entries naming it, and its history."""
    return _card(kb, find_card(kb, name, game), as_of or dt.date.today())


def _card(kb: KnowledgeBase, key: str, on: dt.date) -> dict[str, Any]:
    row = kb.cards[key]
    headed: dict[str, dict[str, Any]] = {}
    mentioning: dict[str, dict[str, Any]] = {}
    history = []
    for version_id, vias in kb.card_versions.get(key, {}).items():
        version = kb.version_by_id[version_id]
        state = status(version, on)
        history.append({"topic": version.topic, "headword": version.headword, "series": version.series,
                        "valid_from": iso(version.valid_from), "valid_to": iso(version.valid_to),
                        "operation": version.operation, "status": state, "via": sorted(vias),
                        "citation": kb.citation(version)})  # fmt: skip
        if state != "active":
            continue
        bucket = headed if "headword" in vias else mentioning
        bucket.setdefault(version.topic, {"topic": version.topic, "headword": kb.topics[version.topic]["headword"],
                                          "parts": []})["parts"].append(kb.part(version, on))  # fmt: skip
    for topic in headed:
        mentioning.pop(topic, None)
    return {
        "name": row["name"], "key": key, "game": row["game"], "type": row["type"], "sets": json.loads(row["sets"]),
        "affiliation": row["affiliation"], "uniqueness": row["uniqueness"], "persona": row["persona"],
        "aliases": json.loads(row["aliases"]), "as_of": on.isoformat(),
        "headed": list(headed.values()), "entries": list(headed.values()) + list(mentioning.values()),
        "history": history,
    }  # fmt: skip


def read_deck(text: str, titles: list[str]) -> list[tuple[str, int]]:
    """(name, count) for each card of a deck list, in order."""
    cards: list[tuple[str, int]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if card_list(Line(0, line, True, True)):
            cards += [(c.name, c.count) for c in parse_deck_line(line, titles)[0]]
            continue
        match = _COUNTED.match(line)
        assert match is not None
        count = match["pre"] or match["post"] or match["paren"] or "1"
        cards.append((match["name"].strip(), int(count)))
    return cards


def resolve_deck(
    kb: KnowledgeBase, text: str, game: str | None = None
) -> tuple[dict[str, int], list[dict[str, Any]]]:  # fmt: skip
    """A deck list's known cards (catalog key -> count, in order) and its unknown names with suggestions."""
    titles = [c["name"] for c in kb.cards.values() if game in (None, c["game"])]
    known: dict[str, int] = {}
    unknown: list[dict[str, Any]] = []
    for name, count in read_deck(text, titles):
        try:
            key = find_card(kb, name, game)
        except UnknownCard as err:
            unknown.append({"name": name, "count": count, "suggestions": err.suggestions})
            continue
        known[key] = known.get(key, 0) + count
    return known, unknown


def deck(kb: KnowledgeBase, text: str, as_of: dt.date | None = None, game: str | None = None) -> dict[str, Any]:
    """For each card of a deck list, its rulings in force (deck lists themselves left out);
    unknown names with suggestions."""
    on = as_of or dt.date.today()
    known, unknown = resolve_deck(kb, text, game)
    cards = []
    for key, count in known.items():
        answer = _card(kb, key, on)
        rulings = [e for e in answer["entries"] if kb.topics[e["topic"]]["kind"] != "card list"]
        cards.append({"name": answer["name"], "key": key, "count": count, "type": answer["type"], "entries": rulings})
    return {"as_of": on.isoformat(), "cards": cards, "unknown": unknown,
            "total": sum(known.values()) + sum(u["count"] for u in unknown)}  # fmt: skip


def deck_keys(kb: KnowledgeBase, text: str, game: str | None = None) -> set[str]:
    """The catalog keys of a deck's known cards (for a diff limited to the deck)."""
    return set(resolve_deck(kb, text, game)[0])
