"""Which words of a question matched nothing, and whether what did match can answer it.

A judge asks about a card the catalog does not hold ("does Kivas Fajo's collection work"):
the search still finds texts holding "collection" or "work", which answer nothing. The
answer says which words no text of the library holds (``unmatched``: as typed, in order),
which words the results match (``matched``), and calls the results ``weak`` when some words
matched nothing and every word that did is a common one: a word of no headword and no card
name (``work``, ``collection``), so the question's distinctive words found nothing.

A word counts as matched when the library's vocabulary knows it or an inflection of it
(`kb.search.questions.Vocabulary.knows`), or a correction or a compound replaced it, or its
game's rules have a word for it (`kb.search.players`).
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.analysis import fold_word
from kb.search.questions import Typed, Vocabulary


@dataclass(frozen=True)
class Matched:
    """The words of a question that matched nothing and those that matched (as typed)."""

    unmatched: list[str]
    matched: list[str]
    weak: bool
    """Some words matched nothing and every word matched is a common word."""


NOTHING = Matched([], [], False)


def matched_words(typed: Typed, fixed: Typed | None, vocabulary: Vocabulary) -> Matched:
    """The words of ``typed`` no text holds and those some text holds (``fixed``: the query as
    corrected, whose replaced words count as matched)."""
    mended = set(typed.words) - set(fixed.words) if fixed is not None else set()
    unmatched, matched, named = [], [], False
    for word in typed.words:
        folded = fold_word(word)
        if not folded:
            continue
        replaced = word in mended or word in typed.joined or word in typed.numeral or word in typed.players
        if replaced or vocabulary.knows(folded):
            matched.append(word)
            named = named or word in mended or _named(folded, vocabulary)
        else:
            unmatched.append(word)
    if not unmatched:
        return NOTHING
    return Matched(unmatched, matched, bool(matched) and not named)


def _named(folded: str, vocabulary: Vocabulary) -> bool:
    """Whether ``folded`` or an inflection of it is a word of a headword or card name."""
    return folded in vocabulary.names or bool(vocabulary.inflections(folded))


def said(found: Matched) -> str | None:
    """The sentence the search page, the JSON and the command line show for ``found`` (None
    when every word matched)."""
    if not found.unmatched:
        return None
    nothing = ", ".join(found.unmatched)
    if not found.matched:
        return f"No text holds: {nothing}."
    only = ", ".join(found.matched)
    if found.weak:
        return (
            f"Nothing matched the question's distinctive words: no text holds {nothing}."
            f" The results below match only the common words {only}, and are not an answer to it."
        )
    return f"No text holds: {nothing} — the results below match only: {only}."
