"""What a build reports: each document's counts and coverage (`DocumentReport`, `report_for`),
the build's outcome (`BuildReport`), and the checks that refuse a document whose lines are not
all accounted for or little of which reads as its kind expects (`check_coverage`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kb.errors import BuildError
from kb.ingest.catalog import ImportReport
from rulings.model import ParseResult
from rulings.parse import Coverage, coverage
from rulings.reading import Reading, reading, refusal


@dataclass
class DocumentReport:
    """What one document's parse produced, for the build report."""

    id: str
    entries: int
    chrome: int
    unparsed: int
    duplicates_merged: int
    coverage: Coverage
    warnings: list[str] = field(default_factory=list)
    reading: Reading | None = None
    """How much of it was read as its kind expects (`rulings.reading`)."""

    def read_line(self) -> str:
        """``read as glossary: 37 of 39 lines as Glossary entries (94.9%)``, or "" when not measured."""
        return self.reading.line() if self.reading else ""

    def line(self) -> str:
        """The one-line summary printed by ``rulings build``."""
        c = self.coverage
        return (
            f"{self.id}: {self.entries} entries, {self.chrome} chrome lines, "
            f"{self.unparsed} unparsed lines, "
            + (f"{c.split} split lines, " if c.split else "")
            + f"{self.duplicates_merged} duplicates merged "
            f"({c.nonblank} non-blank lines, {c.percent:.1f}% accounted for)"
            + (f"; {c.not_entries} entry-looking lines not made entries (see warnings)" if c.not_entries else "")
        )


@dataclass
class BuildReport:
    """The outcome of a build."""

    directory: Path
    documents: list[DocumentReport]
    seconds: float
    warnings: list[str] = field(default_factory=list)
    """Findings of applying the documents and importing cards (bad catalog rows...)."""
    references: list[str] = field(default_factory=list)
    """"See X" references to topics absent from the knowledge base (not errors)."""
    cards: int = 0
    """Cards in the catalog."""
    imported: int = 0
    """Rows imported from the Lackey files."""
    imports: list[ImportReport] = field(default_factory=list)
    """Each Lackey file's import report."""
    links: int = 0
    """Version-to-card links."""
    rewritten: int | None = None
    """For a build made from the previous one (`kb.ingest.incremental`): the versions indexed anew."""
    full: str | None = None
    """For a full build: why it was not made from the previous one (`kb.ingest.incremental`)."""
    kept: list[str] = field(default_factory=list)
    """The card files this build made card files of the library (``cards/Physical.csv``, `kb.ingest.catalogs`)."""
    unsettled: str | None = None
    """What failed after the new build was put in service (`kb.ingest.publish.publish`), which the build
    stands despite."""


def report_for(result: ParseResult) -> DocumentReport:
    """The report of one parsed document."""
    return DocumentReport(
        id=result.document.id,
        entries=len(result.entries),
        chrome=len(result.chrome),
        unparsed=len(result.unparsed),
        duplicates_merged=result.duplicates_merged,
        coverage=coverage(result),
        warnings=list(result.warnings),
        reading=reading(result),
    )


def damaged_caches(damaged: dict[str, str]) -> list[str]:
    """One warning for the kept caches that did not load (they were discarded and made anew)."""
    if not damaged:
        return []
    first, *rest = damaged.values()
    more = f" and {len(rest)} more" if rest else ""
    return [f"{first}{more}: discarded; this build parses and applies the documents anew"]


def check_coverage(results: list[ParseResult], accept_unread: bool = False) -> list[DocumentReport]:
    """Every line accounted for, and enough of each document read as its kind expects: else a
    `BuildError` line; a document kept unread (``accept_unread``) is marked (`Document.unread`)."""
    for result in results:
        unread = refusal(result)
        result.document.unread = unread or ""
        if unread and not (accept_unread or result.document.accept_unread):
            raise BuildError(f"{unread} (--accept-unread keeps it)")
        if unread:
            result.warnings.append(f"{unread} Kept (--accept-unread): every version of it says so")
    reports = [report_for(r) for r in results]
    for report in reports:
        if not report.coverage.complete:
            raise BuildError(f"{report.id}: lines lost or counted twice: {report.coverage}")
    return reports
