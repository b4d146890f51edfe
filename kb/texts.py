"""What a version's search document holds beside its own text (`extra_text`): the publisher's
summary, its note, a table row's cells, and the text its "See X" references point to
(`see_texts`), and for a numbered rule the titles of the sections it stands in
(`section_titles`) and the headwords of the Glossary entries citing it (`glossary_terms`). The
index writer (`kb.index.writer`) and the export's browser index (`kb.search.offline`) both make
it here, so the two search the same words; it is of the floor of `kb`, so the build side and the
read side both stand on it."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict

from kb.model import Topic, Version
from kb.numbering import ancestors, bare
from kb.vocabulary import reference_keys
from rulings.normalize import headword_key


def extra_text(version: Version, targets: str) -> str:
    """What a judge may search for beside the text: the publisher's change summary, the
    version's note, a table row's cells with their column names, the text "See X" points to."""
    cells = [f"{name}: {value}" for name, value in version.fields.items()]
    return "\n".join(part for part in [version.summary or "", version.note, *cells, targets] if part)


def see_texts(versions: list[Version], topics: dict[str, Topic]) -> dict[int, str]:
    """Version id -> the latest text of the topics its "See X" references name (same game), and
    the titles of the sections a numbered rule stands in (`section_titles`) and the headwords of the
    Glossary entries citing it (`glossary_terms`), each a line, those already there left out."""
    latest: dict[tuple[str, str], str] = {}
    for version in versions:
        if version.text and version.valid_from is not None:
            latest[(topics[version.topic].game, headword_key(version.headword))] = version.text
    found: dict[int, str] = {}
    for version in versions:
        game = topics[version.topic].game
        cited = [r for r in version.references if not r[:1].isdigit()]  # a rule number cited is a rule of its own
        texts = [latest[(game, k)] for r in cited for k in reference_keys(r)[:1] if (game, k) in latest]
        if texts:
            found[version.id] = "\n".join(dict.fromkeys(texts))
    for ident, titles in section_titles(versions, topics).items():
        found[ident] = f"{found[ident]}\n{titles}" if ident in found else titles
    for ident, terms in glossary_terms(versions, topics).items():
        held = found[ident].split("\n") if ident in found else []
        if new := [term for term in terms.split("\n") if term not in held]:
            found[ident] = "\n".join([*held, *new])
    return found


NUMBERED_SERIES = "comprehensive-rules"
"""The series of numbered rules, whose sections carry titles (``702.19 Trample``)."""
TITLE_WORDS = 8
"""A section's title is a few words (at most this many) ending with no punctuation of a sentence."""
SECTION_SHARE = 0.1
"""A section holding more than this share of its game's numbered rules (a chapter: Magic's
``7. Additional Rules``, ``702. Keyword Abilities``) gives its title to none: a word a tenth of
the rules share tells a search nothing, and only crowds the rules that mention it."""
_SENTENCE_END = re.compile(r"[.:;!?)\u201d\"]\s*$")


def title(text: str) -> bool:
    """Whether a rule's text is a section's title (``Trample``, ``Ink a Card``), not a rule's sentence."""
    words = text.split()
    return 0 < len(words) <= TITLE_WORDS and "\n" not in text.strip() and not _SENTENCE_END.search(text)


def section_titles(versions: list[Version], topics: dict[str, Topic]) -> dict[int, str]:
    """Version id -> the titles of the sections a numbered rule stands in, nearest first (``3.2.1.1``:
    ``Ready``, ``Start-of-Turn Phase``, ``TURN STRUCTURE``), each the latest title of that number in
    the game, but those of sections too large to tell anything (`SECTION_SHARE`): a judge asks
    about trample in words the rule's own text need not repeat (``702.19b``: ``Trample``)."""
    latest: dict[tuple[str, str], str] = {}
    for version in versions:
        number = bare(version.headword) if version.series == NUMBERED_SERIES else None
        if number is not None and version.valid_from is not None:
            latest[(topics[version.topic].game, number)] = version.text
    size: Counter[tuple[str, str]] = Counter((game, up) for game, number in latest for up in ancestors(number))
    rules = Counter(game for game, _ in latest)
    found: dict[int, str] = {}
    for version in versions:
        number = bare(version.headword) if version.series == NUMBERED_SERIES else None
        if number is None:
            continue
        game = topics[version.topic].game
        titles = [
            t
            for n in ancestors(number)
            if size[(game, n)] <= SECTION_SHARE * rules[game] and title(t := latest.get((game, n), ""))
        ]
        if titles:
            found[version.id] = "\n".join(titles)
    return found


GLOSSARY_SERIES = "glossary"
"""The series of a Glossary's entries."""


def glossary_terms(versions: list[Version], topics: dict[str, Topic]) -> dict[int, str]:
    """Version id of a numbered rule -> the headwords of the Glossary entries (latest of each
    topic) of its game citing it, one a line, sorted (``302.6``: ``Haste``, ``Summoning Sickness
    Rule``). A Glossary that cites rule numbers (Magic's) is the document's own list of the words
    a judge asks in, and the rule need not use the word (302.6 says "under its controller's
    control continuously since their most recent turn began"). A cited section's title (``509``
    "Declare Blockers Step", cited by "Block") already names its rules (`section_titles`): a
    Glossary entry citing it gives nothing, or every rule of the section would share the words
    of every entry citing it; nor do the subrules of a rule cited (103.4a-c of 103.4, "London
    Mulligan"): they would rank above the rule itself. A Glossary citing entries by name
    (STCCG's) gives nothing here."""
    cited: dict[tuple[str, str], set[str]] = defaultdict(set)
    latest: dict[str, tuple[dt.date, Version]] = {}
    for version in versions:
        start = version.valid_from
        stored = latest.get(version.topic)
        if version.series == GLOSSARY_SERIES and start is not None and (stored is None or start >= stored[0]):
            latest[version.topic] = (start, version)
    for topic, (_, entry) in latest.items():
        for reference in entry.references:
            if (number := bare(reference.strip())) is not None:
                cited[(topics[topic].game, number)].add(entry.headword)
    if not cited:
        return {}
    sections = {
        (topics[version.topic].game, number)
        for version in versions
        if version.series == NUMBERED_SERIES and (number := bare(version.headword)) is not None and title(version.text)
    }
    found: dict[int, str] = {}
    for version in versions:
        number = bare(version.headword) if version.series == NUMBERED_SERIES else None
        key = (topics[version.topic].game, number or "")
        if number is not None and key in cited and key not in sections:
            found[version.id] = "\n".join(sorted(cited[key]))
    return found
