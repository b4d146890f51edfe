"""The Whoosh full-text index: one document per version, written beside the SQLite store.

Analysers keep card-game words findable however they are typed: ``Cha'Joh``/``Cha’Joh``/
``chajoh``, ``U.S.S.``/``USS``, ``I.K.S.``, ``Mr. Quark``, ``[MQ]``/``MQ``, ``2E``. The text
field is stemmed (English); headwords and card names are not, and are boosted so a hit on
them ranks first. Each version records the days it was in force, so one index answers
"in force today" and "as of any date". The index is written once, by a build, into the
new build directory; readers only open it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from whoosh import fields, index, query
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token

from kb.versions import Topic, Version
from rulings.normalize import fold_quotes

INDEX_DIR = "index"
"""The folder of the index of every version, inside a build directory."""
CURRENT_DIR = "index-current"
"""The folder of the small index of the versions in force on the build date."""
BUILT_ON = "built_on.txt"
"""The build date, which `CURRENT_DIR` is exact for."""
NEVER = dt.date.max.toordinal()
"""valid_to of a version still in force (and valid_from of one pending)."""
WORD = r"\[\w+\]|\w+(?:['\u2019.\-]\w+)*\.?"
"""A word as the index sees it: ``[MQ]``, ``Cha'Joh``, ``U.S.S.``, ``Bio-ship``."""


class FoldFilter(Filter):  # type: ignore[misc]
    """Fold a word to its comparable form: no quotes, periods, brackets or hyphens."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            token.text = fold_word(token.text)
            if token.text:
                yield token


def fold_word(word: str) -> str:
    """``Cha’Joh`` -> ``chajoh``, ``U.S.S.`` -> ``uss``, ``[MQ]`` -> ``mq``, ``Bio-ship`` -> ``bioship``."""
    return re.sub(r"[\[\]'.\-]", "", fold_quotes(word)).lower()


def name_analyzer() -> Any:
    """Headwords and card names: folded, not stemmed."""
    return RegexTokenizer(WORD) | FoldFilter() | LowercaseFilter()


def text_analyzer() -> Any:
    """Entry text: folded and stemmed."""
    return RegexTokenizer(WORD) | FoldFilter() | LowercaseFilter() | StemFilter()


def schema() -> fields.Schema:
    """The index's fields."""
    return fields.Schema(
        version=fields.NUMERIC(int, stored=True, unique=True),
        topic=fields.ID(stored=True),
        headword=fields.TEXT(analyzer=name_analyzer(), field_boost=4.0, stored=True),
        cards=fields.TEXT(analyzer=name_analyzer(), field_boost=2.0),
        text=fields.TEXT(analyzer=text_analyzer(), stored=True),
        series=fields.ID(stored=True),
        kind=fields.ID,
        game=fields.ID(stored=True),
        doc=fields.ID(stored=True),
        valid_from=fields.NUMERIC(int, stored=True),
        valid_to=fields.NUMERIC(int, stored=True),
    )


def write_indexes(
    build: Path, versions: list[Version], topics: dict[str, Topic], kinds: dict[str, str],
    card_names: dict[int, list[str]], today: dt.date, procs: int = 1,
) -> None:  # fmt: skip
    """Write both indexes into the build directory ``build``: every version, and the versions
    in force on ``today`` (what most searches want, small enough to answer in milliseconds)."""
    write_index(build / INDEX_DIR, versions, topics, kinds, card_names, procs)
    day = today.toordinal()
    current = [v for v in versions if _days(v)[0] <= day < _days(v)[1]]
    write_index(build / CURRENT_DIR, current, topics, kinds, card_names, 1)
    (build / BUILT_ON).write_text(today.isoformat())


def _days(version: Version) -> tuple[int, int]:
    start = version.valid_from.toordinal() if version.valid_from else NEVER
    return start, version.valid_to.toordinal() if version.valid_to else NEVER


def write_index(
    directory: Path, versions: Iterable[Version], topics: dict[str, Topic], kinds: dict[str, str],
    card_names: dict[int, list[str]], procs: int = 1,
) -> None:  # fmt: skip
    """Create an index in ``directory`` (which must not exist) with one document per version.

    ``kinds`` maps a document id to its kind; ``card_names`` a version id to the names of
    the cards it names.
    """
    directory.mkdir()
    ix = index.create_in(str(directory), schema())
    writer = ix.writer(limitmb=256, procs=procs, multisegment=procs > 1)
    try:
        for version in versions:
            start, end = _days(version)
            shown = version.text or " ".join(f"See {r}." for r in version.references)
            writer.add_document(
                version=version.id, topic=version.topic, headword=version.headword,
                cards=" | ".join(card_names.get(version.id, [])), text=shown, series=version.series,
                kind=kinds[version.document_id], game=topics[version.topic].game, doc=version.document_id,
                valid_from=start, valid_to=end,
            )  # fmt: skip
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


def date_filter(on: dt.date) -> query.Query:
    """Versions in force on ``on``."""
    day = on.toordinal()
    return query.And([query.NumericRange("valid_from", None, day), query.NumericRange("valid_to", day + 1, NEVER)])
