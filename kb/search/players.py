"""Players' words: what a player or judge types for a thing one game's rules name otherwise.

A player who learnt Magic asks Lorcana's rules "can I tap a character the turn it's played";
Lorcana says "exert". A judge types "cmc" where Magic's rules now say "mana value". Each game
may declare its players' words in ``kb/search/words/<game>.toml`` (a table ``[words]``: a
single word -> the rules' words for it, each a word or words in a row), read with tomllib.
`alternatives` gives a query's words their game's alternatives, searched with the word typed
(never instead of it) at a lower weight (`kb.search.plans`), and shown to the user as "also
searched".
"""

from __future__ import annotations

import functools
from pathlib import Path

from kb.analysis import fold_word
from kb.analysis import inflection_stem as stem

FOLDER = Path(__file__).with_name("words")
"""Where each game's players' words are declared, one file per game (``lorcana.toml``)."""
WEIGHT = 0.5
"""The weight of a word's alternatives against the word as typed (1)."""


def games() -> list[str]:
    """The games that declare players' words, in order."""
    return sorted(p.stem for p in FOLDER.glob("*.toml"))


@functools.cache
def table(game: str) -> dict[str, tuple[str, ...]]:
    """The players' words of ``game``: the stem of a word -> its alternatives (empty when the game
    declares none). Raises ValueError naming the file when it is malformed."""
    path = FOLDER / f"{game}.toml"
    if not game.isidentifier() or not path.is_file():
        return {}
    return read(path.name, path.read_text(encoding="utf-8"))


def read(name: str, text: str) -> dict[str, tuple[str, ...]]:
    """The players' words a file ``name`` holding ``text`` declares (`table`)."""
    import tomllib  # here: a search of a game declaring none never loads it (tests/test_layers.py)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{name}: {error}") from None
    words = data.get("words")
    if not isinstance(words, dict):
        raise ValueError(f"{name}: no [words] table")
    found: dict[str, tuple[str, ...]] = {}
    for word, others in words.items():
        if not word.isalpha() or fold_word(word) != word:
            raise ValueError(f"{name}: {word!r} is not one word in lower case")
        if not isinstance(others, list) or not others or not all(isinstance(o, str) and o.strip() for o in others):
            raise ValueError(f"{name}: {word} = must be a list of words")
        key = stem(word)
        found[key] = tuple(dict.fromkeys([*found.get(key, ()), *others]))
    return found


def alternatives(game: str | None, words: list[str]) -> dict[str, list[str]]:
    """Each of ``words`` that ``game``'s players' words hold (as typed or inflected: ``tapped``
    for tap) -> its alternatives (none without a game: a search of every game would give one
    game's words to the others)."""
    if not game:
        return {}
    known = table(game)
    return {w: list(others) for w in words if (others := known.get(stem(fold_word(w))))}
