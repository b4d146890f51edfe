"""The Whoosh full-text indexes, written beside the SQLite store: the versions in force on the
build date, one document per version (``index-current``), and every version, one document per
topic (``index``, shaped by `kb.index.history`); and the vocabulary for spelling correction.

Words are read by `kb.analysis`; the fields are described in our own terms (`FIELDS`, each a
`kb.engine.indexes.Field`), of which the engine makes the schema. The text field is stemmed
(English); headwords and card names are not, and are boosted so a hit on them ranks first
(`kb.boosts`). Each version records the days it was in force, so a date filter answers "as of
any date". The indexes are written once, by a build, into the new build directory (or extended
by an incremental add); readers only open them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from kb.analysis import folded_counts, folded_words
from kb.analysis import inflection_stem as stem
from kb.boosts import BOOSTS
from kb.engine.indexes import Field, create_index, patch_index, segment_sizes
from kb.index.aside import aside
from kb.index.history import FIELDS as HISTORY_FIELDS
from kb.index.history import topic_document, write_history
from kb.layout import days
from kb.model import Topic, Version
from kb.paths import BUILT_ON, CURRENT_DIR, INDEX_DIR, VOCABULARY
from kb.texts import extra_text, see_texts
from kb.vocabulary import series_of_kind

FIELDS = {
    "version": Field("number", stored=True, unique=True),
    "topic": Field("key", stored=True),
    "headword": Field("names", boost=BOOSTS["headword"], stored=True),
    "headstem": Field("words", boost=BOOSTS["headstem"]),
    "cards": Field("names", boost=BOOSTS["cards"]),
    "cardstem": Field("words", boost=BOOSTS["cardstem"]),
    "text": Field("words", boost=BOOSTS["text"], stored=True),
    "extra": Field("words", boost=BOOSTS["extra"]),
    "series": Field("key", stored=True),
    "kind": Field("key"),
    "game": Field("key", stored=True),
    "doc": Field("key", stored=True),
    "valid_from": Field("number", stored=True),
    "valid_to": Field("number", stored=True),
}
"""The index's fields (`kb.engine.indexes` makes its schema of them)."""


@contextlib.contextmanager
def indexes_written(
    build: Path,
    *,
    versions: list[Version],
    topics: dict[str, Topic],
    card_names: dict[int, list[str]],
    seen: dict[int, str],
    today: dt.date,
) -> Iterator[None]:
    """Write both indexes into the build directory ``build`` around the block (the rest of the
    build's writes): every version, and the versions in force on ``today`` (what most searches
    want, small enough to answer in milliseconds); ``seen``: `see_texts` of every version. The
    index of every version is written aside (`kb.index.aside`), on a second core while the block and
    then the in-force index and the vocabulary are written here; leaving waits for it."""

    def history() -> None:
        write_history(build / INDEX_DIR, (version_document(v, topics, card_names, seen) for v in versions))

    with aside(history, "the history index"):
        yield
        day = today.toordinal()
        current = [v for v in versions if _in_force(_days(v), day)]
        write_index(build / CURRENT_DIR, current, topics, card_names, see_texts(current, topics))
        write_vocabulary(build / VOCABULARY, versions, card_names)
    (build / BUILT_ON).write_text(today.isoformat())


def write_vocabulary(path: Path, versions: list[Version], card_names: dict[int, list[str]]) -> None:
    """Count the folded words of every distinct text, summary and note; list the words of
    headwords and card names apart (they are the preferred spelling corrections)."""
    _write_vocabulary(path, folded_counts(_texts(versions)), _name_words(versions, card_names))


def _texts(versions: list[Version]) -> set[str]:
    """The distinct texts, summaries and notes of ``versions``."""
    return {t for v in versions for t in (v.text, v.summary or "", v.note) if t}


def _name_words(versions: list[Version], card_names: dict[int, list[str]]) -> set[str]:
    """The folded words of the headwords of ``versions`` and of the cards they name."""
    return {w for v in versions for name in [v.headword, *card_names.get(v.id, [])] for w in folded_words(name)}


def _write_vocabulary(path: Path, counts: Counter[str], names: set[str]) -> None:
    """The vocabulary file: word counts, name words, and each word's stem where it is not the
    word itself (stemming every word when a reader opens it took 0.1 s on a large library)."""
    stems = {word: root for word in sorted(set(counts) | names) if (root := stem(word)) != word}
    data = {"counts": dict(sorted(counts.items())), "names": sorted(names), "stems": stems}
    path.write_text(json.dumps(data), encoding="utf-8")


def _in_force(span: tuple[int, int], day: int) -> bool:
    return span[0] <= day < span[1]


def _days(version: Version) -> tuple[int, int]:
    return days(version.valid_from, version.valid_to)


def write_index(
    directory: Path,
    versions: Iterable[Version],
    topics: dict[str, Topic],
    card_names: dict[int, list[str]],
    seen: dict[int, str],
) -> None:
    """Create an index in ``directory`` (which must not exist) with one document per version.

    A version's ``kind`` is its series' kind (a Glossary entry replaced by a Current Rulings
    update is of kind glossary, as it is labelled); ``card_names`` maps a version id to the
    names of the cards it names; ``seen``, to the text its "See X" points to (`see_texts` of
    these versions).
    """
    directory.mkdir()
    create_index(directory, FIELDS, (version_document(v, topics, card_names, seen) for v in versions))


def version_document(
    version: Version, topics: dict[str, Topic], card_names: dict[int, list[str]], seen: dict[int, str]
) -> dict[str, Any]:
    """The index document of one version."""
    start, end = _days(version)
    shown = version.text or " ".join(f"See {r}." for r in version.references)
    names = " | ".join(card_names.get(version.id, []))
    return dict(
        version=version.id,
        topic=version.topic,
        headword=version.headword,
        headstem=version.headword,
        cards=names,
        cardstem=names,
        text=shown,
        extra=extra_text(version, seen.get(version.id, "")),
        series=version.series,
        kind=series_of_kind(version.series),
        game=topics[version.topic].game,
        doc=version.document_id,
        valid_from=start,
        valid_to=end,
    )


def extend_indexes(
    build: Path,
    previous: Path,
    *,
    versions: list[Version],
    touched: set[int],
    first: int,
    before: dict[int, tuple[int, int]],
    topics: dict[str, Topic],
    card_names: dict[int, list[str]],
    seen: dict[int, str],
    today: dt.date,
) -> None:
    """Write the indexes of ``build`` as copies of the ``previous`` build's (their segment files,
    never written again, hard-linked) with only what changed rewritten: in the index of every
    version, the versions numbered ``touched`` (new from number ``first`` on, or changed);
    in the in-force index, the versions that came into force or left it since the previous
    build's date, and those touched or whose "See" text changed. ``before``: the days (as
    `days` gives them) of the earlier versions whose days changed; ``seen``: `see_texts`
    of every version. The vocabulary gains the words of the new versions.

    Each index is its full build's segment (its replaced documents deleted) and at most one
    segment of what the adds wrote (`kb.engine.indexes.patch_index`); an index whose previous
    copy is `worn` is written whole instead, as a full build writes it. Never more than two
    segments: each is an open file of every thread's searcher and a walk of every search (100
    adds to the 90k stress library, each leaving a segment of its own, made a worker hold 16
    more open files an add). The first segment is never merged with the rest: a merge into one
    segment without deletions leaves its documents in another order than a full build's, and a
    search orders documents of equal score by document number in such an index
    (`kb.engine.bulk.best`), as it rightly does in a full build's; over two segments it orders
    them as a full build would (`kb.engine.steady`)."""
    rewritten_topics = {versions[n - 1].topic for n in touched | set(before)}
    if worn(previous / INDEX_DIR):
        write_history(build / INDEX_DIR, (version_document(v, topics, card_names, seen) for v in versions))
    else:
        grouped: dict[str, list[dict[str, Any]]] = {t: [] for t in rewritten_topics}
        for version in versions:
            if version.topic in grouped:
                grouped[version.topic].append(version_document(version, topics, card_names, seen))
        patch_index(
            previous / INDEX_DIR,
            build / INDEX_DIR,
            HISTORY_FIELDS,
            "topic",
            rewritten_topics,
            [topic_document(grouped[t]) for t in sorted(rewritten_topics)],
        )
    then = dt.date.fromisoformat((previous / BUILT_ON).read_text().strip()).toordinal()
    day = today.toordinal()
    now = [v for v in versions if _in_force(_days(v), day)]
    new_seen = see_texts(now, topics)
    if worn(previous / CURRENT_DIR):
        write_index(build / CURRENT_DIR, now, topics, card_names, new_seen)
    else:
        was = [v for v in versions[:first] if _in_force(before.get(v.id) or _days(v), then)]
        old_seen = see_texts(was, topics)
        old_ids = {v.id for v in was}
        rewritten = [
            v for v in now if v.id not in old_ids or v.id in touched or old_seen.get(v.id) != new_seen.get(v.id)
        ]
        gone = (old_ids - {v.id for v in now}) | {v.id for v in rewritten}
        patch_index(
            previous / CURRENT_DIR,
            build / CURRENT_DIR,
            FIELDS,
            "version",
            gone,
            [version_document(v, topics, card_names, new_seen) for v in rewritten],
        )
    old = json.loads((previous / VOCABULARY).read_text(encoding="utf-8"))
    counts: Counter[str] = Counter(old["counts"])
    counts.update(folded_counts(_texts(versions[first:]) - _texts(versions[:first])))
    _write_vocabulary(build / VOCABULARY, counts, set(old["names"]) | _name_words(versions[first:], card_names))
    (build / BUILT_ON).write_text(today.isoformat())


WORN = 0.1
"""The share of an index's documents an add's rewriting may reach (`worn`) before an add writes it whole."""


def worn(directory: Path) -> bool:
    """Whether the index in ``directory`` is due to be written whole: its first segment's
    deleted documents and the documents of the others (the adds' tail) are more than `WORN`
    of its first segment's documents (or it has more than two segments: a copy made before
    the adds' segments were merged). Each add rewrites the tail (`patch_index`), and the deleted
    documents are read and skipped by every search; but an add that writes the indexes whole
    costs more: on the 90k stress library (2,379 topics), 46-62 s of CPU against 11-17 s for
    an add of 25 rulings that rewrites a tail of up to 250 documents."""
    sizes = segment_sizes(directory)
    if not sizes:
        return False
    if len(sizes) > 2:
        return True
    total, live = sizes[0]
    rewritten = total - live + sum(held for held, _ in sizes[1:])
    return rewritten > WORN * total
