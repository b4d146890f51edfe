"""The answers about cards: a card's rulings and history, two cards together, a deck."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from kb.answers.texts import Citation, Entry
from kb.paging import PageFacts


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
