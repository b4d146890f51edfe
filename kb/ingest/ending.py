"""An added document that would end many versions of another series: a contradiction, unless forced.

A document's kind decides what it ends (`rulings.kinds.Versions`): a Glossary consolidates the
Current Rulings before it, a whole Current Rulings rescinds the rulings it omits. Given the wrong
kind, a page ends what its text never meant to: a Current Rulings page added as a glossary ended 47
rulings of the bundled library (157 versions in force, then 110). `guard` looks at the ledger the
add's build applied (before anything is written): when the document ends at least `MANY` versions
of a series other than its own (rescinded or consolidated, not replaced), and its text does not
read as the kind given (`rulings.reading.detect` names another kind, or none with confidence),
the add is refused in one line naming the series, the count and the kind the text reads as;
``--force-contradiction`` keeps it, with a warning. A text that reads as its kind (a new Glossary
that consolidates the rulings before it) ends what its kind ends.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from pathlib import Path

from kb.errors import BuildError
from kb.ingest.versioning import Ledger
from rulings import kinds
from rulings.model import Document
from rulings.reading import detect
from rulings.source import read_source

MANY = 10
"""Versions of another series an added document may end before its kind is doubted."""
ENDING = ("rescinded", "consolidated")
"""The ends a document gives what it does not hold (not a version replaced by a newer text)."""


def ended(ledger: Ledger, document: Document) -> collections.Counter[str]:
    """The versions of series other than ``document``'s own that it ended without replacing them, by series."""
    own = kinds.kind(document.kind).versions.series
    return collections.Counter(
        v.series
        for v in ledger.versions
        if v.ended_by and v.ended_by.get("document") == document.id and v.end in ENDING
        if v.series.split(":")[0] != own
    )


def guard(
    document: Document,
    source: Path,
    titles: frozenset[str],
    force: bool,
    notify: Callable[[str], None] | None,
) -> Callable[[Ledger], None]:
    """The check of the add of ``document`` (copied from ``source``) on the ledger its build applied."""

    def check(ledger: Ledger) -> None:
        counts = ended(ledger, document)
        if not counts or max(counts.values()) < MANY:
            return
        series, count = counts.most_common(1)[0]
        read = detect(document, read_source(document.path), titles).kind
        if read == document.kind:
            return
        said = (
            f"{source}: as a {document.kind} it would end {count} versions in force of the {series} series, "
            f"which it does not hold, but its text "
            + (f"reads as a {read}" if read else f"does not read as a {document.kind}")
        )
        if not force:
            raise BuildError(f"{said}; correct --kind, or add --force-contradiction to keep it")
        if notify:
            notify(f"warning: {said} (kept: --force-contradiction)")

    return check
