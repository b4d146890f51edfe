"""The VTES rulings database (``rulings.yaml`` of vtes-biased/vtes-rulings), read with PyYAML.

The database is one YAML mapping: each key names a card (``100519|Delaying Tactics``: its VEKN
id and name) or a group of cards (``G00001|Temporary control``), each value is a list of
rulings. A ruling is a string (plain, single- or double-quoted, folded over several lines) that
ends with one or more references in brackets (``[LSJ 20021028]``, ``[ANK 20201029-2] [LSJ
20030426]``, ``[RBK who-may-attempt-to-block]``), or, for a group, a mapping with its ``text``
and ``overrides`` (the text that stands instead for some cards of the group). Two companion
files sit next to it: ``references.yaml`` (each reference's URL) and ``groups.yaml`` (each
group's cards, each with the symbols it applies under, ``[DOM]``). Inside a ruling ``{Card
Name}`` names another card and ``[pot]`` / ``[POT]`` a discipline at its inferior / superior
level (`SYMBOLS`).

`compose` reads the YAML into nodes (which keep their lines: a citation names them) and turns a
YAML error into one `ParseError` line naming the file and line; `keyed` reads a database's
mapping into `Owner` s and their `Ruling` s, each with the lines it spans; `references` and
`groups` read the companion files; `render` writes a ruling's text for a reader. Nothing here
knows of entries or versions: `rulings.kinds.rulings_database` makes them.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulings.errors import ParseError

try:  # the C loader keeps the same marks, ten times faster
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

DISCIPLINES = {
    "abo": "Abombwe", "ani": "Animalism", "aus": "Auspex", "cel": "Celerity", "chi": "Chimerstry",
    "dai": "Daimoinon", "dem": "Dementation", "dom": "Dominate", "for": "Fortitude", "mal": "Maleficia",
    "mel": "Melpominee", "myt": "Mytherceria", "nec": "Necromancy", "obe": "Obeah", "obf": "Obfuscate",
    "obl": "Oblivion", "obt": "Obtenebration", "pot": "Potence", "pre": "Presence", "pro": "Protean",
    "qui": "Quietus", "san": "Sanguinus", "ser": "Serpentis", "spi": "Spiritus", "str": "Striga",
    "tem": "Temporis", "thn": "Thanatosis", "tha": "Thaumaturgy", "val": "Valeren", "vic": "Vicissitude",
    "vis": "Visceratika",
}  # fmt: skip
"""The database's discipline symbols (its header lists them): lower case for the inferior level,
upper case for the superior."""
VIRTUES = {
    "vin": "Vindication", "def": "Defense", "jus": "Justice", "inn": "Innocence", "mar": "Martyrdom",
    "ven": "Vengeance", "red": "Redemption", "vsn": "Vision",
}  # fmt: skip
"""The Imbued's virtue symbols (``[vsn]`` is Vision, to tell it from Visceratika's ``[vis]``)."""
RULERS = {
    "TOM": "Thomas R. Wylie",
    "SFC": "Shawn F. Carnes",
    "JON": "Jon Wilkie",
    "LSJ": "L. Scott Johnson",
    "PIB": "Pascal Bertrand",
    "ANK": "Vincent Ripoll (Ankha)",
    "RTR": "a Rules Team ruling",
    "RBK": "the rulebook",
}
"""Who a reference's three letters name (the successive Rules Directors, the Rules Team, the
rulebook), as ``references.yaml`` says in its header."""

_REFERENCE = re.compile(r"\s*\[(?P<ruler>[A-Z]{3}) (?P<name>[0-9a-z][0-9a-z-]*)\][\s.'\"]*$")
_SYMBOL = re.compile(r"\[(?P<name>[a-zA-Z]{3})\]")
_CARD = re.compile(r"\{(?P<name>[^{}]+)\}")


@dataclass(frozen=True)
class Reference:
    """One reference a ruling ends with: ``LSJ 20030426``, its ruler, its date and URL."""

    key: str
    """As printed, ``LSJ 20030426`` or ``ANK 20201029-2`` (a suffix numbers several on one day)."""
    ruler: str
    """Its three letters: ``LSJ``, ``ANK``, ``RTR`` (`RULERS`)."""
    date: dt.date | None
    """The date in its key; None for a rulebook section (``RBK search``) or a key that is no date."""
    url: str = ""
    """Where it was published (``references.yaml``); empty when that file does not list it."""

    def __str__(self) -> str:
        return f"{self.key} {self.url}" if self.url else f"{self.key} (no URL in references.yaml)"


@dataclass(frozen=True)
class Ruling:
    """One ruling of the database: its text without its references, and the lines it spans."""

    text: str
    """As printed, ``{Card}`` and ``[pot]`` kept, the references taken off its end."""
    references: tuple[Reference, ...]
    """The references it ends with, in order (empty: it has none, and is reported)."""
    lines: tuple[int, ...]
    """The 1-based lines of the YAML it spans."""
    overrides: dict[str, str] = field(default_factory=dict)
    """For a group's ruling: card key -> the text that stands instead for that card."""

    @property
    def date(self) -> dt.date | None:
        """Its earliest dated reference's date (None: no reference is dated)."""
        dates = [r.date for r in self.references if r.date]
        return min(dates) if dates else None


@dataclass
class Owner:
    """A card or group the database gives rulings to: ``100519|Delaying Tactics``."""

    ident: str
    """The id before the bar: ``100519`` (a VEKN card id) or ``G00001`` (a group)."""
    name: str
    """The name after it: ``Delaying Tactics``."""
    line: int
    """The line of its key."""
    rulings: list[Ruling]
    """Its rulings, in the database's order."""

    @property
    def group(self) -> bool:
        """Whether it is a group of cards (``groups.yaml``), not a card."""
        return self.ident.startswith("G")


def compose(text: str, path: str) -> yaml.Node | None:
    """``text`` composed into YAML nodes (None when empty); bad YAML is a `ParseError` naming the line."""
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        problem = " ".join(str(err.problem or err.context or "malformed").split())
        raise ParseError(path, line, f"not YAML: {problem}") from None
    except yaml.YAMLError as err:
        raise ParseError(path, 1, f"not YAML: {' '.join(str(err).split())}") from None


def span(node: yaml.Node) -> tuple[int, ...]:
    """The 1-based lines a node spans (its end mark sits after its last character)."""
    start, end = node.start_mark.line, node.end_mark.line
    if end > start and node.end_mark.column == 0:
        end -= 1
    return tuple(range(start + 1, end + 2))


def keyed(root: yaml.Node, path: str, urls: dict[str, str]) -> tuple[list[Owner], list[tuple[int, str]]]:
    """The cards and groups of a composed database with their rulings, and what could not be read
    (each ``(line, why)``): a value that is no list, an item that is no ruling, a ruling with no reference."""
    if not isinstance(root, yaml.MappingNode):
        raise ParseError(path, root.start_mark.line + 1, "a rulings database is a mapping of cards to rulings")
    owners: list[Owner] = []
    unread: list[tuple[int, str]] = []
    for key, value in root.value:
        ident, _, name = str(key.value).partition("|")
        line = key.start_mark.line + 1
        if not isinstance(key, yaml.ScalarNode) or not name.strip():
            unread += [(n, f"{str(key.value)[:60]!r} is not `id|name`") for n in (*span(key), *span(value))]
            continue
        if not isinstance(value, yaml.SequenceNode):
            unread += [(n, f"{name}: its rulings are not a list") for n in span(value) if n != line]
            unread.append((line, f"{name}: its rulings are not a list"))
            continue
        owner = Owner(ident.strip(), name.strip(), line, [])
        for item in value.value:
            ruling, why = _ruling(item, urls)
            if ruling is None:
                unread += [(n, f"{owner.name}: {why}") for n in span(item)]
            else:
                owner.rulings.append(ruling)
        owners.append(owner)
    return owners, unread


def _ruling(node: yaml.Node, urls: dict[str, str]) -> tuple[Ruling | None, str]:
    """A list item as a ruling, or None and why not."""
    overrides: dict[str, str] = {}
    if isinstance(node, yaml.MappingNode):
        found = {str(k.value): v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
        text_node, more = found.get("text"), found.get("overrides")
        if not isinstance(text_node, yaml.ScalarNode):
            return None, "a ruling given as a mapping has no `text`"
        if isinstance(more, yaml.MappingNode):
            overrides = {str(k.value): str(v.value) for k, v in more.value if isinstance(v, yaml.ScalarNode)}
        text = str(text_node.value)
    elif isinstance(node, yaml.ScalarNode):
        text = str(node.value)
    else:
        return None, "a ruling that is neither a text nor a mapping with one"
    body, references = split_references(text, urls)
    if not references:
        return None, "a ruling with no reference in brackets at its end"
    return Ruling(body, references, span(node), overrides), ""


def split_references(text: str, urls: dict[str, str]) -> tuple[str, tuple[Reference, ...]]:
    """A ruling's text without the references it ends with, and those references in order (a
    stray ``.`` or quote after the last one, a typo of the database, is dropped with them)."""
    body, found = " ".join(text.split()), []
    while match := _REFERENCE.search(body):
        ruler, name = match["ruler"], match["name"]
        key = f"{ruler} {name}"
        found.append(Reference(key, ruler, _day(name), urls.get(key, "")))
        body = body[: match.start()].rstrip()
    return body, tuple(reversed(found))


def _day(name: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(name[:8], "%Y%m%d").date() if re.fullmatch(r"\d{8}(?:-\d+)*", name) else None
    except ValueError:
        return None


def references(path: Path) -> tuple[dict[str, str], list[str]]:
    """``references.yaml``: each reference key's URL, and warnings (a value that is no URL)."""
    root = compose(path.read_text(encoding="utf-8"), str(path))
    if root is None:
        return {}, []
    if not isinstance(root, yaml.MappingNode):
        raise ParseError(str(path), root.start_mark.line + 1, "references.yaml is a mapping of references to URLs")
    urls: dict[str, str] = {}
    warnings: list[str] = []
    for key, value in root.value:
        if isinstance(value, yaml.ScalarNode) and str(value.value).startswith(("http://", "https://")):
            urls[str(key.value)] = str(value.value)
        else:
            warnings.append(f"{path}:{key.start_mark.line + 1}: {key.value}: no URL")
    return urls, warnings


def groups(path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """``groups.yaml``: each group's key -> its cards, each ``(card id, name, symbols it applies under)``."""
    root = compose(path.read_text(encoding="utf-8"), str(path))
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise ParseError(str(path), root.start_mark.line + 1, "groups.yaml is a mapping of groups to cards")
    found: dict[str, list[tuple[str, str, str]]] = {}
    for key, value in root.value:
        cards = found.setdefault(str(key.value).split("|", 1)[0].strip(), [])
        if not isinstance(value, yaml.MappingNode):
            raise ParseError(str(path), key.start_mark.line + 1, f"{key.value}: its cards are not a mapping")
        for card, symbols in value.value:
            ident, _, name = str(card.value).partition("|")
            cards.append((ident.strip(), name.strip(), str(symbols.value or "").strip()))
    return found


def render(text: str) -> tuple[str, list[str]]:
    """A ruling's text for a reader, and the cards it names: ``{Card Name}`` is the card's name,
    ``[pot]`` ``[inferior Potence]``, ``[POT]`` ``[superior Potence]``, ``[vin]`` ``[Vindication]``
    (other symbols, card types, stay as printed)."""
    cards = list(dict.fromkeys(m["name"].strip() for m in _CARD.finditer(text)))
    return _SYMBOL.sub(_symbol, _CARD.sub(lambda m: m["name"].strip(), text)), cards


def _symbol(match: re.Match[str]) -> str:
    name = match["name"]
    if name.lower() in DISCIPLINES and name in (name.lower(), name.upper()):
        level = "inferior" if name.islower() else "superior"
        return f"[{level} {DISCIPLINES[name.lower()]}]"
    if name in VIRTUES:
        return f"[{VIRTUES[name]}]"
    return match.group()
