"""The history index (the index of every version, `kb.paths.INDEX_DIR`): one Whoosh document
per topic, holding every version of it, for searches over every version or as of a past date.

A search over every version scores far fewer documents here than in an index of one
document per version (a topic has tens of versions in a long-lived library), the index is
about three times cheaper to write, and the answer is what a reader of history wants:
topics, best first, each with its matching versions.

Each field of a topic's document is the concatenation of that field in each of its
versions, the k-th version's words placed from position ``k * STRIDE`` on, so a phrase
never runs from one version into the next and the version a word belongs to is its
position // ``STRIDE``. A search runs in two stages: the query ranks the topic documents
(BM25F); then, for the best topics only, the same query is evaluated on the positions of
each version (`matching`), which gives exactly the versions the index of every version
matches, within those topics. A topic whose words match only across versions, or none of
whose matching versions was in force on the date asked, is passed over.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kb import files
from kb.boosts import BOOSTS
from kb.engine.indexes import Field, create_index
from kb.layout import MARK

TEXT_FIELDS = ("headword", "headstem", "cards", "cardstem", "text", "extra")
LABEL_FIELDS = ("series", "kind", "game", "doc")
"""Whole values (no spaces in them), one per version."""

FIELDS = {
    "topic": Field("key", stored=True, unique=True),
    "headword": Field("names", boost=BOOSTS["headword"], layered=True),
    "headstem": Field("words", boost=BOOSTS["headstem"], layered=True),
    "cards": Field("names", boost=BOOSTS["cards"], layered=True),
    "cardstem": Field("words", boost=BOOSTS["cardstem"], layered=True),
    "text": Field("words", boost=BOOSTS["text"], layered=True),
    "extra": Field("words", boost=BOOSTS["extra"], layered=True),
    **{name: Field("labels", layered=True) for name in LABEL_FIELDS},
    "versions": Field("kept"),
}
"""The history index's fields (`kb.engine.indexes` makes its schema of them): those of the index
of every version, with positions, each version's words from ``k * STRIDE`` on."""


def topic_document(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """The history document of one topic from the index documents of its versions
    (`kb.index.writer._document`), oldest first."""
    joined = {
        name: f" {MARK} ".join(str(d[name]).replace(MARK, " ") for d in documents)  # a mark typed in a text is no word
        for name in (*TEXT_FIELDS, *LABEL_FIELDS)
    }
    spans = tuple((d["version"], d["valid_from"], d["valid_to"]) for d in documents)
    return dict(topic=documents[0]["topic"], versions=spans, **joined)


def write_history(directory: Path, documents: Iterable[dict[str, Any]]) -> None:
    """Create the history index in ``directory`` (which must not exist) from the index
    documents of every version, in version order."""
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for document in documents:
        by_topic.setdefault(document["topic"], []).append(document)
    directory.mkdir()
    with files.naming(directory):  # a full disk's error names the index
        files.fault("history")
        create_index(directory, FIELDS, (topic_document(group) for group in by_topic.values()))
