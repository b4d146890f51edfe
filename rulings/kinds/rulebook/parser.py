"""Rulebooks (quick-start, comprehensive, other games'): sections, sub-sections, lists.

Steps: set a table of contents and print furniture apart (chrome: dot leaders, ``VERSION 4``, running
headers), keep a first line naming the document as its title, read an HTML copy's ``back to top of page X``
as the heading ``X``, classify each line (`rulings.kinds.rulebook.lines`), cut the document into top-level
blocks at numbered and title headings, merge blocks that repeat a section number
(`rulings.kinds.rulebook.copies`), then turn each block into entries: the section, its all-caps
sub-sections, labelled items, phases, deck lists and table rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.entries.partial import mark_cut
from rulings.entries.topics import join_paragraphs
from rulings.kinds.rulebook import copies
from rulings.kinds.rulebook.cardlist import deck_name, parse_deck_line
from rulings.kinds.rulebook.lines import Line, anchored_heading, classify, contents, furniture, label_of, numbered_parts
from rulings.model import Document, Entry, ParseResult
from rulings.normalize import clean_line, headword_key
from rulings.source import SourceText

TOP_LEVEL = ("numbered heading", "title heading")
MAX_VARIANTS = 8
"""Differing copies of one section merged with a diff; more are not a reposted section but
a document reusing numbers, and the rest stay sections of their own."""
_PHASE_END = re.compile(r"[;,.]?\s*(?:and|plus)?$")


@dataclass
class Block:
    """A top-level section: its heading line (None for text before any heading)."""

    heading: copies.Piece | None
    """The heading line."""
    number: str | None
    """The section number, for numbered headings."""
    body: list[copies.Piece] = field(default_factory=list)
    """Its non-blank lines, in order."""


def _lines(source: SourceText) -> list[Line]:
    raw = source.lines
    out = []
    for index, text in enumerate(raw):
        if not text.strip():
            continue
        before = index == 0 or not raw[index - 1].strip()
        after = index + 1 == len(raw) or not raw[index + 1].strip()
        out.append(Line(index + 1, text, before, after))
    return out


def _blocks(lines: list[Line], anchored: set[int]) -> list[Block]:
    blocks: list[Block] = []
    current = Block(None, None)
    for line in lines:
        kind = "title heading" if line.number in anchored else classify(line)
        piece = copies.Piece(line.number, line.text, line.blank_before)
        if kind in TOP_LEVEL:
            blocks.append(current)
            number = numbered_parts(line.text)[0] if kind == "numbered heading" else None
            current = Block(piece, number)
        else:
            current.body.append(piece)
    blocks.append(current)
    return [b for b in blocks if b.heading or b.body]


def _merge_repeats(blocks: list[Block], warnings: list[str]) -> tuple[list[Block], int]:
    """Merge blocks that repeat a section (same number and title); order numbered blocks by number.

    Copies are grouped by number and title; within a group, identical copies are folded
    together line by line and at most `MAX_VARIANTS` differing ones are merged with a diff,
    so the work stays linear in the document's size. Two sections that share a number
    but not a title, and the copies over the limit, stay sections of their own (reported).
    """
    numbers = [b.number for b in blocks if b.number]
    if len(numbers) == len(set(numbers)):
        return blocks, 0
    groups: dict[tuple[str, str], list[Block]] = {}
    others: list[Block] = []
    for block in blocks:
        if block.number and block.heading:
            groups.setdefault((block.number, headword_key(numbered_parts(block.heading.text)[1])), []).append(block)
        else:
            others.append(block)
    merged_count = 0
    result: list[Block] = []
    first_of_number: dict[str, Block] = {}
    for (number, _title), group in sorted(groups.items(), key=lambda item: (int(item[0][0]), _first_line(item[1]))):
        first = first_of_number.setdefault(number, group[0])
        if first is not group[0]:
            warnings.append(
                f"section {number} at line {_first_line(group)} has another title than section {number} "
                f"at line {_first_line([first])}; kept as a section of its own"
            )
        kept, count = _merge_group(number, group, warnings)
        merged_count += count
        result += kept
    leading: list[Block] = []
    for orphan in others:
        home = None
        if orphan.heading is None:
            home = next((b for b in result if copies.contained(orphan.body, b.body)), None)
        if home is not None:
            home.body, _ = copies.merge(home.body, orphan.body, "untitled text")
            warnings.append(
                f"lines {orphan.body[0].number}-{orphan.body[-1].number} repeat part of section {home.number}; merged"
            )
            merged_count += 1
        else:
            leading.append(orphan)
    return leading + result, merged_count


def _first_line(group: list[Block]) -> int:
    heading = group[0].heading
    if heading is None:
        raise ValueError("a numbered section without its heading")
    return heading.number


def _merge_group(number: str, group: list[Block], warnings: list[str]) -> tuple[list[Block], int]:
    """The copies of one section merged into the fullest (plus any copies over the limit), and how many merged."""
    ordered = sorted(group, key=lambda b: -sum(len(p.clean) for p in b.body))
    variants: dict[tuple[str, ...], Block] = {}
    folded = 0
    for block in ordered:
        twin = variants.setdefault(copies.signature(block.body), block)
        if twin is not block:
            copies.fold_identical(twin.body, block.body)
            _absorb_heading(twin, block)
            folded += 1
    distinct = list(variants.values())
    keep, merged, separate = distinct[0], distinct[1:MAX_VARIANTS], distinct[MAX_VARIANTS:]
    for copy in merged:
        _absorb_heading(keep, copy)
        keep.body, notes = copies.merge(keep.body, copy.body, f"section {number}")
        warnings.extend(notes)
    if separate:
        lines = ", ".join(str(_first_line([b])) for b in separate[:10]) + (", ..." if len(separate) > 10 else "")
        warnings.append(
            f"section {number} has {len(distinct)} differing copies; the fullest {MAX_VARIANTS} merged, "
            f"{len(separate)} kept as sections of their own (lines {lines})"
        )
    return [keep, *sorted(separate, key=lambda b: _first_line([b]))], folded + len(merged)


def _absorb_heading(keep: Block, copy: Block) -> None:
    if keep.heading is None or copy.heading is None:
        raise ValueError("a numbered section without its heading")
    keep.heading.duplicates += [copy.heading.number, *copy.heading.duplicates]


_TITLE = re.compile(r"\b(?:RULEBOOK|RULE BOOK|RULES|GLOSSARY|CURRENT RULINGS)\b")
"""A first line in capitals naming the document (``SECOND EDITION RULEBOOK``): its title."""


class _Assembler:
    """Turns blocks into entries, one container (section or sub-section) at a time."""

    def __init__(self, document: Document, titles: frozenset[str]) -> None:
        self.document = document
        self.titles = titles
        self.entries: list[Entry] = []
        self.warnings: list[str] = []

    def block(self, block: Block) -> None:
        heading = block.heading
        if heading is None:
            section = Entry(self.document.title, "preamble", "", [])
        elif block.number:
            number, title = numbered_parts(heading.text)
            section = Entry(title, "section", "", [heading.number], number=number)
        else:
            section = Entry(clean_line(heading.text).rstrip(":"), "section", "", [heading.number])
        if heading:
            section.duplicate_lines += heading.duplicates
        self.entries.append(section)
        container, paragraphs = section, list[str]()
        table_header: list[str] | None = None
        for piece in block.body:
            line = Line(piece.number, piece.text, piece.blank_before, False)
            kind = classify(line)
            if piece.blank_before:
                table_header = None
            if table_header is not None:
                self._row(piece, table_header, section)
                continue
            if kind == "table row":
                table_header = [clean_line(c) for c in piece.text.strip().split("\t") if c.strip()]
                self._add(container, paragraphs, piece)
            elif kind == "caps heading" and heading is None and piece is block.body[0] and _TITLE.search(piece.text):
                self._add(container, paragraphs, piece)  # the document's own title, never an entry
            elif kind == "caps heading":
                self._close(container, paragraphs)
                container, paragraphs = self._entry(piece, clean_line(piece.text), "sub-section", section), []
            elif kind in ("item", "phase", "note"):
                headword, rest = _item_parts(kind, piece.text)
                self._entry(piece, headword, kind, section).text = rest
            elif kind == "card list":
                self._deck(piece, section)
            else:
                self._add(container, paragraphs, piece)
        self._close(container, paragraphs)

    def sort_preamble(self, first: int) -> None:
        """Text before any heading: its entries in line order (phases before prose)."""
        self.entries[first:] = sorted(self.entries[first:], key=lambda e: min(e.lines, default=0))

    def _entry(self, piece: copies.Piece, headword: str, kind: str, section: Entry) -> Entry:
        entry = Entry(headword, kind, "", [piece.number], parent=section.headword)
        entry.duplicate_lines += piece.duplicates
        self.entries.append(entry)
        return entry

    def _add(self, container: Entry, paragraphs: list[str], piece: copies.Piece) -> None:
        container.lines.append(piece.number)
        container.duplicate_lines += piece.duplicates
        paragraphs.append(piece.text)

    def _close(self, container: Entry, paragraphs: list[str]) -> None:
        container.text = join_paragraphs(paragraphs)
        container.lines.sort()

    def _row(self, piece: copies.Piece, header: list[str], section: Entry) -> None:
        cells = [clean_line(c) for c in piece.text.strip().split("\t")]
        entry = self._entry(piece, cells[0], "table row", section)
        entry.fields = {name: cells[i] for i, name in enumerate(header) if i < len(cells) and cells[i]}
        entry.text = " | ".join(cells)
        if len(cells) < len(header):
            missing = ", ".join(header[len(cells) :])
            self.warnings.append(f"{self.document.path}:{piece.number}: table row {cells[0]!r} has no {missing}")

    def _deck(self, piece: copies.Piece, section: Entry) -> None:
        cards, notes = parse_deck_line(piece.text, self.titles)
        entry = self._entry(piece, deck_name(cards), "card list", section)
        entry.cards = cards
        entry.text = clean_line(piece.text)
        self.warnings += [f"{self.document.path}:{piece.number}: {note}" for note in notes]


def _item_parts(kind: str, text: str) -> tuple[str, str]:
    """Headword and text of a one-line entry: a labelled item, a phase, a note."""
    if kind == "item":
        label, rest = label_of(text)
        return label, clean_line(rest)
    if kind == "note":
        return "Source note", clean_line(text)
    return _PHASE_END.sub("", clean_line(text)), ""


def parse_rulebook(document: Document, source: SourceText, titles: frozenset[str]) -> ParseResult:
    """Parse a rulebook into sections and their parts."""
    lines = _lines(source)
    chrome = sorted(set(contents(lines)) | set(furniture(lines)))
    lines, anchored = _anchors([line for line in lines if line.number not in chrome])
    warnings: list[str] = []
    blocks, merged = _merge_repeats(_blocks(lines, anchored), warnings)
    assembler = _Assembler(document, titles)
    for block in blocks:
        first = len(assembler.entries)
        assembler.block(block)
        if block.heading is None:
            assembler.sort_preamble(first)
    entries = [e for e in assembler.entries if e.lines]
    result = ParseResult(
        document=document,
        entries=entries,
        line_count=len(source.lines),
        nonblank=[line.number for line in lines],
        warnings=[f"{document.path}: {w}" for w in warnings] + assembler.warnings,
        duplicates_merged=merged,
        chrome=chrome,
    )
    mark_cut(result)
    return result


def _anchors(lines: list[Line]) -> tuple[list[Line], set[int]]:
    """Lines ``back to top of page X`` as the heading ``X`` of a top-level section (and their numbers)."""
    out: list[Line] = []
    anchored: set[int] = set()
    for line in lines:
        heading = anchored_heading(line.text)
        if heading is None:
            out.append(line)
        else:
            out.append(Line(line.number, heading, line.blank_before, line.blank_after))
            anchored.add(line.number)
    return out, anchored
