"""Read what a person types into the search box: explicit syntax, content words, spelling.

A judge types the player's question ("can conundrum target a cloaked ship"). `read_query`
keeps the explicit syntax (``"phrase"``, ``field:word``, ``-word``, ``word*``) and turns the
rest into content words: question and filler words ("can", "may", "I", "how", ...) are
dropped unless they are all there is, and a word typed twice counts once.
`Vocabulary.spellings` mends a word of five or more letters that the knowledge base has never
seen, nor begins (it may be half typed), nor inflects (``cloaked`` for cloaking): to a known
word within one edit for words up to five letters, two for longer ones (or whose bare form
is, ``cloked``: cloaked; a doer the rules never name, ``flyer``: flying); a word that fits the
rest of the query first (the entries hold it with another of its words), then the nearest,
headword and card-name words, the commonest;
two as likely are both given (a "did you mean" searching both). `Vocabulary.inflections`
gives the name words a word's inflections match as if typed (``commandeered``: commandeering);
`Vocabulary.opposites`, a state's negation by ``un-`` searched with it (``tapped``: untapped);
`Vocabulary.numerals`, a number's other spelling (``zero``: 0, ``7``: seven).
`rule_number` reads a rule number typed alone (``702.9a``, ``rule 702.9``, ``section 8``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kb.analysis import fold_word
from kb.analysis import inflection_stem as stem
from kb.engine import budget

MAX_QUERY = 500
_NUMBER_WORDS = (  # noqa: SIM905
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
NUMERALS = {
    spelt: other
    for n, word in enumerate(_NUMBER_WORDS)
    if word != "one"
    for spelt, other in ((word, str(n)), (str(n), word))
}
"""A number from zero to twenty in words -> in digits, and back (`Vocabulary.numerals`); not
``one``, as often a pronoun ("the one underneath", "one short") as a number."""
_RULE_NUMBER = re.compile(r"^\s*(?:(?:rule|section|cr)\s+)?(?P<number>\d{3}(?:\.\d+[a-z]?)?|\d)\.?\s*$", re.IGNORECASE)


def rule_number(text: str) -> str | None:
    """The rule or section number of a query that is only one (``rule 702.9`` is ``702.9``), else None."""
    match = _RULE_NUMBER.match(text)
    return match["number"].lower() if match else None


"""Characters of a query read; the rest is ignored."""
FIELDS = {"card": "cards", "cards": "cards", "kind": "kind", "doc": "doc", "game": "game", "headword": "headword"}
FILLER = frozenset(
    {
        "a",
        "about",
        "all",
        "am",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "get",
        "gets",
        "go",
        "goes",
        "had",
        "has",
        "have",
        "happen",
        "happens",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "just",
        "many",
        "may",
        "me",
        "much",
        "might",
        "my",
        "of",
        "on",
        "or",
        "should",
        "so",
        "still",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "whats",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    }
)
"""Question and filler words, dropped from a query unless they are all it has."""
_PART = re.compile(r'(?P<neg>-)?(?:(?P<field>[A-Za-z]+):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>[^\s"]+))')
_SPLIT = re.compile(r"[^\w'\u2019.*\-\[\]]+")


@dataclass
class Clause:
    """One explicit piece of a query: a phrase, a field restriction or an exclusion."""

    text: str
    field: str | None
    """The index field (``cards``, ``kind``...), or None for anywhere."""
    phrase: bool
    negated: bool


@dataclass
class Typed:
    """A query as read: explicit clauses, the content words, the prefixes."""

    clauses: list[Clause] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    """Plain content words, in order, each once."""
    prefixes: list[str] = field(default_factory=list)
    """Words typed with a trailing ``*`` (without it)."""
    left_out: list[str] = field(default_factory=list)
    """Parts over `PARTS`, not searched."""
    joined: dict[str, str] = field(default_factory=dict)
    """A word -> the compound it makes with its neighbour (``ship yard`` -> shipyard)."""
    also: dict[str, list[str]] = field(default_factory=dict)
    """A corrected word -> another spelling as likely, searched with it (`kb.search.correct`)."""
    inflected: dict[str, list[str]] = field(default_factory=dict)
    """A word -> the other inflections of it among headword and card-name words
    (``commandeered`` -> commandeering), matched in names as the word typed is."""
    opposite: dict[str, str] = field(default_factory=dict)
    """A state -> its negation by ``un-`` that the knowledge base holds (``tapped`` -> untapped),
    searched with it: a rule states a condition either way ("the chosen creatures must be untapped")."""
    numeral: dict[str, str] = field(default_factory=dict)
    """A number -> its other spelling that the knowledge base holds (``zero`` -> 0), searched with
    it (`Vocabulary.numerals`)."""
    players: dict[str, list[str]] = field(default_factory=dict)
    """A word -> the words the game's rules use for it (``tap`` -> exert in Lorcana), searched with it
    at a lower weight and never corrected (`kb.search.players`)."""


def read_query(text: str) -> Typed:
    """Read a query as a person types it; never raises."""
    typed = Typed()
    plain: list[str] = []
    for match in _PART.finditer(text[:MAX_QUERY]):
        raw = match["phrase"] if match["phrase"] is not None else match["word"]
        name = (match["field"] or "").lower()
        target = FIELDS.get(name)
        if name and not target:
            raw = f"{match['field']} {raw}"
        if target or match["phrase"] is not None or match["neg"]:
            if raw.strip():
                typed.clauses.append(Clause(raw, target, match["phrase"] is not None, bool(match["neg"])))
            continue
        plain += [w for w in _SPLIT.split(raw) if w.strip("*.'\u2019-")]
    content = [w for w in plain if fold_word(w.rstrip("*")) not in FILLER]
    for word in content or plain:
        if word.endswith("*") and len(word.rstrip("*")) > 0:
            _once(typed.prefixes, word.rstrip("*"))
        else:
            _once(typed.words, word.rstrip("*"))
    _cap(typed)
    return typed


def _cap(typed: Typed) -> None:
    """Keep at most `budget.PARTS` parts: clauses, prefixes, words, then exclusions; the rest
    go to ``left_out``."""
    room = budget.PARTS

    def keep(items: list[Any], label: Callable[[Any], str]) -> list[Any]:
        nonlocal room
        typed.left_out += [label(item) for item in items[room:]]
        kept, room = items[:room], max(0, room - len(items))
        return kept

    wanted = keep([c for c in typed.clauses if not c.negated], lambda c: str(c.text))
    typed.prefixes = keep(typed.prefixes, lambda p: f"{p}*")
    typed.words = keep(typed.words, str)
    typed.clauses = wanted + keep([c for c in typed.clauses if c.negated], lambda c: f"-{c.text}")


def _once(words: list[str], word: str) -> None:
    if fold_word(word) not in {fold_word(w) for w in words}:
        words.append(word)


def _inflects(word: str, known: str) -> bool:
    """Whether two words with one stem differ only in their endings (three letters at most each)."""
    shared = next((i for i, (a, b) in enumerate(zip(word, known, strict=False)) if a != b), min(len(word), len(known)))
    return abs(len(word) - len(known)) <= 2 and max(len(word), len(known)) - shared <= 3


def distance(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment edit distance of ``a`` and ``b`` (transpositions count
    one), or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, start=1):
        above, row = row, [i] + [0] * len(b)
        for j, other in enumerate(b, start=1):
            row[j] = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                row[j] = min(row[j], before[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        before = above
    return row[-1]


class Vocabulary:
    """The folded words of a knowledge base with their counts, for spelling correction."""

    def __init__(self, counts: dict[str, int], names: Iterable[str], stems: dict[str, str] | None = None) -> None:
        """``stems``: each word's stem where it differs from the word (computed here when None)."""
        self.counts = counts
        self._listed = list(names)
        self.names = frozenset(self._listed)
        """Words of headwords and card names: preferred corrections."""
        self._given_stems = stems
        self._words: list[str] | None = None
        """Every known word in order (made when a word is neither known nor an inflection of one)."""
        self._stems: tuple[dict[str, list[str]], dict[str, str]] | None = None
        """A stem -> the known words with it other than itself, and each known word's stem
        where it differs (made on first use)."""

    @property
    def tables_made(self) -> bool:
        """Whether the table of every word in order was made (a query of known words needs none)."""
        return self._words is not None

    def _ordered(self) -> list[str]:
        """Every known word in order (made whole on first use, then published: threads may share a vocabulary)."""
        if self._words is None:  # the file lists both in order: sorting them together merges two runs
            words = list(self.counts)
            words += dict.fromkeys(name for name in self._listed if name not in self.counts)
            words.sort()
            self._words = words
        return self._words

    def _with_stem(self, root: str) -> list[str]:
        """The known words whose stem is ``root``, in order (``root`` itself among them when it
        is known and its own stem). Only the words whose stem differs from them are grouped, on
        first use: a few milliseconds where grouping every word took 50 on a large library."""
        if self._stems is None:
            given = self._given_stems
            if given is None:
                given = {word: r for word in sorted(self.counts.keys() | self.names) if (r := stem(word)) != word}
            by_stem: dict[str, list[str]] = {}
            for word, other in given.items():
                if word in self:
                    by_stem.setdefault(other, []).append(word)
            for group in by_stem.values():
                group.sort()
            self._stems = (by_stem, given)
        by_stem, given = self._stems
        found = by_stem.get(root, [])
        return sorted([*found, root]) if root in self and root not in given else found

    def _starting(self, letter: str) -> list[str]:
        """The known words beginning with ``letter``, in order."""
        words = self._ordered()
        return words[bisect.bisect_left(words, letter) : bisect.bisect_left(words, chr(ord(letter) + 1))]

    def __contains__(self, word: str) -> bool:
        return word in self.counts or word in self.names

    def knows(self, word: str) -> bool:
        """Whether ``word`` (folded) is known, or an inflection of a known word (``cloaked``
        for cloaking): same stem, a length within two letters, and the same letters but for an
        ending of three at most (``commandering`` is neither ``commander`` nor ``commandeering``)."""
        return word in self or any(_inflects(word, known) for known in self._with_stem(stem(word)))

    def inflections(self, word: str) -> list[str]:
        """The headword and card-name words that are other inflections of ``word`` (folded):
        those with its stem (`kb.analysis.inflection_stem`), ``commandeered`` -> commandeering."""
        folded = fold_word(word)
        return [name for name in self._with_stem(stem(folded)) if name in self.names and name != folded]

    def opposites(self, words: list[str]) -> dict[str, str]:
        """Each known state (a participle: ``tapped``, ``exerted``, ``blocked``) whose negation by
        ``un-`` is known too -> that negation (``tapped`` -> untapped); a word of another form
        may only begin as one does (``less``, ``unless``)."""
        return {w: "un" + f for w in words if (f := fold_word(w)).endswith("ed") and f in self and "un" + f in self}

    def numerals(self, words: list[str]) -> dict[str, str]:
        """Each number written in words or in digits (zero to twenty) whose other spelling is
        known -> that spelling (``zero`` -> 0, ``7`` -> seven): a judge types "zero loyalty",
        the rule says "loyalty 0"; Magic's rules write "seven" where Lorcana's write "7"."""
        return {w: other for w in words if (other := NUMERALS.get(fold_word(w))) is not None and other in self}

    def compounds(self, words: list[str]) -> dict[str, str]:
        """Each word that, joined with the next, makes a known word -> that word (both words)."""
        found: dict[str, str] = {}
        for first, second in itertools.pairwise(words):
            whole = fold_word(first) + fold_word(second)
            if whole in self and fold_word(first) and fold_word(second):
                found[first] = found[second] = whole
        return found

    def begins(self, word: str) -> bool:
        """Whether ``word`` (folded) begins a known word (it may still be being typed)."""
        words = self._ordered()
        at = bisect.bisect_left(words, word)
        return at < len(words) and words[at].startswith(word)

    def correct(self, word: str, fit: Callable[[str], int] | None = None) -> str | None:
        """The known word ``word`` was most likely meant to be, or None (`spellings`)."""
        found = self.spellings(word, fit)
        return found[0] if found else None

    def spellings(self, word: str, fit: Callable[[str], int] | None = None) -> list[str]:
        """The known words ``word`` was likely meant to be, likeliest first: none when it is
        known, too short, a number, or nothing is close; else the likeliest, and a second one
        as likely (`CLOSE`). The first letter is taken as typed. A candidate is within the edit
        limit of the word, or of the word without its ending (``cloked``: ``cloak`` of cloaking,
        one more edit). With ``fit`` (a candidate -> how many entries hold it and another word
        of the query), a word seen with the rest of the query comes first, then the nearest,
        then a word of headwords and card names (or an inflection of one), the best fit, the
        commonest."""
        folded = fold_word(word)
        if len(folded) < 5 or not folded.isalpha() or self.knows(folded) or self.begins(folded):
            return []
        limit = 1 if len(folded) <= 5 else 2
        bare = _bare(folded)
        near: dict[str, int] = {}
        letters, bare_letters = set(folded), set(bare)
        for candidate in self._starting(folded[0]):
            if candidate in FILLER:
                continue
            # An edit changes at most two of the letters the two words do not share: a word
            # differing in more letters is not within the limit, and is not compared whole.
            far = distance(folded, candidate, limit) if len(letters ^ set(candidate)) <= 2 * limit else limit + 1
            if far > 1:  # without their endings the two can come nearer (to one edit at best)
                other = _bare(candidate)
                if len(bare_letters ^ set(other)) <= 2 * (limit - 1):
                    far = min(far, distance(bare, other, limit - 1) + 1)
            if far <= limit:
                near[candidate] = far
        if not near:
            return []
        fits = {c: fit(c) for c in sorted(near, key=lambda c: (near[c], c))[:MAX_FITTED]} if fit else {}

        def key(c: str) -> tuple[bool, int, bool, int, int, str]:
            return (fits.get(c, 0) == 0, near[c], not self._named(stem(c)), -fits.get(c, 0), -self.counts.get(c, 0), c)

        ranked = sorted(near, key=key)
        second = next((c for c in ranked[1:] if stem(c) != stem(ranked[0])), None)  # another word, not an inflection
        return [ranked[0], second] if second is not None and _close(key(ranked[0]), key(second)) else ranked[:1]

    def _named(self, root: str) -> bool:
        """Whether a headword or card-name word has the stem ``root``."""
        return any(word in self.names for word in self._with_stem(root))


MAX_FITTED = 8
"""Candidate corrections of a word (the nearest) whose fit with the rest of the query is counted."""
CLOSE = 2
"""A second candidate is as likely as the first when it fits the query (or is as common) within this factor."""


def _close(best: tuple[bool, int, bool, int, int, str], other: tuple[bool, int, bool, int, int, str]) -> bool:
    """Whether the candidate ranked ``other`` is as likely as the one ranked ``best`` (`Vocabulary.spellings`):
    as near, both fitting the query or neither, both names or neither, and within `CLOSE` in fit
    (or, fitting nothing, in how common they are)."""
    if best[:3] != other[:3]:
        return False
    if not best[0]:  # both fit: compare how well
        return -other[3] * CLOSE >= -best[3]
    return -other[4] * CLOSE >= -best[4]


def _bare(word: str) -> str:
    """``word`` without an inflectional ending, or the ``-er`` of a doer, nothing restored
    (``cloked`` -> clok, ``cloaking`` -> cloak, ``flyer`` -> fly), to compare a misspelt
    inflection, or a doer the rules never name, with a known word (``flyer``: flying)."""
    for ending in ("ing", "ies", "ers", "es", "ed", "er", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word
