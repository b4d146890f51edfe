"""The card catalog: cards per game, from the seed documents or a Lackey CSV file.

`bundled_catalog` builds one from parsed documents alone: deck lists, ship reference
tables and examples, transcriber notes naming a card's printed spelling, and card titles
heading rulings. `import_lackey` reads the community's Lackey CSV format; a bad row is
reported by line number and skipped, never aborting the import.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulings.model import ParseResult
from rulings.normalize import fold_quotes, title_key

GROUP_TYPES = {
    "OUTPOST": "Facility", "OUTPOSTS": "Facility", "SHIPS": "Ship", "MISSIONS": "Mission", "PERSONNEL": "Personnel",
    "DILEMMAS": "Dilemma", "EQUIPMENT": "Equipment", "EVENTS": "Event", "INTERRUPTS": "Interrupt",
    "ARTIFACTS": "Artifact", "OBJECTIVES": "Objective", "DOORWAYS": "Doorway", "FACILITIES": "Facility",
}  # fmt: skip
"""Deck-list group headings and the card type they hold."""
LACKEY_COLUMNS = ("Name", "Set", "Type", "Affil", "Uniqueness", "Persona")
_THIS_TYPE = re.compile(
    r"\bthis (personnel|dilemma|ship|event|interrupt|equipment|objective|incident|facility|doorway|mission|artifact)\b",
    re.I,
)
_EXAMPLE_SHIP = re.compile(
    r"^(?P<name>.+?) is a (?P<faction>\w+) (?:large |small )?(?P<role>attack|collector) ship\.$", re.I
)
_CARD_READS = re.compile(r'"(?P<printed>[^"]+)"; the (?:ship )?card itself reads "(?P<card>[^"]+)"')
_SET_SUFFIX = re.compile(r"\s+\((?P<set>[^()]+)\)$")
_EDITION = re.compile(r"\s+2E$")


@dataclass
class Card:
    """One card title of one game (printings merged)."""

    name: str
    game: str
    type: str = ""
    sets: list[str] = field(default_factory=list)
    affiliation: str = ""
    uniqueness: str = ""
    """``univ``, ``enig`` or empty."""
    persona: str = ""
    """The persona it represents, as the catalog writes it (``(Quark)`` mirror, ``<Odo>`` impersonator)."""
    aliases: list[str] = field(default_factory=list)
    """Other spellings that mean this card (misspellings, printed variants)."""
    source: str = ""
    """Where it came from: ``seed:<document id>`` or ``lackey:<file>:<line>``."""

    @property
    def key(self) -> str:
        """Identity within the catalog: game and normalised name."""
        return f"{self.game}:{title_key(self.name)}"


@dataclass
class Catalog:
    """Cards by key, plus what an import reported."""

    cards: dict[str, Card] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, card: Card) -> Card:
        """Add ``card``, merging into an existing card of the same game and name."""
        known = self.cards.get(card.key)
        if known is None:
            self.cards[card.key] = card
            return card
        for name in ("type", "affiliation", "uniqueness", "persona"):
            if not getattr(known, name) and getattr(card, name):
                setattr(known, name, getattr(card, name))
        known.sets += [s for s in card.sets if s not in known.sets]
        if card.name != known.name and card.name not in known.aliases:
            known.aliases.append(card.name)
        known.aliases += [a for a in card.aliases if a not in known.aliases]
        return known

    def by_title(self) -> dict[tuple[str, str], str]:
        """(game, title key of the name or an alias) to card key."""
        index: dict[tuple[str, str], str] = {}
        for card in self.cards.values():
            for spelling in [card.name, *card.aliases]:
                index.setdefault((card.game, title_key(spelling)), card.key)
        return index

    def games(self) -> set[str]:
        """The games with cards."""
        return {c.game for c in self.cards.values()}


def bundled_catalog(results: list[ParseResult], catalog: Catalog | None = None) -> Catalog:
    """A catalog from the documents themselves (added to ``catalog`` when given)."""
    catalog = Catalog() if catalog is None else catalog
    for result in results:
        document = result.document
        source = f"seed:{document.id}"
        for entry in result.entries:
            if entry.kind == "card list":
                for count in entry.cards:
                    catalog.add(Card(count.name, document.game, GROUP_TYPES.get(count.group, ""), source=source))
            elif entry.kind == "table row" and entry.fields.get("Name") and entry.fields.get("Cost"):
                catalog.add(Card(entry.headword, document.game, "Ship", affiliation=entry.parent or "", source=source))
            elif entry.kind == "ruling" and _card_headed(entry.headword, entry.text, entry.summary, entry.references):
                kind = _THIS_TYPE.search(f"{entry.text} {entry.summary or ''}")
                name = re.sub(r"^\[univ\]\s*", "", entry.headword, flags=re.I)
                card_type = kind.group(1).capitalize() if kind else ""
                catalog.add(Card(name, document.game, card_type, source=source))
            for paragraph in entry.text.split("\n\n"):
                example = _EXAMPLE_SHIP.match(paragraph.strip())
                if example and document.kind == "rulebook":
                    faction = example["faction"].capitalize()
                    catalog.add(Card(example["name"], document.game, "Ship", affiliation=faction, source=source))
        for entry in result.entries:
            for printed in _CARD_READS.finditer(entry.text):
                card = catalog.add(Card(printed["card"], document.game, source=source))
                card.aliases.append(printed["printed"])
                spelled = catalog.cards.pop(f"{document.game}:{title_key(printed['printed'])}", None)
                if spelled and spelled is not card:
                    catalog.add(Card(card.name, card.game, spelled.type, affiliation=spelled.affiliation))
    return catalog


def _card_headed(headword: str, text: str, summary: str | None, references: list[str]) -> bool:
    """Whether a ruling's headword is a card title rather than a game term."""
    bare = re.sub(r"^\[univ\]\s*", "", headword, flags=re.I)
    if headword != bare:
        return True
    if not bare[:1].isupper() or "icon" in bare.lower():
        return False
    pure_reference = not text and references and all(r[:1].islower() for r in references)
    return not (pure_reference and " " not in bare)


def import_lackey(path: Path, catalog: Catalog) -> int:
    """Add the cards of a Lackey CSV file to ``catalog``; return how many rows were imported."""
    imported = 0
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in LACKEY_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            catalog.problems.append(f"{path}:1: not a Lackey card file: no column {', '.join(missing)}")
            return 0
        for row in reader:
            line = reader.line_num
            problem = _row_problem(row)
            if problem:
                catalog.problems.append(f"{path}:{line}: {problem}; row skipped")
                continue
            catalog.add(_lackey_card(row, f"lackey:{path.name}:{line}"))
            imported += 1
    return imported


def _row_problem(row: dict[str | None, str | list[str] | None]) -> str | None:
    if None in row:
        return "more fields than the header"
    if any(row.get(c) is None for c in LACKEY_COLUMNS):
        return "fewer fields than the header"
    if not str(row["Name"]).strip().rstrip("*").strip():
        return "no card name"
    if not str(row["Type"]).strip():
        return "no card type"
    return None


def _lackey_card(row: dict[str | None, str | list[str] | None], source: str) -> Card:
    name = fold_quotes(str(row["Name"]).strip()).rstrip("*").strip()
    game = "stccg"
    printing = _SET_SUFFIX.search(name)
    if printing:
        name = name[: printing.start()]
    if _EDITION.search(name):
        name, game = _EDITION.sub("", name), "stccg-2e"
    sets = [str(row["Set"]).strip()] + ([printing["set"]] if printing else [])
    return Card(
        name=name, game=game, type=str(row["Type"]).strip(), sets=[s for s in sets if s],
        affiliation=str(row["Affil"]).strip(), uniqueness=str(row["Uniqueness"]).strip(),
        persona=fold_quotes(str(row["Persona"]).strip()), source=source,
    )  # fmt: skip
