"""Find the cards an entry's text mentions: precise, longest match first.

A title matches a run of words whose `title_key` is the same (so ``I.K.S.``/``IKS``,
``Bio-ship``/``Bioship``, curly/straight quotes and possessives are equivalent) and whose
capitalised words are capitalised in the text too: the card ``Ops`` is not the word "ops".
A one-word title does not match as one word of a longer capitalised name ("Deep Space
Nine", "Bajoran Wormhole"), nor, when it is also an ordinary word of the documents (it
appears in lower case somewhere), at the start of a sentence. A title followed by
``& Capitalised`` is the start of a longer combination title, not that card.
``[univ] Nebula`` is ``Nebula``. "any Miles" names every card of that persona.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kb.build.catalog import Card, Catalog
from kb.model import Topic, Version
from rulings.normalize import fold_quotes, title_key, without_universal

TEXT_WORD = re.compile(r"\w(?:[\w'\u2019.\-]*\w)?\.?")
ANY_PERSONA = re.compile(r"\bany ([A-Z][\w'\u2019]*)")
_AMPERSAND = re.compile(r"\s*&\s+[A-Z]")
_LOWER_WORD = re.compile(r"\b[a-z][a-z'\-]*\b")
_SENTENCE_END = re.compile(r"[.!?:]\s*[\"'\u201c\u2018(]*\s*$")
MAX_TITLE_WORDS = 12
Title = tuple[tuple[str, ...], tuple[bool, ...], "Card"]
"""A spelling of a card: every word's `title_key`, which words are capitalised, the card."""


@dataclass(frozen=True)
class Mention:
    """A card named in a text, where, and how."""

    card: str
    """The card's catalog key."""
    name: str
    """The card's name."""
    start: int
    end: int
    via: str
    """``title`` (its title or an alias) or ``persona`` ("any Miles")."""


def persona_names(card: Card) -> list[str]:
    """The personas a card is one of (its name when it names none): what "any X" links to."""
    names = [p.strip() for p in card.persona.split(";") if p.strip()]
    if not names:
        return [card.name]
    return [p.strip("()") for p in names if not p.startswith("<")]


class Linker:
    """Matches the titles of one game's cards in texts."""

    def __init__(self, cards: Iterable[Card], ordinary_words: set[str]) -> None:
        self.titles: dict[str, list[Title]] = {}
        """First word's key -> (every word's key, which words are capitalised, card), longest first."""
        self.personas: dict[str, list[Card]] = {}
        self.ordinary = ordinary_words
        self.keys: dict[str, str] = {}
        """`title_key` of each word seen in a text (a library's texts repeat few thousand words)."""
        for card in cards:
            for spelling in [card.name, *card.aliases]:
                words = [(title_key(w.group(0)), w.group(0)) for w in TEXT_WORD.finditer(fold_quotes(spelling))]
                keys = tuple(k for k, _ in words if k)
                capitals = tuple(w[:1].isupper() for k, w in words if k)
                if keys and len(keys) <= MAX_TITLE_WORDS:
                    self.titles.setdefault(keys[0], []).append((keys, capitals, card))
            if card.type == "Personnel":
                for persona in persona_names(card):
                    for word in persona.split():
                        self.personas.setdefault(title_key(word), []).append(card)
        self.by_length: dict[str, list[tuple[int, dict[tuple[str, ...], list[Title]]]]] = {}
        """First word's key -> (length, every word's key -> its titles), longest first: the titles
        of `titles` a text's words can match, found by lookup."""
        for first, candidates in self.titles.items():
            candidates.sort(key=lambda c: -len(c[0]))
            lengths: dict[int, dict[tuple[str, ...], list[Title]]] = {}
            for candidate in candidates:
                lengths.setdefault(len(candidate[0]), {}).setdefault(candidate[0], []).append(candidate)
            self.by_length[first] = list(lengths.items())

    def mentions(self, text: str) -> list[Mention]:
        """Every card mentioned in ``text``, in order; overlapping matches keep the longest."""
        words = list(TEXT_WORD.finditer(text))
        known = self.keys
        keys = [known.get(w) or self._key(w) for w in (m.group(0) for m in words)]
        found: list[Mention] = []
        index = 0  # the first word not inside a match
        starts = [i for i, key in enumerate(keys) if key in self.titles]  # a word no title starts with never matches
        for start in starts:
            if start < index:
                continue
            match = self._match(text, words, keys, start)
            if match:
                length, card = match
                found.append(
                    Mention(card.key, card.name, words[start].start(), words[start + length - 1].end(), "title")
                )
                index = start + length
        personas = self._personas(text)
        spans = [(m.start, m.end) for m in personas]
        found = [m for m in found if not any(a <= m.start and m.end <= b for a, b in spans)]
        return sorted(found + personas, key=lambda m: (m.start, m.card))

    def _key(self, word: str) -> str:
        key = self.keys.get(word)
        if key is None:
            key = self.keys[word] = title_key(word)
        return key

    def _match(self, text: str, words: list[re.Match[str]], keys: list[str], index: int) -> tuple[int, Card] | None:
        for length, titles in self.by_length.get(keys[index], []):
            for title, capitals, card in titles.get(tuple(keys[index : index + length]), []):
                if self._fits(text, words, index, title, capitals):
                    return length, card
        return None

    def _fits(self, text: str, words: list[re.Match[str]], index: int, title: tuple[str, ...],
              capitals: tuple[bool, ...]) -> bool:  # fmt: skip
        """Whether the words from ``index`` that have ``title``'s keys are that title as written."""
        written = words[index : index + len(title)]
        if any(cap and not w.group(0)[:1].isupper() for cap, w in zip(capitals, written, strict=True)):
            return False
        if len(title) == 1 and _looks_like_prose(text, words, index, title[0] in self.ordinary):
            return False
        return not _AMPERSAND.match(text, words[index + len(title) - 1].end())

    def _personas(self, text: str) -> list[Mention]:
        out = []
        for match in ANY_PERSONA.finditer(fold_quotes(text)):
            for card in self.personas.get(title_key(match.group(1)), []):
                out.append(Mention(card.key, card.name, match.start(), match.end(), "persona"))
        return out


def _looks_like_prose(text: str, words: list[re.Match[str]], index: int, ordinary: bool) -> bool:
    """Whether a capitalised one-word title is capitalised for another reason than being a
    title: it is one word of a longer proper name ("Deep Space Nine", "Bajoran Wormhole"),
    or, for an ordinary word, it starts a sentence."""
    before = text[: words[index].start()]
    if ordinary and (not before.strip() or _SENTENCE_END.search(before) or before.endswith("\n")):
        return True
    for other in (index - 1, index + 1):
        if 0 <= other < len(words):
            first, second = sorted((words[other], words[index]), key=lambda w: w.start())
            if words[other].group(0)[:1].isupper() and not text[first.end() : second.start()].strip():
                return True
    return False


def ordinary_words(texts: Iterable[str]) -> set[str]:
    """Words that appear in lower case somewhere in ``texts`` (as title keys)."""
    written: set[str] = set()
    for text in texts:
        written.update(_LOWER_WORD.findall(text))
    return {title_key(w) for w in written}


def link_versions(versions: Iterable[Version], topics: dict[str, Topic], catalog: Catalog,
                  ordinary: set[str]) -> list[tuple[int, str, str]]:  # fmt: skip
    """(version id, card key, via) for every card each version names: in its text, its
    "See" references, or as the title heading its topic. ``ordinary``: the `ordinary_words`
    of the library's entry texts."""
    linkers = {
        game: Linker([c for c in catalog.cards.values() if c.game == game], ordinary) for game in catalog.games()
    }
    titles = catalog.by_title()
    links: list[tuple[int, str, str]] = []
    for version in versions:
        game = topics[version.topic].game
        linker = linkers.get(game)
        if linker is None:
            continue
        seen: dict[tuple[str, str], None] = {}
        headed = titles.get((game, title_key(without_universal(version.headword))))
        if headed:
            seen[(headed, "headword")] = None
        seen.update(dict.fromkeys((m.card, m.via) for m in linker.mentions(version.text)))
        for reference in version.references:
            seen.update(dict.fromkeys((m.card, "reference") for m in linker.mentions(reference) if m.via == "title"))
        links += [(version.id, card, via) for card, via in seen]
    return links
