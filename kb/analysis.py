"""How text becomes index words, for writing the indexes and for reading queries alike.

Analysers keep card-game words findable however they are typed: ``Cha'Joh``/``Cha’Joh``/
``chajoh``, ``U.S.S.``/``USS``, ``I.K.S.``, ``Mr. Quark``, ``[MQ]``/``MQ``, ``2E``; a compound
(``Bio-ship``) is indexed joined and in its parts. Text is stemmed by `inflection_stem`, which
joins a word's inflections (``cloaks``, ``cloaked``, ``cloaking``) but never a word made from
another (``commander`` is not ``command``, nor ``commandeering``).

These are the words alone, plain strings (the vocabulary, the query reader and the export's
browser index read them too); the engine makes the indexes' analysers of them
(`kb.engine.analysers`: Whoosh's chains, `kb.engine.fused`: the same in one pass per word).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from rulings.normalize import fold_quotes

WORD = r"\[\w+\]|\w+(?:['\u2019.\-]\w+)*\.?"
"""A word as the index sees it: ``[MQ]``, ``Cha'Joh``, ``U.S.S.``, ``Bio-ship``."""


_WORD = re.compile(WORD)


def fold_word(word: str) -> str:
    """``Cha’Joh`` -> ``chajoh``, ``U.S.S.`` -> ``uss``, ``[MQ]`` -> ``mq``, ``Bio-ship`` -> ``bioship``;
    compatibility forms folded (NFKC): fullwidth ``\\uff2d\\uff49..`` -> ``mi..``, the ``fi`` ligature -> ``fi``."""
    if not word.isascii():
        word = unicodedata.normalize("NFKC", word)
    return re.sub(r"[\[\]'.\-]", "", fold_quotes(word)).lower()


def _vowel(word: str, at: int) -> bool:
    """Whether the letter at ``at`` is a vowel: a, e, i, o, u, and y after a consonant."""
    letter = word[at]
    return letter in "aeiou" or (letter == "y" and at > 0 and not _vowel(word, at - 1))


def _measure(word: str) -> int:
    """How many times a vowel is followed by a consonant in ``word`` (``tree`` 0, ``trouble`` 1)."""
    kinds = [_vowel(word, at) for at in range(len(word))]
    return sum(1 for a, b in itertools.pairwise(kinds) if a and not b)


def _has_vowel(word: str) -> bool:
    return any(_vowel(word, at) for at in range(len(word)))


def _short(word: str) -> bool:
    """Whether ``word`` ends consonant, vowel, consonant (not w, x or y) after one syllable (``hop``)."""
    return (
        len(word) >= 3
        and _measure(word) == 1
        and word[-1] not in "wxy"
        and not _vowel(word, len(word) - 1)
        and _vowel(word, len(word) - 2)
        and not _vowel(word, len(word) - 3)
    )


def _doubled(word: str) -> bool:
    """Whether ``word`` ends in a doubled consonant (``stopp``)."""
    return len(word) > 1 and word[-1] == word[-2] and not _vowel(word, len(word) - 1)


def inflection_stem(word: str) -> str:
    """The word without its inflection: plural or third person ``-s``/``-es``/``-ies``, past
    ``-ed``, progressive ``-ing``, and a silent final ``e`` (Porter's first step and his last
    rule on ``e``, nothing of those that also take off ``-er``, ``-ment``, ``-ion``...).
    ``cloaks``, ``cloaked``, ``cloaking`` -> cloak; ``placed``, ``placing``, ``place`` ->
    place; ``battles``, ``battling`` -> battl; ``stopped`` -> stop; ``abilities`` and
    ``ability`` -> abiliti; ``commander`` stays itself. A word of two letters or with a digit
    is kept as it is. `static/offline_search.js` (``inflectionStem``) is the same rule."""
    if len(word) < 3 or not word.isalpha():
        return word
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    else:
        for ending in ("ed", "ing"):
            if word.endswith(ending) and _has_vowel(word[: -len(ending)]):
                word = word[: -len(ending)]
                if word.endswith(("at", "bl", "iz")):
                    word += "e"
                elif (
                    len(word) > 1 and word[-1] == word[-2] and not _vowel(word, len(word) - 1) and word[-1] not in "lsz"
                ):
                    word = word[:-1]
                elif _short(word):
                    word += "e"
                break
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    if word.endswith("e") and (_measure(word[:-1]) > 1 or (_measure(word[:-1]) == 1 and not _short(word[:-1]))):
        word = word[:-1]
    return word


def folded_words(text: str) -> list[str]:
    """The folded words of ``text``, compounds also split (``Bio-ship`` -> bioship, bio, ship)."""
    words = []
    for word in _WORD.findall(text):
        words += _forms(word)
    return words


def _forms(word: str) -> list[str]:
    """The folded words of one word: itself, and a compound's parts."""
    parts = [fold_word(p) for p in word.split("-")] if "-" in word else []
    return [w for w in [fold_word(word), *parts] if w]


def folded_counts(texts: Iterable[str]) -> Counter[str]:
    """How many times each folded word occurs in ``texts`` (`folded_words` of each, counted),
    each distinct word folded once."""
    raw: Counter[str] = Counter()
    for text in texts:
        raw.update(_WORD.findall(text))
    counts: Counter[str] = Counter()
    for word, times in raw.items():
        for form in _forms(word):
            counts[form] += times
    return counts
