"""The shapes of the answers a knowledge base gives: what `kb.query.KnowledgeBase` returns,
what the command line prints and the pages show, and what the ``--json`` twins carry.

Each answer is a plain dict (JSON-ready); these TypedDicts name every key and its type, so
the type checker sees each key a producer writes and a reader reads. A key is never
optional: an answer that has nothing for a key carries None or an empty list.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NotRequired, TypedDict

from kb.paging import PageFacts


def iso(value: dt.date | None) -> str | None:
    """A date as an answer gives it: ISO text, or None."""
    return value.isoformat() if value else None


class Source(TypedDict):
    """A document and the lines of it that wrote a text: its id, title, version and date."""

    document: str
    title: str
    version: str
    date: str | None
    lines: str


class CitedSource(Source):
    """One of several documents that wrote a version's text, and the paragraphs of that text it
    wrote (``¶1–2``; a paragraph of sentences from two documents is of both)."""

    paragraphs: str


class Citation(Source):
    """Where a version's text comes from: the document, its title, version and date, the lines;
    ``sources``: when more than one document wrote it (an amended text), each of them, first
    written first (`kb.read.sources`); empty when the cited document wrote all of it."""

    sources: list[CitedSource]


class SentenceSource(TypedDict):
    """One sentence of a version's text (numbered from 1 in its paragraph) and its source."""

    paragraph: int
    sentence: int
    text: str
    source: Source


class ParagraphSource(TypedDict):
    """One paragraph of a version's text (numbered from 1) and its source; None when its
    sentences come from different documents, then each sentence with its own (``sentences``,
    else empty)."""

    paragraph: int
    source: Source | None
    sentences: list[SentenceSource]


class Ending(TypedDict):
    """When, by which document (and lines) and why a version stopped being in force."""

    date: str
    reason: str
    why: str
    document: str
    title: str
    version: str
    lines: str
    successor: str | None
    """The permalink key of the version that superseded it, if one did."""


class TopicRef(TypedDict):
    """A topic named by id and headword (a back reference)."""

    topic: str
    headword: str


class GivesWay(TypedDict):
    """The text in force that governs over a part, and why (`kb.read.standing.govern`)."""

    key: str
    topic: str
    headword: str
    label: str
    date: str | None
    why: str


class Part(TypedDict):
    """One version as an answer part (`KnowledgeBase.part`). ``number`` of ``of``: its place in
    its topic's series, oldest first; ``partial``: what its text lacks (None: whole);
    ``sections``: the sections under an empty heading; ``gives_way``: what governs over it
    among the texts shown with it, ``governs``: what it governs over (`kb.read.standing`);
    ``paragraphs``: the source of each paragraph (and sentence, where they differ)."""

    version: int
    key: str
    topic: str
    game: str
    number: int
    of: int
    series: str
    label: str
    headword: str
    text: str
    status: str
    authority: str
    operation: str
    valid_from: str | None
    valid_to: str | None
    ended: str | None
    note: str
    condition: str | None
    references: list[str]
    summary: str | None
    citation: Citation
    ended_by: Ending | None
    cards: list[str]
    partial: str | None
    sections: list[TopicRef]
    gives_way: GivesWay | None
    governs: str | None
    paragraphs: list[ParagraphSource]
    """Each paragraph of the text with the document that wrote it (`kb.read.sources`)."""


class Entry(TypedDict):
    """A topic with the parts of it an answer shows."""

    topic: str
    headword: str
    parts: list[Part]


class ShowAnswer(TypedDict):
    """Every series' text in force for a topic on a date (`KnowledgeBase.show`)."""

    topic: str
    headword: str
    game: str
    as_of: str
    text: str
    parts: list[Part]
    ended: list[Part]
    pending: list[Part]
    backrefs: list[TopicRef]
    cards: list[str]


class BlamePart(TypedDict):
    """One text in force of a topic, sentence by sentence, each beside its source."""

    key: str
    label: str
    number: int
    of: int
    status: str
    valid_from: str | None
    citation: Citation
    sentences: list[SentenceSource]


class BlameAnswer(TypedDict):
    """Each sentence of a topic's texts in force on a date with the document that wrote it
    (`KnowledgeBase.blame`, ``rulings blame``)."""

    topic: str
    headword: str
    as_of: str
    parts: list[BlamePart]


class HistoryVersion(Part):
    """A version of a topic's history, with the word diff against the one it supersedes."""

    supersedes: int | None
    diff: list[tuple[str, str]]


class HistoryAnswer(TypedDict):
    """Every version of a topic, oldest first (`KnowledgeBase.history`)."""

    topic: str
    headword: str
    versions: list[HistoryVersion]


class AsOfAnswer(TypedDict):
    """The whole knowledge base in force on a date (`KnowledgeBase.as_of`)."""

    as_of: str
    topics: list[Entry]
    page: PageFacts
    """Which of the topics in force this answer holds (`kb.paging`)."""


class SearchResult(Part):
    """A search hit: the version's part, its topic, the marked snippet, and whether the query
    names the entry (``full``: show its whole text)."""

    snippet: str
    full: bool


class HistoryResult(SearchResult):
    """A hit of a search over every version or as of a past date: a topic's newest matching
    version, and the ids of all its versions matching (``matching``, oldest first)."""

    matching: list[int]


class SearchAnswer(TypedDict):
    """The best hits for a query (`KnowledgeBase.search`)."""

    query: str
    as_of: str | None
    results: list[SearchResult | HistoryResult]
    corrected: str | None
    meant: list[str]
    """Two likely corrections (each the query it makes), both searched: "did you mean"."""
    suggestion: str | None
    start: int
    """How many results come before these (a page of them)."""
    more: bool
    """Whether more results follow these."""
    partial: bool
    left_out: list[str]


class CardVersion(TypedDict):
    """A version that ever named a card, and how (``via``)."""

    topic: str
    headword: str
    series: str
    valid_from: str | None
    valid_to: str | None
    operation: str
    status: str
    via: list[str]
    citation: Citation


class CardRuling(TypedDict):
    """A ruling in force about a card, dated (``since``)."""

    since: str | None
    topic: str
    headword: str
    label: str
    text: str
    key: str
    citation: Citation


class CardRef(TypedDict):
    """Another card a name also names (or, in a pair, a game term: ``term`` true, ``key`` its topic id)."""

    name: str
    game: str
    key: str
    term: NotRequired[bool]


class CardFacts(TypedDict):
    """The catalog's facts of a card; ``printed``: whether any printing gives set, rarity, text or lore."""

    name: str
    game: str
    type: str | None
    sets: list[str]
    affiliation: str | None
    uniqueness: str | None
    persona: str | None
    aliases: list[str]
    printings: list[dict[str, Any]]
    printed: bool


class CardAnswer(CardFacts):
    """Everything that touches one card on a date (`KnowledgeBase.card`)."""

    key: str
    as_of: str
    headed: list[Entry]
    entries: list[Entry]
    rulings: list[CardRuling]
    history: list[CardVersion]
    same_name: list[CardRef]


class CardPage(CardAnswer):
    """A card's page on the web (`web.cards`): the answer limited to the page's topics, and where
    the page stands among all of them."""

    page: PageFacts


class DeckCard(TypedDict):
    """One card of a deck list, with its rulings in force."""

    name: str
    key: str
    count: int
    type: str | None
    entries: list[Entry]


class UnknownDeckName(TypedDict):
    """A name of a deck list that is no card's, with close names."""

    name: str
    count: int
    suggestions: list[str]


class PairEntry(Entry):
    """An entry bearing on two cards together: ``rank`` 0 names both, 1 names one and is a rule
    the other's rulings refer to, 2 is a rule both refer to; ``why`` says which in words."""

    rank: int
    why: str


class PairAnswer(TypedDict):
    """The entries in force that bear on two cards together, best first (`KnowledgeBase.together`)."""

    cards: list[CardRef]
    as_of: str
    entries: list[PairEntry]


class DeckAnswer(TypedDict):
    """Every card of a deck list with its rulings in force (`KnowledgeBase.deck`)."""

    as_of: str
    cards: list[DeckCard]
    unknown: list[UnknownDeckName]
    skipped: int
    headers: list[str]
    total: int
    page: PageFacts
    """Which of the known cards ``cards`` holds (`kb.paging`)."""


class DiffItem(TypedDict):
    """A topic in a diff."""

    topic: str
    headword: str


class Added(DiffItem):
    """A topic with nothing in force at the start and something at the end; ``moved_from``: the
    number its text stood at before it moved (a rule renumbered), else None."""

    text: str
    parts: list[Part]
    moved_from: str | None


class Changed(DiffItem):
    """A topic whose text (or notes) in force differ between the two dates: the texts in force
    at the end (``parts``) and how each text in force at the start and not at the end ended."""

    diff: list[tuple[str, str]]
    parts: list[Part]
    ended_by: list[Ending | None]
    moved_from: str | None
    """The number its text stood at before it moved (a rule renumbered), else None."""


class Rescinded(DiffItem):
    """A topic with something in force at the start and nothing at the end."""

    text: str
    ended: list[str | None]
    ended_by: list[Ending | None]


class Pending(Part):
    """A version published between the two dates that is not yet in force at the end."""


DiffAnswer = TypedDict(
    "DiffAnswer",
    {"from": str, "to": str, "added": list[Added], "changed": list[Changed], "rescinded": list[Rescinded],
     "pending": list[Pending], "counts": dict[str, int], "page": PageFacts},
)  # fmt: skip
"""Topics added, changed, rescinded and pending between two dates (`KnowledgeBase.diff`): those
of one page (`kb.paging`), and how many of each kind there are in all."""


class DocumentFacts(TypedDict):
    """A library document: id, game, kind, title, version, date."""

    id: str
    game: str
    kind: str
    title: str
    version: str
    date: str | None


class ReplacedDocument(DocumentFacts):
    """A document replaced by a later one."""

    replaced_by: str


class DeclaredName(TypedDict):
    """A name of a declared complete set, and the library document it means (None: lacking)."""

    name: str
    document: str | None


class Declaration(DocumentFacts):
    """A document declaring a complete set of rules."""

    set: list[DeclaredName]


class DocumentsAnswer(TypedDict):
    """The documents in force on a date and the complete sets declared (`KnowledgeBase.documents_in_force`)."""

    as_of: str
    declared_by: str | None
    complete_set: list[str]
    documents: list[DocumentFacts]
    replaced: list[ReplacedDocument]
    later: list[DocumentFacts]
    declarations: list[Declaration]


class DocumentDetails(TypedDict):
    """The library's other facts of a document, beside `DocumentFacts`: whether its date is
    approximate (0 or 1), its note, the dates it states of itself and the one before it, and
    how many lines its source has."""

    date_approximate: int
    note: str
    declared_date: str | None
    previous_date: str | None
    line_count: int


class DocumentRecord(DocumentFacts, DocumentDetails):
    """A document as the documents page lists it: its facts and the library's other facts of it."""


class ReplacedRecord(ReplacedDocument, DocumentDetails):
    """A replaced document as the documents page lists it."""


class DocumentsPage(TypedDict):
    """The documents page (`KnowledgeBase.documents_page`): `DocumentsAnswer` with every fact
    of each document listed."""

    as_of: str
    declared_by: str | None
    complete_set: list[str]
    documents: list[DocumentRecord]
    replaced: list[ReplacedRecord]
    later: list[DocumentRecord]
    declarations: list[Declaration]


class DocumentLine(TypedDict):
    """One line of a document's source: its number (from 1), its text, and whether it is cited."""

    number: int
    text: str
    cited: bool


class DocumentPage(DocumentRecord):
    """One document's page (`KnowledgeBase.document_page`): its facts, the complete set of rules
    it declares (empty when none) and its source line by line."""

    complete_set: list[str]
    lines: list[DocumentLine]


class Comparison(TypedDict):
    """Two versions of a topic's history and the word diff from the first to the second
    (`KnowledgeBase.compared`)."""

    a: HistoryVersion
    b: HistoryVersion
    diff: list[tuple[str, str]]


class VersionPage(Part):
    """A version's permalink page (`KnowledgeBase.version_page`): the version as a part, its topic,
    and ``now``: for a version no longer in force, its series' text in force then (key, dates,
    citation; ``{"key": None}`` when nothing is), None while it is in force."""

    topic: str
    now: dict[str, Any] | None


class OfflineDocument(TypedDict):
    """A version in force in the export's search index (`kb.search.offline`): what a hit shows,
    what the browser's filters test, and its fields' lengths as the server's index stores them."""

    id: int
    topic: str
    key: str
    headword: str
    label: str
    status: str
    game: str
    kind: str
    cards: str
    text: str
    extra: NotRequired[str]
    """The extra text searched (`kb.texts.extra_text`), when the version has any."""
    document: str
    citation: Citation
    partial: str | None
    name: str
    refers: list[str]
    tier: int
    since: str
    heading: bool
    candidate: bool
    named: list[str]
    lengths: list[int]


class OfflineIndex(TypedDict):
    """The browser's search index of an export, of the versions in force on ``today``
    (`KnowledgeBase.offline_index`, `kb.search.offline`): the documents, each field's average
    length, each folded word's postings, the filler words, the server's own postings of the card
    names and extra text when its index is the one searched on that day, the card lists."""

    today: str
    documents: list[OfflineDocument]
    averages: list[float]
    postings: dict[str, list[int]]
    filler: list[str]
    indexed: NotRequired[dict[str, dict[str, list[int]]]]
    card_lists: list[str]


class SiteCard(TypedDict):
    """A card of the catalog as an export lists it: its key, name and aliases."""

    key: str
    name: str
    aliases: list[str]


class SitePages(TypedDict):
    """What a static export has a page of (`KnowledgeBase.site_pages`, `kb.read.listing`): the
    documents, topics and version keys (sorted), the cards (by key), the documents' dates and
    ``days``: the dates on which what is in force can change."""

    documents: list[str]
    dates: list[str]
    days: list[str]
    topics: list[str]
    versions: list[str]
    cards: list[SiteCard]
