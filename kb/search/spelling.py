"""A query's words spelt again: a word the knowledge base has never seen corrected against its
vocabulary (``commandering`` -> commandeering; two spellings as likely are both searched and
offered), and a "did you mean" for a name typed without its punctuation (``chajoh`` ->
Cha'Joh). `kb.search.in_force` asks these before and after it searches."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from kb.engine import budget
from kb.engine.handles import Index
from kb.read.names import Names
from kb.search.plans import NAMES, analysed, together
from kb.search.questions import Typed, Vocabulary
from kb.vocabulary import close_matches
from rulings.normalize import fold_quotes

if TYPE_CHECKING:
    from kb.search.searchers import Searchers


def correct(typed: Typed, vocabulary: Vocabulary, fit: Callable[[str, list[str]], int]) -> Typed | None:
    """``typed`` with each word the knowledge base does not know replaced by its likeliest
    known spelling (`Vocabulary.spellings`, ``fit`` counting how many entries hold a candidate
    and another of the words); a second spelling as likely is searched too (``also``). None
    when no word needed it."""
    spellings: dict[str, list[str]] = {}
    for word in typed.words:
        if len(spellings) >= budget.CORRECTED:
            break
        if word in typed.players:  # a player's word for the rules' (`kb.search.players`)
            continue
        others = [w for w in typed.words if w != word]
        if found := vocabulary.spellings(word, _with(fit, others) if others else None):
            spellings[word] = found
    if not spellings:
        return None
    fixed = [spellings[w][0] if w in spellings else w for w in typed.words]
    also = {spellings[w][0]: spellings[w][1:] for w in typed.words if len(spellings.get(w, [])) > 1}
    return dataclasses.replace(typed, words=fixed, also=also)


def _with(fit: Callable[[str, list[str]], int], others: list[str]) -> Callable[[str], int]:
    """``fit`` of a candidate with the ``others`` words."""
    return lambda candidate: fit(candidate, others)


def meanings(fixed: Typed) -> list[str]:
    """The queries a correction with two likely spellings of a word stands for (first the one
    with the likelier spellings), to offer as "did you mean" (none when each word had one)."""
    if not fixed.also:
        return []
    others = [" ".join(fixed.also[word][0] if w == word else w for w in fixed.words) for word in fixed.also]
    return [" ".join(fixed.words), *others]


def fitting(searchers: Searchers, history: Index | None, on: dt.date | None) -> Callable[[str, list[str]], int]:
    """How many entries hold a word and one of others (`kb.search.plans.together`), in the index searched."""

    def fit(word: str, others: list[str]) -> int:
        return together(history if history is not None else searchers.searcher(on)[0], word, others)

    return fit


def suggest(typed: Typed, names: Names, vocabulary: Callable[[], Vocabulary]) -> str | None:
    """A "did you mean" from headwords and card names (``names``: folded name -> name) for a
    name typed without its punctuation (``chajoh`` -> Cha'Joh); never the query itself.
    ``vocabulary`` gives the known words, asked for only when the query names nothing as typed."""
    words = [t for w in typed.words for t in analysed(NAMES, w)]
    if not words:
        return None
    folded = " ".join(words)
    typed_as = _as_typed(" ".join(typed.words))
    exact = names.get(folded)
    if exact is not None:
        return exact if _as_typed(exact) != typed_as else None
    known = vocabulary()
    if all(known.knows(w) for w in words):
        return None
    close = close_matches(folded, names.near(folded, 0.7), n=1, cutoff=0.7)
    return names[close[0]] if close and _as_typed(names[close[0]]) != typed_as else None


def _as_typed(text: str) -> str:
    """``text`` as compared with what was typed: case, quote marks and spaces aside."""
    return re.sub(r'["\s]', "", fold_quotes(text).lower())
