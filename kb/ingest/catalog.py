"""The card catalog: cards per game, from the seed documents or Lackey card files.

`bundled_catalog` builds one from parsed documents alone: deck lists, ship reference
tables and examples, transcriber notes naming a card's printed spelling, and card titles
heading rulings. `import_lackey` reads the community's Lackey CSV exports (Physical.csv,
Virtual.csv) and the LackeyCCG plugin's tab-separated set files (``sets/*.txt``); a bad row
is reported by line number and skipped, never aborting the import. A card is a title: every
row whose name reduces to the same title (``Odo``, ``Odo *VP``, ``Odo (Homefront II)``) is
one printing of it. Once a card file gives a game's cards, a ruling's headword no card file
names is a rules topic, not a card (`Catalog.retire_topics`). A headword names a card as
the Glossary prints titles (`headword_titles`): ``Art of Diplomacy, The``, ``Deanna Troi
(First Contact)``.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulings.kinds.rulebook.lines import DECK_GROUP_TYPES
from rulings.model import ParseError, ParseResult
from rulings.normalize import fold_quotes, title_key, without_universal
from rulings.source import read_source

_CONTROL = re.compile("[\x00-\x1f\x7f]")
LACKEY_COLUMNS = ("Name", "Set", "Type", "Affil", "Uniqueness", "Persona")
_THIS_TYPE = re.compile(
    r"\bthis (personnel|dilemma|ship|event|interrupt|equipment|objective|incident|facility|doorway|mission|artifact)\b",
    re.I,
)
_EXAMPLE_SHIP = re.compile(
    r"^(?P<name>.+?) is a (?P<faction>\w+) (?:large |small )?(?P<role>attack|collector) ship\.$", re.I
)
_CARD_READS = re.compile(r'"(?P<printed>[^"]+)"; the (?:ship )?card itself reads "(?P<card>[^"]+)"')
_SET_SUFFIX = re.compile(r"\s*\((?P<set>[^()]+)\)$")
_EDITION = re.compile(r"\s+2E$")
_VIRTUAL = re.compile(r"\s+\*VP$")
_MARKS = re.compile(r"\s*(?P<marks>[*+]+)$")
_ARTICLE = re.compile(r"^(?P<title>.+), (?P<article>The|A|An)$")
_WORD_PARTS = re.compile(r"[^\W_]+")
_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_INFO = re.compile(r"^(?:(?P<number>\S*\d\S*)\s+)?(?P<rarity>\S+)$")
_name_key = functools.lru_cache(maxsize=1 << 16)(title_key)
"""`title_key` of card names, remembered: a library's rulings name the same cards again and again."""
CONVENTIONS = {
    "virtual": "' *VP' virtual promo",
    "*": "trailing '*'",
    "+": "trailing '+'",
    "parenthesised": "parenthesised set or disambiguator",
    "2E": "'2E' card of the Second Edition (stccg-2e)",
    "persona()": "Persona in parentheses",
    "persona": "Persona without parentheses",
}
"""The name and column conventions of the community's card files, as the import report names them."""


@dataclass
class Printing:
    """One row of a card file: a printing (version, virtual promo...) of a card title."""

    name: str
    """The name as the file writes it (``Odo (Homefront II) *VP``)."""
    set: str = ""
    release: str = ""
    disambiguator: str = ""
    """The parenthesised set or subtitle of the name, if any."""
    virtual: bool = False
    """A virtual promo (`` *VP``)."""
    source: str = ""
    """``<file>:<line>``."""
    number: str = ""
    """The collector number of the file's ``Info`` column (``110`` of ``110 R+``), if any."""
    rarity: str = ""
    """The rarity of the ``Info`` column (``R+`` of ``110 R+``)."""
    type: str = ""
    affiliation: str = ""
    icons: str = ""
    """The ``Icons`` column as written (``[AU][Films]``)."""
    text: str = ""
    """The game text (``Text`` column)."""
    lore: str = ""
    """The lore (``Lore`` column)."""


@dataclass
class ImportReport:
    """What importing one card file did."""

    path: Path
    rows: int = 0
    printings: int = 0
    titles: int = 0
    """Distinct card titles among this file's printings."""
    skipped: int = 0
    conventions: dict[str, int] = field(default_factory=dict)
    """How many rows used each of `CONVENTIONS`."""

    def line(self) -> str:
        """The one-line summary printed by ``rulings build``."""
        met = ", ".join(f"{CONVENTIONS[k]} {n}" for k, n in self.conventions.items() if n) or "none"
        return (
            f"{self.path.name}: {self.rows} rows, {self.printings} printings of {self.titles} titles, "
            f"{self.skipped} skipped; conventions met: {met}"
        )


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
    printings: list[Printing] = field(default_factory=list)
    """The card files' rows for this title."""
    headed: bool = False
    """Only a ruling's headword made it a card (a rules topic once card files give its game's cards)."""

    @property
    def key(self) -> str:
        """Identity within the catalog: game and normalised name."""
        return f"{self.game}:{_name_key(self.name)}"

    def spellings(self) -> list[str]:
        """Its name and aliases, each written with spaces for its hyphens too (the Glossary's
        ``Forced Labor Camp`` is ``Forced-Labor Camp``), and each in the plural ("three Pegasus
        Searches", "Q-Flashes"; a one-word title's plural is too often a species or a skill: "Humans")."""
        written = [self.name, *self.aliases]
        written += [_HYPHEN.sub(" ", s) for s in written]
        several = [_plural(s) for s in written if s[-1:].isalpha() and len(_WORD_PARTS.findall(s)) > 1]
        return list(dict.fromkeys(written + several))


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
        known.headed = known.headed and card.headed
        if card.printings and not known.printings:
            known.name = card.name  # a card file's spelling, not a headword's (MARTOK)
        for name in ("type", "affiliation", "uniqueness"):
            if not getattr(known, name) and getattr(card, name):
                setattr(known, name, getattr(card, name))
        personas = list(dict.fromkeys(_personas(known) + _personas(card)))
        known.persona = "" if personas == [known.name] else ";".join(personas)
        known.sets += [s for s in card.sets if s not in known.sets]
        known.printings += card.printings
        if card.name != known.name and card.name not in known.aliases:
            known.aliases.append(card.name)
        known.aliases += [a for a in card.aliases if a not in known.aliases]
        return known

    def copy(self) -> Catalog:
        """A copy whose cards `add` can change without changing these (their printings shared)."""
        cards = {}
        for key, card in self.cards.items():
            twin = cards[key] = Card.__new__(Card)
            twin.__dict__.update(card.__dict__)
            twin.sets, twin.aliases, twin.printings = list(card.sets), list(card.aliases), list(card.printings)
        return Catalog(cards, list(self.problems))

    def by_title(self) -> dict[tuple[str, str], str]:
        """(game, title key of a spelling) to card key."""
        index: dict[tuple[str, str], str] = {}
        for card in self.cards.values():
            for spelling in card.spellings():
                index.setdefault((card.game, title_key(spelling)), card.key)
        return index

    def retire_topics(self) -> list[str]:
        """Remove the cards only a ruling's headword made, of the games whose cards a card file
        gave: no card file names them, so they are rules topics. Their names, sorted."""
        printed = {c.game for c in self.cards.values() if c.printings}
        topics = [k for k, c in self.cards.items() if c.headed and not c.printings and c.game in printed]
        return sorted(self.cards.pop(key).name for key in topics)

    def games(self) -> set[str]:
        """The games with cards."""
        return {c.game for c in self.cards.values()}


def _personas(card: Card) -> list[str]:
    """The personas a card's printings give (``(Odo)`` is ``Odo``), a printing without one representing its title."""
    return [p.strip().removeprefix("(").removesuffix(")") for p in card.persona.split(";") if p.strip()] or [card.name]


def bundled_catalog(results: list[ParseResult], catalog: Catalog | None = None) -> Catalog:
    """A catalog from the documents themselves (added to ``catalog`` when given)."""
    catalog = Catalog() if catalog is None else catalog
    for result in results:
        document = result.document
        source = f"seed:{document.id}"
        for entry in result.entries:
            if entry.kind == "card list":
                for count in entry.cards:
                    catalog.add(Card(count.name, document.game, DECK_GROUP_TYPES.get(count.group, ""), source=source))
            elif entry.kind == "table row" and entry.fields.get("Name") and entry.fields.get("Cost"):
                catalog.add(Card(entry.headword, document.game, "Ship", affiliation=entry.parent or "", source=source))
            elif entry.kind == "ruling" and _card_headed(entry.headword, entry.text, entry.summary, entry.references):
                kind = _THIS_TYPE.search(f"{entry.text} {entry.summary or ''}")
                name = headword_titles(entry.headword)[-1]
                card_type = kind.group(1).capitalize() if kind else ""
                catalog.add(Card(name, document.game, card_type, source=source, headed=True))
            for paragraph in entry.text.split("\n\n") if document.kind == "rulebook" else ():
                example = _EXAMPLE_SHIP.match(paragraph.strip())
                if example:
                    faction = example["faction"].capitalize()
                    catalog.add(Card(example["name"], document.game, "Ship", affiliation=faction, source=source))
        for entry in result.entries:
            for printed in _CARD_READS.finditer(entry.text):
                card = catalog.add(Card(printed["card"], document.game, source=source))
                if printed["printed"] not in card.aliases:  # each document saying it again changed the catalog
                    card.aliases.append(printed["printed"])
                spelled = catalog.cards.pop(f"{document.game}:{title_key(printed['printed'])}", None)
                if spelled and spelled is not card:
                    catalog.add(Card(card.name, card.game, spelled.type, affiliation=spelled.affiliation))
    return catalog


def _plural(title: str) -> str:
    """A title in the plural, as rules write several copies of a card (its last word's ``s`` or ``es``)."""
    return title + ("es" if title.endswith(("s", "sh", "ch", "x", "z")) else "s")


def headword_titles(headword: str) -> list[str]:
    """The card titles a headword may be, most literal first: as written (without ``[univ]``),
    with a trailing article put first (``Art of Diplomacy, The``), without a trailing
    parenthesised printing (``Deanna Troi (First Contact)``)."""
    titles = [without_universal(headword).strip()]
    article = _ARTICLE.match(titles[-1])
    if article:
        titles.append(f"{article['article']} {article['title']}")
    printing = _SET_SUFFIX.search(titles[-1])
    if printing and printing.start():
        titles.append(titles[-1][: printing.start()].strip())
    return titles


def _card_headed(headword: str, text: str, summary: str | None, references: list[str]) -> bool:
    """Whether a ruling's headword is a card title rather than a game term."""
    bare = without_universal(headword)
    if headword != bare:
        return True
    if not bare[:1].isupper() or "icon" in bare.lower():
        return False
    pure_reference = not text and references and all(r[:1].islower() for r in references)
    return not (pure_reference and " " not in bare)


def import_lackey(path: Path, catalog: Catalog) -> ImportReport:
    """Add the cards of a Lackey card file to ``catalog``: the community's CSV export
    (Physical.csv, Virtual.csv) or the plugin's own tab-separated set file (``sets/*.txt``,
    no quoting); report rows, printings, titles and conventions."""
    report = ImportReport(path, conventions=dict.fromkeys(CONVENTIONS, 0))
    keys: set[str] = set()
    try:
        source = read_source(path)
    except ParseError as err:  # its message names the file and line
        catalog.problems.append(str(err))
        return report
    except OSError as err:
        catalog.problems.append(f"{path}:1: cannot read the file: {err.strerror or err}")
        return report
    lines = source.lines
    catalog.problems += source.warnings  # bytes that are not UTF-8, read as cp1252 (a file saved on Windows)
    tabbed = "\t" in lines[0]
    layout: dict[str, Any] = {"delimiter": "\t", "quoting": csv.QUOTE_NONE} if tabbed else {}
    header = [name.strip().strip('"').strip() for name in next(csv.reader(lines[:1], **layout))]
    missing = [c for c in LACKEY_COLUMNS if c not in header]
    if missing:
        kind = "tab-separated" if tabbed else "comma-separated"
        catalog.problems.append(f"{path}:1: not a Lackey card file ({kind}): no column {', '.join(missing)}")
        return report
    reader = csv.DictReader(io.StringIO("\n".join(lines[1:])), header, **layout)
    for row in reader:
        line = reader.line_num + 1
        report.rows += 1
        problem = _row_problem(row)
        if problem:
            catalog.problems.append(f"{path}:{line}: {problem}; row skipped")
            report.skipped += 1
            continue
        card, met = _lackey_card(row, f"{path.name}:{line}")
        keys.add(catalog.add(card).key)
        report.printings += 1
        for convention in met:
            report.conventions[convention] += 1
    report.titles = len(keys)
    return report


def _row_problem(row: dict[str | None, str | list[str] | None]) -> str | None:
    if None in row:
        return "more fields than the header"
    if any(row.get(c) is None for c in LACKEY_COLUMNS):
        return "fewer fields than the header"
    if not read_name(str(row["Name"]))[0]:
        return "no card name"
    if _CONTROL.search(str(row["Name"])):
        return "a control character (NUL, tab, line break...) in the card name"
    if not str(row["Type"]).strip():
        return "no card type"
    return None


def read_name(written: str) -> tuple[str, str, list[str], list[str]]:
    """A card file's name as (title, game, disambiguators, conventions met):
    ``Odo (Dogs of War)* *VP`` is the title ``Odo`` of ``stccg``, disambiguated ``Dogs of War``."""
    name, game = fold_quotes(written.strip()), "stccg"
    disambiguators: list[str] = []
    met: list[str] = []
    while True:
        if virtual := _VIRTUAL.search(name):
            name, met = name[: virtual.start()], [*met, "virtual"]
        elif marks := _MARKS.search(name):
            name, met = name[: marks.start()], [*met, *sorted(set(marks["marks"]) - set(met))]
        elif printing := _SET_SUFFIX.search(name):
            name, met = name[: printing.start()], [*met, "parenthesised"]
            disambiguators.insert(0, printing["set"].strip())
        elif _EDITION.search(name):
            name, game, met = _EDITION.sub("", name), "stccg-2e", [*met, "2E"]
        else:
            break
    return name.strip(), game, disambiguators, list(dict.fromkeys(met))


def _lackey_card(row: dict[str | None, str | list[str] | None], source: str) -> tuple[Card, list[str]]:
    written = str(row["Name"]).strip()
    name, game, disambiguators, met = read_name(written)
    persona = fold_quotes(str(row["Persona"]).strip())
    if persona:
        met.append("persona()" if persona.startswith("(") else "persona")
    sets = [str(row["Set"]).strip(), *disambiguators]
    printing = Printing(
        name=written,
        set=str(row["Set"]).strip(),
        release=str(row.get("Release") or "").strip(),
        disambiguator=" / ".join(disambiguators),
        virtual="virtual" in met,
        source=source,
        type=str(row["Type"]).strip(),
        affiliation=str(row["Affil"]).strip(),
        icons=_column(row, "Icons"),
        text=_column(row, "Text"),
        lore=_column(row, "Lore"),
    )
    info = _INFO.match(_column(row, "Info"))
    if info:
        printing.number, printing.rarity = info["number"] or "", info["rarity"]
    card = Card(
        name=name,
        game=game,
        type=str(row["Type"]).strip(),
        sets=[s for s in sets if s],
        affiliation=str(row["Affil"]).strip(),
        uniqueness=str(row["Uniqueness"]).strip(),
        persona=persona,
        source=f"lackey:{source}",
        printings=[printing],
    )
    return card, met


def _column(row: dict[str | None, str | list[str] | None], name: str) -> str:
    """An optional column's value, stripped ("" when the file has no such column)."""
    return str(row.get(name) or "").strip()
