"""Find the cards an entry's text mentions: precise, longest match first.

A title matches a run of words whose `title_key` is the same (so ``I.K.S.``/``IKS``,
``Bio-ship``/``Bioship``/``Bio–ship``, curly/straight quotes, possessives and accents, however
encoded, are equivalent) and whose capitalised words are capitalised in the text too: the card
``Ops`` is not the word "ops".
A one-word title does not match as one word of a longer capitalised name ("Deep Space
Nine", "Bajoran Wormhole": capitalised words on one line, no sentence ending between
them), nor, when it is also an ordinary word of the documents (it appears in lower case
somewhere), at the start of a sentence. A title followed by ``& Capitalised`` is the start
of a longer combination title, not that card. A title that is also a skill's name
(`SKILLS`: Interrogation, Torture) written as the skill ("add 1 to Interrogation or
Torture", "Torture skill") is not the card, nor is an FAQ's ``Q:`` opening a line.
``[univ] Nebula`` is ``Nebula``; a headword
names a card as the Glossary prints titles (`kb.catalog.headword_titles`). "any Miles"
names every card of that persona.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kb.ingest.catalog import Card, Catalog, headword_titles
from kb.model import Topic, Version
from rulings.normalize import fold_quotes, title_key

_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
"""Combining marks (a decomposed ``é`` is ``e`` and U+0301), which ``\\w`` does not match."""
TEXT_WORD = re.compile(rf"\w(?:[\w'\u2019.\-{_MARKS}]*[\w{_MARKS}])?\.?")
"""A word of a text, its apostrophes, hyphens, full stops and accents (however encoded) inside it."""
ANY_PERSONA = re.compile(rf"\bany ([A-Z][\w'\u2019{_MARKS}]*)")
_AMPERSAND = re.compile(r"\s*&\s+[A-Z]")
_LOWER_WORD = re.compile(r"\b[a-z][a-z'\-]*\b")
_SENTENCE_END = re.compile(r"[.!?:]\s*[\"'\u201c\u2018(]*\s*$")
_ABBREVIATIONS = frozenset(
    re.findall(r"\w+", "Adm Capt Cdr Cmdr Col Cpt Dr Ens Gen Jr Lieut Lt Maj Mr Mrs Ms No Prof Sgt St")
)
"""Words that end with a full stop without ending a sentence (titles of address...)."""
SKILLS = frozenset(
    title_key(skill)
    for skill in re.findall(
        r"\w+",
        "Acquisition Anthropology Archaeology Astrophysics Biology Computer Cybernetics Diplomacy Empathy Engineer "
        "Exobiology Geology Greed Honor Interrogation Law Leadership Medical Mindmeld Music Navigation Officer Physics "
        "Programming Resistance Science Security Smuggling Telepathy Torture Treachery Youth",
    )
)
"""Skills of the First Edition's personnel (one-word names): some are card titles too (Interrogation, Torture)."""
_SKILL_AFTER = re.compile(r"\s*(?:skill|x\s?\d)", re.I)
_SKILL_BEFORE = re.compile(r"\b\d+\s+(?:to\s+)?$")
_LISTED_AFTER = re.compile(r"\s*(?:,|/|\bor\b|\band\b)\s*(?P<word>\w+)")
_LISTED_BEFORE = re.compile(r"(?P<word>\w+)\s*(?:,|/|\bor\b|\band\b)\s*$")
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
            for spelling in card.spellings():
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

    def _fits(
        self, text: str, words: list[re.Match[str]], index: int, title: tuple[str, ...], capitals: tuple[bool, ...]
    ) -> bool:
        """Whether the words from ``index`` that have ``title``'s keys are that title as written."""
        written = words[index : index + len(title)]
        if any(cap and not w.group(0)[:1].isupper() for cap, w in zip(capitals, written, strict=True)):
            return False
        if len(title) == 1 and _looks_like_prose(text, words, index, title[0] in self.ordinary):
            return False
        if len(title) == 1 and title[0] in SKILLS and _names_a_skill(text, words, index):
            return False
        if len(title) == 1 and _marks_a_question(text, words[index]):
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
            between = text[first.end() : second.start()]
            joined = not between.strip() and "\n" not in between and not _ends_sentence(first.group(0))
            if words[other].group(0)[:1].isupper() and joined:
                return True
    return False


def _ends_sentence(word: str) -> bool:
    """Whether a word of a text (`TEXT_WORD`, which keeps a final full stop) ends a sentence:
    "Tama." does, "Dr.", an initial "T." and "U.S.S." do not."""
    bare = word[:-1]
    return word.endswith(".") and "." not in bare and len(bare) > 1 and bare not in _ABBREVIATIONS


def _marks_a_question(text: str, word: re.Match[str]) -> bool:
    """Whether a one-letter word opening a line and followed by a colon is an FAQ's question or
    answer mark (``Q: Can an Away Team ...``), not the card ``Q``."""
    line_start = text.rfind("\n", 0, word.start()) + 1
    return len(word.group(0)) == 1 and text.startswith(":", word.end()) and not text[line_start : word.start()].strip()


def _names_a_skill(text: str, words: list[re.Match[str]], index: int) -> bool:
    """Whether a title that is also a skill's name is written as the skill: followed by "skill"
    or a multiplier ("x2"), after a number ("2 Treachery", "add 1 to"), or listed with another
    skill ("Interrogation or Torture")."""
    after = text[words[index].end() :]
    before = text[: words[index].start()]
    if _SKILL_AFTER.match(after) or _SKILL_BEFORE.search(before):
        return True
    listed = _LISTED_AFTER.match(after) or _LISTED_BEFORE.search(before)
    return bool(listed and title_key(listed["word"]) in SKILLS)


def ordinary_words(texts: Iterable[str]) -> set[str]:
    """Words that appear in lower case somewhere in ``texts`` (as title keys)."""
    written: set[str] = set()
    for text in texts:
        written.update(_LOWER_WORD.findall(text))
    return {title_key(w) for w in written}


def link_versions(
    versions: Iterable[Version], topics: dict[str, Topic], catalog: Catalog, ordinary: set[str]
) -> list[tuple[int, str, str]]:
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
        headed = next(filter(None, (titles.get((game, title_key(t))) for t in headword_titles(version.headword))), None)
        if headed:
            seen[(headed, "headword")] = None
        seen.update(dict.fromkeys((m.card, m.via) for m in linker.mentions(version.text)))
        for reference in version.references:
            seen.update(dict.fromkeys((m.card, "reference") for m in linker.mentions(reference) if m.via == "title"))
        links += [(version.id, card, via) for card, via in seen]
    return links
