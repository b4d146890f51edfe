"""The answers about texts: a version as an answer part, its sources and endings, and the answers of
`show`, `blame`, `history`, `as_of` and `search`."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

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


class Restated(Source):
    """A later release that restated a version's text with the same words (`kb.read.parts`):
    the release in force on the date asked, cited first, the version's own first printing
    after it ("unchanged since"); ``typography``: whether this release prints it with other
    quotes, dashes, spaces or line breaks (`kb.typography`)."""

    typography: bool


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


class RuleNode(TypedDict):
    """A numbered rule under another as the document prints it (`kb.read.rules.tree`): its
    ``number``, topic id, text in force, the topics its text cites (``links``: each with the
    words that name it) and the rules under it in turn, in number order."""

    number: str
    topic: str
    text: str
    links: list[TopicRef]
    children: list[RuleNode]


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
    restated: Restated | None
    """The latest release on or before the date asked that restated this text with the same
    words (a release of numbered rules), to cite first; None when none did: ``citation`` alone."""
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
    cites: list[TopicRef]
    """The topics its texts in force cite ("See rule 702.2"), each with the words that name it."""
    rules: list[RuleNode]
    """A numbered rule's subrules as printed, with their text (`kb.read.rules.tree`); else empty."""
    library_starts: str | None
    """The date of the library's first document of the topic's game when the date asked is before
    it (the library cannot say what was in force then); else None."""
    first_in_force: str | None
    """The date the topic's first text comes into force when the date asked is before it; else None."""


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
    unmatched: list[str]
    """Words of the query no text of the library holds, as typed (`kb.search.unmatched`)."""
    matched: list[str]
    """When some words matched nothing, the words the results match (else empty)."""
    weak: bool
    """Some words matched nothing and every word matched is common (names no entry or card)."""
    unmatched_note: str | None
    """The sentence saying so, as the pages and the command line show it (None when all matched)."""
    also_searched: dict[str, list[str]]
    """A word typed -> the words its game's rules use for it, searched with it (`kb.search.players`)."""
    by_meaning: bool
    """The results were re-ranked by meaning as well as by words (`kb.meaning.ranking`)."""
