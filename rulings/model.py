"""The data the parsers produce: documents, entries, and what was left over.

Every entry remembers the 1-based line span it came from, so that any text shown to a
user can be cited back to its source lines. Nothing here knows about storage.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from rulings.amendments import Amendment
from rulings.errors import ParseError as ParseError

AUTHORITIES = ("official", "temporary", "informal")
"""How binding an entry is: published rules, temporary rulings awaiting a Glossary, or Q&A answers."""


@dataclass(frozen=True)
class Span:
    """An inclusive range of 1-based source lines."""

    start: int
    """First line."""
    end: int
    """Last line (inclusive)."""

    def __str__(self) -> str:
        return f"{self.start}" if self.start == self.end else f"{self.start}-{self.end}"


@dataclass(frozen=True)
class CardCount:
    """One card named in a deck list."""

    group: str
    """The deck list's group heading, e.g. ``SHIPS``."""
    name: str
    """The card title as printed."""
    count: int
    """How many copies (``U.S.S. Galaxy (2)`` is 2)."""
    known: bool = True
    """False when the name was not segmented with a known title (a guess, reported)."""


@dataclass
class Entry:
    """One unit of a document: a section, a glossary entry, a ruling, a table row..."""

    headword: str
    """The entry's title as printed (section title, glossary headword, ruling topic)."""
    kind: str
    """section, sub-section, item, phase, glossary entry, ruling, change summary,
    card list, table row, introduction, note."""
    text: str
    """The entry's text, paragraphs separated by blank lines (no headword)."""
    lines: list[int]
    """Every source line this entry's text was taken from, ascending."""
    number: str | None = None
    """The section number as printed (``02``), for numbered sections."""
    parent: str | None = None
    """The headword of the section this entry sits in, if any."""
    marked: bool = False
    """A ruling marked ``*``: new or changed since the previous Current Rulings."""
    references: list[str] = field(default_factory=list)
    """Topics this entry points to with "See X" (not part of its searchable text)."""
    summary_of: str | None = None
    """For a change summary: the headword of the ruling it summarises."""
    summary: str | None = None
    """For a ruling: the text of its change summary, if the document has one."""
    cards: list[CardCount] = field(default_factory=list)
    """For a card list: the cards and counts."""
    fields: dict[str, str] = field(default_factory=dict)
    """For a table row: column name to cell text."""
    duplicate_lines: list[int] = field(default_factory=list)
    """Lines of repeated copies merged into this entry (counted, not shown twice)."""
    amendment: Amendment | None = None
    """For a ruling: the instruction it gives about another entry, if any."""
    effective_release: str | None = None
    """For a ruling "effective upon release of X": X."""
    authority: str = "official"
    """One of `AUTHORITIES`."""
    date: dt.date | None = None
    """For a ruling of a dated list: its own date (it takes effect then, not on the document's date)."""
    until: dt.date | None = None
    """For a dated entry the document says ended (a rule superseded or rescinded): when it ended."""
    ended: str = ""
    """How it ended (``superseded``, ``rescinded``), with ``until``."""
    partial: bool = False
    """The text is cut off (mid-word or mid-sentence) where the file or a page of it ends
    (`rulings.entries.partial`)."""

    @property
    def span(self) -> Span:
        """The first and last line of the entry's own text."""
        return Span(min(self.lines), max(self.lines))


@dataclass
class Document:
    """A source document: manifest metadata plus what its text declares."""

    id: str
    """Stable identifier from the manifest (or the file name when parsed alone)."""
    path: str
    """The file, as given."""
    game: str
    """Game slug, e.g. ``stccg``."""
    kind: str
    """The name of its kind (`rulings.kinds.names`)."""
    title: str
    """Title from the manifest."""
    version: str = ""
    """Version label from the manifest."""
    date: dt.date | None = None
    """Date the document took effect (manifest)."""
    date_approximate: bool = False
    """True when the manifest's date is a best guess."""
    supersedes: str | None = None
    """Id of the document this one replaces."""
    note: str = ""
    """Free-text note from the manifest."""
    part: str = ""
    """The part of an edition this document is (``M-O``: one page of a Current Rulings or FAQ
    published a page per letter range or subject); empty for a whole document. A part never
    rescinds what it does not hold."""
    url: str = ""
    """Where the document was downloaded from (``url`` in the manifest, written by ``rulings update``)."""
    force_contradiction: bool = False
    """True when the manifest keeps the kind and date it gives although the text says otherwise
    (`rulings.self_description`): each contradiction is then a warning, not an error."""
    declared_date: dt.date | None = None
    """The date the text itself states (e.g. ``11/27/00``)."""
    previous_date: dt.date | None = None
    """The date of the previous Current Rulings the text names."""
    complete_set: list[str] = field(default_factory=list)
    """The documents the text says form a complete set of rules."""
    encoding: str = "utf-8"
    """How the file was decoded."""
    accept_unread: bool = False
    """Keep the document even when little of it reads as its kind expects (``accept_unread`` in
    the manifest, ``--accept-unread``); see `rulings.reading`."""
    unread: str = ""
    """For a document kept so: the line that would have refused it (every version of it says so)."""


@dataclass(frozen=True)
class NotEntry:
    """An entry-looking line (``Headword - text``) read as part of another entry instead of starting one."""

    line: int
    """The 1-based source line."""
    headword: str
    """The headword the line seems to start."""
    within: str
    """The headword of the entry it was read into ("" when it is in no entry: text before the first one)."""
    reason: str
    """Why it does not start an entry, in a few words (``out of alphabetical order``...)."""


@dataclass
class ParseResult:
    """Everything one parse produced: nothing from the source is silently dropped."""

    document: Document
    """The document and what it declares."""
    entries: list[Entry]
    """Entries in reading order (numbered sections in number order)."""
    line_count: int
    """Number of lines in the source."""
    nonblank: list[int]
    """The source's non-blank line numbers."""
    chrome: list[int] = field(default_factory=list)
    """Lines recognised as forum chrome (titles, navigation, copyright)."""
    unparsed: list[int] = field(default_factory=list)
    """Non-blank lines no rule accounted for."""
    split: list[int] = field(default_factory=list)
    """Lines holding several entries glued together (each such line is in each of them)."""
    warnings: list[str] = field(default_factory=list)
    """Findings worth a look, each ``file:line: message``."""
    duplicates_merged: int = 0
    """How many repeated copies of a section were merged."""
    lines: list[str] = field(default_factory=list)
    """The decoded source lines (index 0 is line 1), for showing the source."""
    not_entries: list[NotEntry] = field(default_factory=list)
    """Entry-looking lines that do not start an entry (each also warned): a merge is never silent."""

    def not_entry(self, line: int, headword: str, within: str, reason: str) -> None:
        """Record that ``line`` looks like the entry ``headword`` but is read as part of ``within``, and warn."""
        self.not_entries.append(NotEntry(line, headword, within, reason))
        where = f"read as part of {within!r}" if within else "not read as an entry"
        self.warnings.append(f"{self.document.path}:{line}: {headword!r} looks like an entry but is {where} ({reason})")
