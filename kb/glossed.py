"""A judge's words for numbered rules, from the rules' own Glossary (`glossary_terms`).

A comprehensive rules document (Magic's) ends with a Glossary: the words a judge asks in, each
pointing to the rules that govern it ("Summoning Sickness Rule: ... See rule 302.6.", "Poison
Counter: ... See rule 122, "Counters," and rule 704.5c."). The rule itself need not use the
word: 302.6 says "under its controller's control continuously since their most recent turn
began". So each rule a Glossary entry cites, and each rule standing under it, is given the
entry's headword to be searched by, as the section titles it stands in are (`kb.texts`). Computed
at build time from the documents, for any game whose Glossary cites rule numbers; a Glossary that
is a document of its own and cites entries by name (STCCG's) gives nothing here. Of the floor
of `kb`, as `kb.texts` is.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

from kb.model import Topic, Version
from kb.numbering import ancestors, bare

GLOSSARY_SERIES = "glossary"
"""The series of a Glossary's entries."""
NUMBERED_SERIES = "comprehensive-rules"
"""The series of numbered rules (as `kb.texts.NUMBERED_SERIES`)."""
CITED_SHARE = 0.1
"""A cited rule with more than this share of its game's numbered rules under it (Magic's ``702``
Keyword Abilities, cited by "Keyword Ability") gives the headword to itself only: a word a tenth
of the rules share tells a search nothing (as `kb.texts.SECTION_SHARE`)."""


def glossary_terms(versions: list[Version], topics: dict[str, Topic]) -> dict[int, str]:
    """Version id of a numbered rule -> the headwords of the Glossary entries (latest of each
    topic) of its game citing it or a rule it stands under, one a line, sorted (``302.6``:
    ``Haste``, ``Summoning Sickness Rule``)."""
    cited: dict[tuple[str, str], set[str]] = defaultdict(set)
    latest: dict[str, tuple[dt.date, Version]] = {}
    for version in versions:
        start = version.valid_from
        if version.series == GLOSSARY_SERIES and start is not None:
            if version.topic not in latest or start >= latest[version.topic][0]:
                latest[version.topic] = (start, version)
    for topic, (_, entry) in latest.items():
        for reference in entry.references:
            number = bare(reference.strip())
            if number is not None:
                cited[(topics[topic].game, number)].add(entry.headword)
    if not cited:
        return {}
    numbers: dict[tuple[str, str], None] = {}
    for version in versions:
        number = bare(version.headword) if version.series == NUMBERED_SERIES else None
        if number is not None:
            numbers[(topics[version.topic].game, number)] = None
    size: Counter[tuple[str, str]] = Counter((game, up) for game, number in numbers for up in ancestors(number))
    rules = Counter(game for game, _ in numbers)
    found: dict[int, str] = {}
    for version in versions:
        number = bare(version.headword) if version.series == NUMBERED_SERIES else None
        if number is None:
            continue
        game = topics[version.topic].game
        words = set(cited.get((game, number), ()))
        for up in ancestors(number):
            if size[(game, up)] <= CITED_SHARE * rules[game]:
                words |= cited.get((game, up), set())
        if words:
            found[version.id] = "\n".join(sorted(words))
    return found
