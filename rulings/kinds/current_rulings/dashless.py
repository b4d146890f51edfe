"""Current Rulings topics written with no dash, run together in one paragraph (the 2E PDF's text).

``RULINGS A Klingon Matter Whether someone dies ... stopped. Bustling With Activity Erratum: When
... ability Aside from skills, ... * cost When the cost ...``: a topic starts the rulings or follows
a sentence's end, and is one of

- a game term in lower case, up to the first capitalised word (``ability``, ``actions, costs``,
  ``commanding stopped personnel``), ``*`` before it marking a new ruling;
- a card title followed by ``Erratum:`` (``Data, Tempted by Flesh Erratum: ...``);
- a card title (words in capitals, short words between) followed by a sentence's usual first
  word (``A Klingon Matter Whether ...``), or a title the catalog names.

A period after an initial (``U.S.S.``) ends no sentence. Nothing here guesses across a dash:
these are only for rulings that have none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulings.lines.html_layouts import STARTERS

_SMALL = frozenset(["of", "the", "a", "an", "and", "by", "with", "in", "to", "on", "at", "for", "from"])
_END = re.compile(r"(?<=[.!?\"\u201d)])\s+")
_INITIAL = re.compile(r"(?:^|[\s.(\[])[A-Z]\.$")
_MARK = re.compile(r"^\*\s*")
_ERRATUM = re.compile(r"^(?P<topic>[A-Z][^.!?:*]{0,70}?) (?=Errat(?:um|a):)")
_LOWER = re.compile(r"^(?P<topic>[a-z][\w'\u2019-]*(?:,? [a-z][\w'\u2019-]*){0,5}) (?=[A-Z\"\u201c])")
_WORD = re.compile(r"\S+")
MAX_WORDS = 7
"""Longest topic in words."""
_OPENERS = STARTERS | {"Whether", "Although", "Unless", "During", "After", "Before"}


def _title_topic(text: str, titles: frozenset[str]) -> str | None:
    """A card title at the start of ``text`` followed by a sentence's first word (or a title the catalog names)."""
    for title in sorted((t for t in titles if text.startswith(t + " ")), key=len, reverse=True):
        return title
    words = list(_WORD.finditer(text))
    for i, word in enumerate(words[: MAX_WORDS + 1]):
        token = word.group()
        if i and token in _OPENERS:
            last = words[i - 1].group().rstrip(",")
            return text[: words[i - 1].end()].rstrip(",") if last[:1].isupper() else None
        bare = token.rstrip(",")
        if not (bare[:1].isupper() or bare[:1].isdigit() or (i and bare in _SMALL)):
            return None
    return None


def topic_at(text: str, titles: frozenset[str]) -> tuple[bool, str, str] | None:
    """(marked, topic, text) when ``text`` starts with a dashless topic, else None."""
    mark = _MARK.match(text)
    body = text[mark.end() :] if mark else text
    for found in (_ERRATUM.match(body), _LOWER.match(body)):
        if found:
            topic = found["topic"].strip()
            return bool(mark), topic, body[found.end() :].strip()
    topic = _title_topic(body, titles)
    if topic and topic not in _OPENERS:
        return bool(mark), topic, body[len(topic) :].strip()
    return None


def split_dashless(
    text: str, titles: Iterable[str] = (), at_start: bool = True
) -> tuple[str, list[tuple[bool, str, str]]]:
    """The text before the first topic, and each topic as (marked, topic, text); with ``at_start`` the text
    may begin with a topic (it follows a ``RULINGS`` heading)."""
    known = frozenset(titles)
    cuts = [0] if at_start else []
    cuts += [m.end() for m in _END.finditer(text) if not _INITIAL.search(text[: m.start()])]
    starts = [(at, found) for at in cuts if (found := topic_at(text[at:], known))]
    if not starts:
        return text, []
    lead = text[: starts[0][0]].strip()
    topics: list[tuple[bool, str, str]] = []
    for k, (at, (marked, topic, _)) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        body = text[at:end].strip()
        body = _MARK.sub("", body)[len(topic) :].strip()
        topics.append((marked, topic, body))
    return lead, topics
