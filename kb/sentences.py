"""A text's paragraphs and sentences, and the document that wrote each sentence of a version.

Paragraphs are separated by blank lines; sentences end with ``.``, ``!`` or ``?`` (a closing
quote or bracket may follow) before a capital, quote or bracket. The one split both sides use:
the build edits texts by it (`kb.ingest.textops`) and keeps each sentence's source by it
(`kb.ingest.sources`); the read side cites by it (`kb.read.sources`).
"""

from __future__ import annotations

import re

from kb.model import Version, lines

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]\u201d]*\s+(?=[A-Z\"'(\[\u201c])")

Source = list[str]
"""One sentence's source: ``[document id, lines]``."""
Grid = list[list[Source]]
"""A text's sources: per paragraph, per sentence."""


def paragraphs(text: str) -> list[str]:
    """The paragraphs of ``text``."""
    return [p for p in text.split("\n\n") if p.strip()]


def sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph."""
    return [s for s in _SENTENCE_END.split(paragraph.strip()) if s]


def sentence_grid(text: str) -> list[list[str]]:
    """The sentences of ``text``, paragraph by paragraph."""
    return [sentences(paragraph) for paragraph in paragraphs(text)]


def own(version: Version) -> Grid:
    """Every sentence of ``version``'s text cited to its own document and lines."""
    mine = [version.document_id, lines(version.line_start, version.line_end)]
    return [[list(mine) for _ in paragraph] for paragraph in sentence_grid(version.text)]


def sources_of(version: Version) -> Grid:
    """The source of each sentence of ``version``'s text: those it keeps (`Version.sources`), else
    (it keeps none, or they do not fit its text) its own document's."""
    kept = version.sources
    if kept and [len(p) for p in kept] == [len(p) for p in sentence_grid(version.text)]:
        return kept
    return own(version)
