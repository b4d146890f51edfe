"""The history index (the index of every version, `kb.index.INDEX_DIR`): one Whoosh document
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

from whoosh import fields, index, query
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token
from whoosh.reading import TermNotFound
from whoosh.searching import Searcher

from kb import files
from kb.analysis import WORD, FoldFilter, inflection_stem
from kb.fused import POOL_MB, FusedAnalyzer, fused_writing, read_lengths_once

STRIDE = 1 << 20
"""Positions given to each version of a topic (its words and the folded parts of compounds)."""
MARK = "\u241e"
"""Separates two versions in a field's text (never a word)."""
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
        headword=fields.TEXT(analyzer=_words(False), field_boost=4.0),
        headstem=fields.TEXT(analyzer=_words(True), field_boost=2.5),
        cards=fields.TEXT(analyzer=_words(False), field_boost=2.0),
        cardstem=fields.TEXT(analyzer=_words(True), field_boost=1.5),
        text=fields.TEXT(analyzer=_words(True)),
        extra=fields.TEXT(analyzer=_words(True), field_boost=0.8),
        **{name: fields.TEXT(analyzer=label) for name in LABEL_FIELDS},
        versions=fields.STORED,
    )


def fused_analysers() -> dict[str, FusedAnalyzer]:
    """What `schema`'s word fields analyse with when written (`kb.fused`)."""
    names, words = (FusedAnalyzer(stemmed=s, mark=MARK, stride=STRIDE) for s in (False, True))
    return dict(headword=names, headstem=words, cards=names, cardstem=words, text=words, extra=words)


def topic_document(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """The history document of one topic from the index documents of its versions
    (`kb.index._document`), oldest first."""
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
    files.fault("history")
    writer = index.create_in(str(directory), schema()).writer(limitmb=POOL_MB)
    read_lengths_once(writer)
    try:
        with fused_writing(writer, fused_analysers()):
            for group in by_topic.values():
                writer.add_document(**topic_document(group))
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


Span = tuple[int, int, int]
"""(version id, first day in force, first day no longer in force), as `kb.index.days` gives them."""


class Positions:
    """The positions of query words in topic documents visited in increasing order."""

    def __init__(self, searcher: Searcher) -> None:
        self.reader = searcher.reader()
        self.matchers: dict[tuple[str, str], Any] = {}

    def of(self, fieldname: str, word: Any, docnum: int) -> list[int]:
        key = (fieldname, word)
        if key not in self.matchers:
            if fieldname not in self.reader.schema:
                return []
            try:
                self.matchers[key] = self.reader.postings(fieldname, word)
            except TermNotFound:
                self.matchers[key] = None
        matcher = self.matchers[key]
        if matcher is None or not matcher.is_active():
            return []
        if matcher.id() < docnum:
            matcher.skip_to(docnum)
        if not matcher.is_active() or matcher.id() != docnum:
            return []
        found: list[int] = matcher.value_as("positions")
        return found


def versions_matching(built: query.Query, docnum: int, positions: Positions, keep: set[int] | None = None) -> set[int]:
    """The versions (numbered from 0 within the topic) of topic document ``docnum`` that
    ``built`` matches, among those numbered ``keep`` (all when None: a narrower ``keep``
    only saves work, the answer is the same as the whole one's, within ``keep``)."""
    if built is query.NullQuery or keep == set():
        return set()
    if isinstance(built, query.Term):
        found = {p // STRIDE for p in positions.of(built.fieldname, built.text, docnum)}
        return found if keep is None else found & keep
    if isinstance(built, query.Phrase):
        return _phrase(built, docnum, positions, keep)
    if isinstance(built, query.AndNot):
        matched = versions_matching(built.a, docnum, positions, keep)
        return matched - versions_matching(built.b, docnum, positions, matched) if matched else matched
    if isinstance(built, query.And):
        narrowed = keep
        for child in built.children():
            narrowed = versions_matching(child, docnum, positions, narrowed)
            if not narrowed:
                return set()
        return narrowed or set()
    if isinstance(built, query.Or):
        return set().union(*(versions_matching(child, docnum, positions, keep) for child in built.children()))
    raise TypeError(f"the history index cannot evaluate {type(built).__name__}")


def _phrase(built: query.Phrase, docnum: int, positions: Positions, keep: set[int] | None) -> set[int]:
    """Versions where the phrase's words stand at consecutive positions (Whoosh's Phrase, slop 1)."""
    starts = {p for p in positions.of(built.fieldname, built.words[0], docnum) if keep is None or p // STRIDE in keep}
    for offset, word in enumerate(built.words[1:], start=1):
        if not starts:
            break
        at = set(positions.of(built.fieldname, word, docnum))
        starts = {p for p in starts if p + offset in at}
    return {p // STRIDE for p in starts}


def loosened(built: query.Query) -> query.Query:
    """``built`` with each phrase replaced by all its words: it matches at least the same
    topics, and ranks them without reading positions (the phrase is checked in `versions_matching`)."""
    if isinstance(built, query.Phrase):
        return query.And([query.Term(built.fieldname, w) for w in built.words])
    if isinstance(built, query.AndNot):
        return query.AndNot(loosened(built.a), built.b)  # what is excluded stays exact
    if built.is_leaf():
        return built
    return built.apply(loosened)


def in_force(span: Span, day: int | None) -> bool:
    """Whether a version was in force on ``day`` (every version when None)."""
    return day is None or span[1] <= day < span[2]
