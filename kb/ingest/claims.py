"""Refuse a document whose text contradicts the kind or date it is given, unless forced.

`check` runs `rulings.self_description.contradictions` on parse results: a contradiction is
a `BuildError` naming the file and line, unless the document is forced
(``force_contradiction``); a forced one becomes a warning of the document's parse report and a
sentence of its note, so the build report and the document's page both show it.
"""

from __future__ import annotations

from kb.errors import BuildError
from rulings.model import ParseError, ParseResult
from rulings.self_description import Contradiction, contradictions
from rulings.source import MAX_BYTES, read_bounded, read_source

FORCED = "Kept as given although its text says otherwise: "
"""How a forced contradiction starts in the document's note."""


def text_lines(path: str) -> list[str] | None:
    """The lines of the document at ``path``, or None for a PDF (its text costs an extraction) or
    a file that does not read (its parse said why)."""
    from rulings.extract import kind_of  # here: a search reads no document

    try:
        if kind_of(path, read_bounded(path, MAX_BYTES)) == "pdf":
            return None
        return read_source(path).lines
    except (OSError, ValueError, ParseError):
        return None


def found(result: ParseResult, said_by: dict[str, str] | None = None) -> list[Contradiction]:
    """The contradictions of one parsed document."""
    return contradictions(result, text_lines(result.document.path), said_by)


def check(results: list[ParseResult], force: str = "set force_contradiction = true in its [[document]] table") -> None:
    """Refuse the first unforced contradiction of ``results``; record the forced ones (see the module)."""
    for result in results:
        document = result.document
        listed = found(result)
        if listed and not document.force_contradiction:
            raise BuildError(
                f"{listed[0].message(document.path)}; correct the manifest, or {force} to keep it as given"
            )
        for contradiction in listed:
            warning = f"{contradiction.message(document.path)} (forced)"
            if warning not in result.warnings:
                result.warnings.append(warning)
            sentence = f"{FORCED}{contradiction.said}."
            if sentence not in document.note:
                document.note = f"{document.note} {sentence}".strip()
