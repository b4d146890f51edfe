"""Which document wrote each paragraph and sentence of a version's text, as answers give it:
per paragraph (`paragraphs`, in every answer part), every source of a citation (`cited`:
``Glossary 1.7 ¶1–2; Current Rulings Update 12/18/00 ¶3``), and a topic's texts sentence by
sentence beside their sources (`blame`, like ``git blame`` for lines). The sources are kept by
the build (`kb.ingest.sources`) and read back from the store (`kb.sentences.sources_of`).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from kb.answers import BlameAnswer, BlamePart, CitedSource, ParagraphSource, Part, SentenceSource, Source
from kb.model import Version
from kb.model import lines as line_range
from kb.sentences import paragraphs as split_paragraphs
from kb.sentences import sentence_grid, sources_of

if TYPE_CHECKING:
    from kb.read.reader import Reader


def source(reader: Reader, found: list[str]) -> Source:
    """A kept source (``[document id, lines]``) as an answer gives it."""
    document = reader.documents()[found[0]]
    return {
        "document": document["id"],
        "title": document["title"],
        "version": document["version"],
        "date": document["date"],
        "lines": found[1],
    }


def sentences(reader: Reader, version: Version) -> list[SentenceSource]:
    """Each sentence of ``version``'s text with its source, in order."""
    return [
        {"paragraph": p, "sentence": s, "text": text, "source": source(reader, found)}
        for p, (texts, sources) in enumerate(zip(sentence_grid(version.text), sources_of(version), strict=True), 1)
        for s, (text, found) in enumerate(zip(texts, sources, strict=True), 1)
    ]


def paragraphs(reader: Reader, version: Version) -> list[ParagraphSource]:
    """Each paragraph of ``version``'s text with its source; a paragraph whose sentences come from
    different documents lists each sentence with its own (its sentences split and cited only then:
    every answer part gives its paragraphs, and most versions are their own document's alone)."""
    if not version.sources:  # every sentence its own document's: no sentence need be split
        mine = [version.document_id, line_range(version.line_start, version.line_end)]
        return [
            {"paragraph": number, "source": source(reader, mine), "sentences": []}
            for number, _ in enumerate(split_paragraphs(version.text), 1)
        ]
    found: list[ParagraphSource] = []
    every: list[SentenceSource] = []
    for number, kept in enumerate(sources_of(version), 1):
        one = all(k == kept[0] for k in kept)
        every = every if one or every else sentences(reader, version)
        found.append(
            {
                "paragraph": number,
                "source": source(reader, kept[0]) if one else None,
                "sentences": [] if one else [s for s in every if s["paragraph"] == number],
            }
        )
    return found


def cited(reader: Reader, version: Version) -> list[CitedSource]:
    """Every document that wrote ``version``'s text, first written first, with the paragraphs
    each wrote; empty when the cited document (its own) wrote all of it."""
    if not version.sources:
        return []
    by: dict[str, tuple[list[str], list[int]]] = {}
    for number, kept in enumerate(sources_of(version), 1):
        for document, lines in kept:
            spans, numbers = by.setdefault(document, ([], []))
            spans.append(lines) if lines not in spans else None
            numbers.append(number) if number not in numbers else None
    if len(by) < 2 and version.document_id in by:
        return []
    return [
        {**source(reader, [document, ", ".join(spans)]), "paragraphs": pilcrows(numbers)}
        for document, (spans, numbers) in by.items()
    ]


def pilcrows(numbers: list[int]) -> str:
    """Paragraph numbers as a citation gives them: ``¶1–2, 4``."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return "¶" + ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def blame(reader: Reader, topic: str, on: dt.date, shown: list[tuple[Version, Part]]) -> BlameAnswer:
    """Each text of ``topic`` in force on ``on`` (``shown``: each version and its answer part),
    sentence by sentence, each sentence beside the document that wrote it."""
    parts: list[BlamePart] = [
        {
            "key": part["key"],
            "label": part["label"],
            "number": part["number"],
            "of": part["of"],
            "status": part["status"],
            "valid_from": part["valid_from"],
            "citation": part["citation"],
            "sentences": sentences(reader, version),
        }
        for version, part in shown
    ]
    row = reader.topic(topic) or {}
    return {"topic": topic, "headword": row["headword"], "as_of": on.isoformat(), "parts": parts}
