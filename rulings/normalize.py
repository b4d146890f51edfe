"""Text normalisation shared by the parsers: quotes, whitespace, headword keys.

`headword_key` is the identity of a topic: two spellings of one headword ("any" and
“any”, ``[univ] Nebula`` and ``Nebula``, ``Cha'Joh`` and ``Cha’Joh``, ``Chá'Joh`` and
``Cha'Joh``) give one key. Both keys fold accents (`fold_accents`), however the é is encoded.
"""

from __future__ import annotations

import re
import unicodedata

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"'})
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2013", "-"))
"""The hyphen (U+2010), the non-breaking hyphen and the en dash, which a title writes for ``-``;
the em dash (U+2014) stays a word break: in the documents it parts clauses ("occurs—they")."""
_UNIVERSAL = re.compile(r"^\s*\[univ\]\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^\w\s]")


def fold_quotes(text: str) -> str:
    """Curly quotes and primes to straight quotes."""
    return text.translate(_QUOTES)


def fold_accents(text: str) -> str:
    """``text`` without its accents and other nonspacing marks, whether precomposed (``é``) or
    decomposed (``e`` and U+0301), compatibility forms folded (NFKC): ``Klé'eg`` is ``Kle'eg``."""
    if text.isascii():
        return text
    marked = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in marked if unicodedata.category(c) != "Mn"))


def clean_line(text: str) -> str:
    """A line with quotes folded, tabs and runs of spaces collapsed, ends stripped."""
    return _SPACES.sub(" ", fold_quotes(text)).strip()


def without_universal(headword: str) -> str:
    """``headword`` without a leading ``[univ]`` (the universal icon): ``[univ] Nebula`` is ``Nebula``."""
    return _UNIVERSAL.sub("", headword)


def headword_key(headword: str) -> str:
    """The case-, quote-, accent-, punctuation- and ``[univ]``-insensitive identity of a headword."""
    text = fold_accents(fold_quotes(headword))
    text = without_universal(text).lower()
    text = _NOT_WORD.sub(" ", text.replace("'", ""))
    return _SPACES.sub(" ", text).strip()


def sort_key(headword: str) -> str:
    """How glossaries and rulings order headwords: ignoring case and punctuation."""
    return headword_key(headword).replace(" ", "")


def title_key(text: str) -> str:
    """How card titles are compared: ``I.K.S.``/``IKS``, ``Bio-ship``/``Bioship``, curly/straight quotes,
    a possessive ``'s``, accents (``Klé'eg``/``Kle'eg``), case, and a hyphen written as U+2010, U+2011 or
    an en dash (``Q–Flash``/``Q-Flash``) are all the same."""
    folded = fold_quotes(fold_accents(text)).translate(_HYPHENS)
    folded = re.sub(r"['.\-]", "", re.sub(r"'s\b", "", folded))
    return _SPACES.sub(" ", _NOT_WORD.sub(" ", folded.lower())).strip()
