"""The answers about what changed and where it was written: a diff, the documents in force and
their pages, a version's permalink, the comparison of two versions, and what the offline export
lists and searches."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from kb.answers.texts import Citation, Ending, HistoryVersion, Part, Restated, Source
from kb.paging import PageFacts


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


class Typography(DiffItem):
    """A topic whose text in force is restated between the two dates with the same words, its
    quotes, dashes, spaces or line breaks alone differing (`kb.typography`): not a change of rule,
    shown apart and not counted. ``document``: the release that printed it so (its id, title,
    version, date and ``lines``); ``diff``: the word diff of the two printings."""

    document: Source
    diff: list[tuple[str, str]]


class Pending(Part):
    """A version published between the two dates that is not yet in force at the end."""


DiffAnswer = TypedDict(
    "DiffAnswer",
    {"from": str, "to": str, "added": list[Added], "changed": list[Changed], "rescinded": list[Rescinded],
     "pending": list[Pending], "counts": dict[str, int], "starts": dict[str, int], "page": PageFacts,
     "typography": list[Typography]},
)  # fmt: skip
"""Topics added, changed, rescinded and pending between two dates (`KnowledgeBase.diff`): those
of one page (`kb.paging`; paged in the order shown, changed, added, rescinded, pending), how many
of each kind there are in all, and the offset where each kind's items start (``starts``: the page
that holds a section); apart, every topic whose text was restated in another typography alone
(``typography``: not counted, never paged)."""


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
    the date it is seen on (``as_of``), and ``now``: for a version no longer in force then, its
    series' text in force then (key, dates, citation; ``{"key": None}`` when nothing is), None
    while it is in force."""

    topic: str
    as_of: str
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
    restated: Restated | None
    """The release in force on the export's day that restated the text, cited first (`kb.read.parts`)."""
    partial: str | None
    restates: bool
    """A Glossary entry restating a numbered rule: ranked after the rules (`kb.search.restating`)."""
    cites: NotRequired[list[int]]
    """Such an entry's numbered rules cited, by their number among the documents: placed just
    before it when the query names it."""
    defines: NotRequired[list[str]]
    """The words of the section title a numbered rule says the meaning of: first when the query names it."""
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
    length, each folded word's postings, the filler words, the numbers' two spellings, the
    fields' boosts (`kb.boosts`), the server's own postings of the card names and extra text
    when its index is the one searched on that day, the card lists."""

    today: str
    documents: list[OfflineDocument]
    averages: list[float]
    postings: dict[str, list[int]]
    filler: list[str]
    numerals: dict[str, str]
    """A number in words -> in digits and back (`kb.search.questions.NUMERALS`)."""
    boosts: dict[str, float]
    indexed: NotRequired[dict[str, dict[str, list[int]]]]
    card_lists: list[str]
    players_weight: float
    players: dict[str, dict[str, list[str]]]
    """Each game of the copy declaring players' words -> its words' stems -> the rules' words for
    them (`kb.search.players`)."""


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
