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

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from kb import files
from kb.analysis import WORD, inflection_stem
from kb.boosts import BOOSTS
from kb.engine.analysers import FoldFilter
from kb.engine.fused import FusedAnalyzer
from kb.engine.storage import fields, index
from kb.engine.text import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token
from kb.engine.writing import POOL_MB, committed, fused_writing
from kb.layout import MARK, STRIDE

TEXT_FIELDS = ("headword", "headstem", "cards", "cardstem", "text", "extra")
LABEL_FIELDS = ("series", "kind", "game", "doc")
"""Whole values (no spaces in them), one per version."""


class Strata(Filter):  # type: ignore[misc]
    """Drop the marks between versions and move the k-th version's words to ``k * STRIDE`` on."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        version, start = 0, 0
        for token in tokens:
            if token.text == MARK:
                version += 1
                start = token.pos + 1 if token.positions else 0
                continue
            if token.positions:
                token.pos = version * STRIDE + token.pos - start
            yield token


def _words(stem: bool) -> Any:
    chain = RegexTokenizer(f"{WORD}|{MARK}") | FoldFilter() | Strata() | LowercaseFilter()
    return chain | StemFilter(inflection_stem) if stem else chain


def schema() -> fields.Schema:
    """The history index's fields: those of the index of every version, with positions."""
    label = RegexTokenizer(rf"[^\s{MARK}]+|{MARK}") | Strata()
    return fields.Schema(
        topic=fields.ID(stored=True, unique=True),
        headword=fields.TEXT(analyzer=_words(False), field_boost=BOOSTS["headword"]),
        headstem=fields.TEXT(analyzer=_words(True), field_boost=BOOSTS["headstem"]),
        cards=fields.TEXT(analyzer=_words(False), field_boost=BOOSTS["cards"]),
        cardstem=fields.TEXT(analyzer=_words(True), field_boost=BOOSTS["cardstem"]),
        text=fields.TEXT(analyzer=_words(True), field_boost=BOOSTS["text"]),
        extra=fields.TEXT(analyzer=_words(True), field_boost=BOOSTS["extra"]),
        **{name: fields.TEXT(analyzer=label) for name in LABEL_FIELDS},
        versions=fields.STORED,
    )


def fused_analysers() -> dict[str, FusedAnalyzer]:
    """What `schema`'s word fields analyse with when written (`kb.engine.fused`)."""
    names, words = (FusedAnalyzer(stemmed=s, mark=MARK, stride=STRIDE) for s in (False, True))
    return dict(headword=names, headstem=words, cards=names, cardstem=words, text=words, extra=words)


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
        writer = index.create_in(str(directory), schema()).writer(limitmb=POOL_MB)
        with committed(writer), fused_writing(writer, fused_analysers()):
            for group in by_topic.values():
                writer.add_document(**topic_document(group))
