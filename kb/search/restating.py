"""Which texts restate a numbered rule: the Glossary of a comprehensive rules document.

A comprehensive rules document (Magic's, Lorcana's) numbers its rules and ends with a Glossary
that restates them in a sentence or two ("Trample: A keyword ability that modifies how a
creature assigns combat damage. See rule 702.19"). A judge asking how trample works wants the
numbered rule, which holds the words of the answer; the Glossary entry only names the term. A
search (`kb.search.in_force.run`, the export's search alike: `kb.search.offline`) ranks such a
restatement after the numbered rules that match as many of the query's words. A Glossary that
is a document of its own (STCCG's) is the rules' own text and keeps its place.

The Glossary is also the document's own index of the words judges use: an entry the query
names (all its headword's words are the query's: "how does the london mulligan work") brings
the numbered rules it cites ("See rule 103.4") just before it (`with_cited_rules`; the export's
search alike, from each entry's ``cites``). And a rule saying what its section's title means
("8.10.1 ... Shift means 'If you have ...'" under 8.10 Shift) comes first when the query names
that title: "how does shift work" (`with_defining_rules`; the export's, from ``defines``). A
search does both (`with_rules_first`), reading the hits' versions once.
"""

from __future__ import annotations

import datetime as dt
import re
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.numbering import ancestors, bare
from kb.read.rules import resolved
from kb.texts import NUMBERED_SERIES, title

if TYPE_CHECKING:
    from kb.model import Version
    from kb.read.parts import Parts

NUMBERED = frozenset({"comprehensive-rules"})
"""The document kinds whose Glossary restates their numbered rules."""
GLOSSARY = "glossary"
"""The series of a Glossary's entries."""


def restating_documents(documents: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The ids of the documents (id -> facts with a ``kind``) whose Glossary entries restate numbered rules."""
    return frozenset(ident for ident, facts in documents.items() if facts.get("kind") in NUMBERED)


def restating_in(reader: Any) -> frozenset[str]:
    """`restating_documents` of a store's reader (`kb.read.reader.Reader`, whose documents are
    read once), worked out once for it: every search asks."""
    found = _RESTATING.get(reader)
    if found is None:
        found = _RESTATING[reader] = restating_documents(reader.documents())
    return found


_RESTATING: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()
"""A store's reader -> its documents restating numbered rules (`restating_in`)."""


def restates(series: str, document: str, documents: frozenset[str]) -> bool:
    """Whether a version of ``series`` from ``document`` restates a numbered rule
    (``documents``: `restating_documents`)."""
    return series == GLOSSARY and document in documents


def with_cited_rules(
    hits: list[tuple[int, str]],
    named: Callable[[str], bool],
    parts: Parts,
    documents: frozenset[str],
    on: dt.date,
    read: dict[int, Version] | None = None,
) -> list[tuple[int, str]]:
    """``hits`` (version id, snippet) with the numbered rules a Glossary entry the query names
    cites ("London Mulligan: ... See rule 103.4") placed just before that entry: the Glossary is
    the document's own index of the words a judge asks in, and the rule it sends a reader to is
    the answer ("how does the london mulligan work": 103.4). ``named``: whether the query names
    a headword (all its words are the query's); ``documents``: `restating_documents`; ``read``:
    the hits' versions when already read (`with_rules_first`)."""
    if not documents or not hits:
        return hits
    if read is None:
        read = parts.reader.versions_numbered([version for version, _ in hits])
    placed: list[tuple[int, str]] = []
    moved: set[int] = set()
    for version, marked in hits:
        entry = read.get(version)
        if entry is not None and restates(entry.series, entry.document_id, documents) and named(entry.headword):
            new = [v for v in cited_rules(parts, entry, on) if v not in moved and v != version]
            placed += [(v, "") for v in new]
            moved.update(new)
        if version not in moved:
            placed.append((version, marked))
            moved.add(version)
    return placed


def cited_rules(parts: Parts, entry: Version, on: dt.date) -> list[int]:
    """The versions in force on ``on`` of the numbered rules a Glossary entry cites ("See rule
    103.4"), of its game; a rule that is only a section's title (702.19 "Trample") is left out:
    its subrules hold the words (`kb.texts.section_titles`) and are found by them."""
    game = str((parts.reader.topic(entry.topic) or {}).get("game", ""))
    found: list[int] = []
    for target in entry.references:
        if target[:1].isdigit() and (topic := resolved(parts, target, game)) is not None:
            found += [v.id for v in parts.in_force(topic, on) if not title(v.text) and v.id not in found]
    return found


def defined_term(parts: Parts, entry: Version, on: dt.date) -> str | None:
    """The title of the section a numbered rule stands in when the rule says what it means
    (8.10.1 "... Shift means 'If you have ...'", 701.18a 'To "scry N" means ...' under 701.18
    Scry): the rule defining the section's term; None for any other rule."""
    number = bare(entry.headword)
    if number is None or entry.series != NUMBERED_SERIES or MEANS not in entry.text.lower():
        return None  # `defines` finds no sentence saying what a term means: nothing to read
    game = str((parts.reader.topic(entry.topic) or {}).get("game", ""))
    for up in ancestors(number):
        topic = resolved(parts, up, game)
        texts = [v.text for v in parts.in_force(topic, on)] if topic is not None else []
        if texts:
            return texts[0] if title(texts[0]) and defines(entry.text, texts[0]) else None
    return None


MEANS = " means "
"""What a sentence saying what a term means holds (`defines`)."""


def defines(text: str, term: str) -> bool:
    """Whether a sentence of ``text`` says what ``term`` means ("Shift means ...", 'To "scry N" means ...')."""
    wanted = term.lower()
    for sentence in re.split(r"(?<=[.!?])[\u201d\"]?\s+", text):
        said = sentence.lstrip('"\u201c ').lower()
        said = said[3:].lstrip('"\u201c ') if said.startswith("to ") else said
        if said.startswith(wanted) and MEANS in said:
            return True
    return False


def with_defining_rules(
    hits: list[tuple[int, str]],
    named: Callable[[str], bool],
    parts: Parts,
    documents: frozenset[str],
    on: dt.date,
    read: dict[int, Version] | None = None,
) -> list[tuple[int, str]]:
    """``hits`` with the rules that define a term the query names (`defined_term`) first: "how
    does shift work" is answered by the rule saying what Shift means. ``documents``: the numbered
    rules documents (`restating_documents`), without which nothing is read; ``read``: the hits'
    versions when already read (`with_rules_first`)."""
    if not documents or not hits:
        return hits
    if read is None:
        read = parts.reader.versions_numbered([version for version, _ in hits])
    first = [
        hit for hit in hits if (v := read.get(hit[0])) is not None and (t := defined_term(parts, v, on)) and named(t)
    ]
    return first + [hit for hit in hits if hit not in first]


def with_rules_first(
    hits: list[tuple[int, str]], named: Callable[[str], bool], parts: Parts, documents: frozenset[str], on: dt.date
) -> list[tuple[int, str]]:
    """`with_defining_rules` of `with_cited_rules`: the hits' versions read once, and only the
    cited rules placed among them read again."""
    if not documents or not hits:
        return hits
    read = parts.reader.versions_numbered([version for version, _ in hits])
    placed = with_cited_rules(hits, named, parts, documents, on, read)
    if added := [version for version, _ in placed if version not in read]:
        read = {**read, **parts.reader.versions_numbered(added)}
    return with_defining_rules(placed, named, parts, documents, on, read)
