"""The kind ``rulings-database``: the VTES rulings database, one YAML file (`.vtes` reads it).

Each card of the database (``100519|Delaying Tactics:``) is a topic named by the card's name,
its VEKN id kept in the field ``id``; each of its rulings is a ``ruling`` entry dated by its
earliest dated reference (``[ANK 20201029-2] [LSJ 20030426]`` is of 2003-04-26), its text with
``{Card Name}`` as the card's name (the card kept as a reference: a link to its topic) and
``[pot]`` / ``[POT]`` as ``[inferior Potence]`` / ``[superior Potence]``, its references kept at
its end as printed. Every reference, with its URL from ``references.yaml``, is the provenance
the version's note gives, paragraph by paragraph (``¶1 RTR 19970630 https://...``). A group's
ruling (``G00001|Temporary control:``) is a ruling of the group's own topic and of every card
``groups.yaml`` lists in the group (``(Temporary control, [superior Dominate]) ...``; a card's
``overrides`` text stands instead for it); its lines are in each of those entries (counted once).

The companion files are the database's own: ``references.yaml`` and ``groups.yaml`` in the
document's folder (a missing one is warned: references without URLs, groups on their own topic
only). A card's rulings add up (each version holds its rulings up to its date, oldest first);
a later whole snapshot of the database restates them: a ruling it drops or edits makes a new
version from its date, a card it drops is rescinded (`kb.ingest.ledger`). A ruling with no
reference, or an item that is no ruling, is reported unparsed; one whose references are all
undated (``[RBK search]``) is dated by the document, warned; bad YAML is one line naming the file
and line. The comment lines before the first card are the introduction.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from rulings.entries.topics import join_paragraphs
from rulings.kinds import ALWAYS, DATED, Kind, Versions, register
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

if TYPE_CHECKING:  # rulings.kinds.rulings_database.vtes imports PyYAML: only a parse loads it
    from rulings.kinds.rulings_database.vtes import Ruling


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a rulings database into one dated ruling entry per ruling and card."""
    from rulings.kinds.rulings_database import vtes

    path = document.path
    numbered = [(i + 1, t) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    urls, grouped = _companions(result)
    root = vtes.compose("\n".join(source.lines), path)
    owners, unread = vtes.keyed(root, path, urls) if root is not None else ([], [])
    reported: set[str] = set()
    for line, why in unread:
        result.unparsed.append(line)
        if why not in reported:
            reported.add(why)
            result.warnings.append(f"{path}:{line}: {why}; not read")
    seen: dict[str, int] = {}
    for owner in owners:
        key = f"{owner.ident}|{owner.name}"
        if key in seen:
            result.warnings.append(f"{path}:{owner.line}: {key} is listed again (first on line {seen[key]})")
        seen.setdefault(key, owner.line)
        if not owner.rulings:
            result.unparsed.append(owner.line)
            result.warnings.append(f"{path}:{owner.line}: {owner.name}: no ruling; not read")
            continue
        members = grouped.get(owner.ident, []) if owner.group else []
        if owner.group and owner.ident not in grouped:
            result.warnings.append(f"{path}:{owner.line}: {key} is no group of groups.yaml: its own topic only")
        for k, ruling in enumerate(owner.rulings):
            lines = sorted({*ruling.lines, *([owner.line] if k == 0 else [])})
            _checked(result, owner.name, ruling, lines[0])
            result.entries.append(_entry(owner.ident, owner.name, ruling.text, ruling, lines))
            for ident, name, symbols in members:
                text = ruling.overrides.get(f"{ident}|{name}", ruling.text)
                result.entries.append(_entry(ident, name, text, ruling, lines, (owner.name, symbols)))
            if members:
                result.split += lines
    _noted(result.entries, document.date)
    accounted = {n for e in result.entries for n in e.lines} | set(result.unparsed)
    first = min((o.line for o in owners), default=len(source.lines) + 1)
    before = [n for n, t in numbered if n < first and (t.lstrip().startswith("#") or t.strip() == "---")]
    if before:
        texts = dict(numbered)
        comments = [texts[n].strip().lstrip("#").strip() for n in before if texts[n].strip() != "---"]
        introduction = join_paragraphs(comments)
        result.entries.insert(0, Entry(document.title, "introduction", introduction, before))
    left = [n for n, _ in numbered if n not in accounted and n not in before]
    if left:
        result.unparsed += left
        result.warnings.append(f"{path}:{left[0]}: {len(left)} line(s) outside every ruling (comments); not read")
    result.unparsed.sort()
    result.split = sorted(set(result.split))
    return result


def _companions(result: ParseResult) -> tuple[dict[str, str], dict[str, list[tuple[str, str, str]]]]:
    """The URLs of ``references.yaml`` and the groups of ``groups.yaml`` beside the document (warned when absent)."""
    from rulings.kinds.rulings_database import vtes

    folder = Path(result.document.path).parent
    urls: dict[str, str] = {}
    grouped: dict[str, list[tuple[str, str, str]]] = {}
    if (folder / "references.yaml").is_file():
        urls, warnings = vtes.references(folder / "references.yaml")
        result.warnings += warnings
    else:
        result.warnings.append(f"{result.document.path}:1: no references.yaml beside it: references without URLs")
    if (folder / "groups.yaml").is_file():
        grouped = vtes.groups(folder / "groups.yaml")
    else:
        result.warnings.append(f"{result.document.path}:1: no groups.yaml beside it: group rulings on their own topic")
    return urls, grouped


def _checked(result: ParseResult, name: str, ruling: Ruling, line: int) -> None:
    """Warn of a ruling's references with no URL, and of a ruling no reference dates."""
    path = result.document.path
    for reference in ruling.references:
        if not reference.url:
            result.warnings.append(f"{path}:{line}: {name}: {reference.key} is not in references.yaml (no URL)")
    if ruling.date is None:
        keys = ", ".join(r.key for r in ruling.references)
        result.warnings.append(f"{path}:{line}: {name}: no dated reference ({keys}); dated by the document")


def _entry(
    ident: str, name: str, body: str, ruling: Ruling, lines: list[int], group: tuple[str, str] = ("", "")
) -> Entry:
    """One ruling of one card (or group) as an entry: rendered text, its references at its end;
    ``group``: the group's name and the symbols the card has it under, for a card of a group."""
    from rulings.kinds.rulings_database.vtes import RULERS, render

    text, cards = render(body)
    named, symbols = group
    if named:
        text = f"({', '.join(t for t in (named, render(symbols)[0]) if t)}) {text}"
    cited = " ".join(f"[{r.key}]" for r in ruling.references)
    entry = Entry(name, "ruling", f"{text} {cited}", list(lines), references=[c for c in cards if c != name])
    entry.date = ruling.date
    provenance = ", ".join(str(r) for r in ruling.references)
    entry.fields = {
        "id": ident,
        "cited": " ".join(r.key for r in ruling.references),
        "ruler": " ".join(dict.fromkeys(r.ruler for r in ruling.references)),
        "rulers": ", ".join(dict.fromkeys(RULERS.get(r.ruler, r.ruler) for r in ruling.references)),
        "provenance": f"(group {named}) {provenance}" if named else provenance,
    }
    return entry


def _noted(entries: list[Entry], on: dt.date | None) -> None:
    """Each entry's note: the provenance of its topic's rulings up to it, oldest first (the order
    the ledger adds them up in), one per paragraph of the version it makes."""
    from rulings.normalize import headword_key

    by_topic: dict[str, list[Entry]] = {}
    for entry in entries:
        by_topic.setdefault(headword_key(entry.headword), []).append(entry)
    for each in by_topic.values():
        said: list[str] = []
        for entry in sorted(each, key=lambda e: e.date or on or dt.date.min):
            said.append(f"¶{len(said) + 1} {entry.fields.pop('provenance')}")  # in the note only
            entry.fields["note"] = "; ".join(said)


def shaped(entry: Entry) -> bool:
    """A ruling with its text, under a card or group name of at most 12 words (a name, not a
    sentence, though it may end with a stop: ``CrimethInc.``); the header comments."""
    named = 0 < len(entry.headword.split()) <= 12
    return entry.kind == "introduction" or (entry.kind == "ruling" and bool(entry.text) and named)


KIND = register(
    Kind(
        name="rulings-database",
        parse=parse,
        versions=Versions(
            DATED, series="rulings-database", rescinds=ALWAYS, topics=("ruling",), accumulates=True, note_field="note"
        ),
        rank=4,
        called="the rulings database",
        cleaned=False,
        shaped=shaped,
        itself=r"\blist of rulings\b|\brulings reference\b",
        starts=r"^'?(?:\d{6}|G\d{5})\|.+:$",
        entries="rulings of a rulings database",
    )
)
