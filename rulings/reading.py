"""How much of a document was read as its kind expects, the refusal when too little was, and the
kind its text looks like when none is named.

Coverage (`rulings.parse.coverage`) counts where each line went. A line accounted for inside an
entry whose shape the kind does not expect is not *read*: an entry whose headword is a sentence
(the kind's `rulings.kinds.Kind.shaped` says no), an entry holding more than two thirds of the text of a
document of `SWALLOW` lines or more, a document of `HANDFUL` lines or more read as fewer than one entry
per `PER_ENTRY` lines, an introduction that does not name the kind (`Kind.itself`: a Glossary's
front matter says "Glossary"). `Reading` counts the lines read beside the text lines (non-blank,
not chrome). A document whose lines are mostly claimed (in entries, not reported unparsed) but
not read, or of which nothing is read, is refused in one line (`refusal`), unless kept on
purpose (``--accept-unread``): then every version of it carries `UNREAD_NOTE`.

`detect` asks every kind's detector how sure it is that a text is of that kind; the most
confident one at `CONFIDENT` or above names the kind, else none does.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from rulings import kinds
from rulings.kinds import share
from rulings.model import Document, ParseError, ParseResult
from rulings.parse import parse_source
from rulings.source import SourceText

SWALLOW = 40
"""From this many text lines, an entry holding more than two thirds of the text (in characters) is
not read as an entry (a long list inside a ruling is short lines: it is read)."""
HANDFUL = 200
"""From this many text lines, fewer than one entry per `PER_ENTRY` lines reads nothing."""
PER_ENTRY = 50
CONFIDENT = 0.5
"""A detector's confidence from which it names the kind."""
NAMED = 0.6
"""The confidence of a text read well by a kind whose name its top does not say is scaled by this."""
STARTS = 5
"""A text where one line in this many starts an entry of a kind looks wholly of that kind."""
LOOKS = 0.8
"""How sure a text that looks wholly of a kind, without naming it, is of that kind."""
TOP = 600
"""The characters of a text's top in which it names its kind."""
UNREAD_NOTE = "kept unread: most of its document's lines do not look like {entries}; this text may not be one entry"
"""The note every version of a document kept with ``--accept-unread`` carries."""


@dataclass(frozen=True)
class Reading:
    """How much of a document was read as its kind expects."""

    kind: str
    """The kind it was read as."""
    text: int
    """Non-blank lines that are not chrome."""
    read: int
    """Of those, the lines in entries of the shape the kind expects."""
    claimed: int
    """Of those, the lines not reported unparsed (in an entry or an introduction)."""
    detected: bool = False
    """Whether the kind was named by the detectors, not by the manifest or ``--kind``."""

    @property
    def percent(self) -> float:
        """Share of text lines read, in percent."""
        return 100.0 * self.read / self.text if self.text else 100.0

    @property
    def low(self) -> bool:
        """Whether too little was read: most claimed lines not read, or nothing read."""
        return self.text > 0 and (self.read == 0 or 2 * self.read < self.claimed)

    def line(self) -> str:
        """``read as glossary (detected): 37 of 39 lines as Glossary entries (94.9%)``."""
        how = " (detected)" if self.detected else ""
        return (
            f"read as {self.kind}{how}: {self.read} of {self.text} lines as {_entries(self.kind)} ({self.percent:.1f}%)"
        )


def _entries(name: str) -> str:
    return kinds.kind(name).entries or f"{name} entries"


def reading(result: ParseResult, detected: bool = False) -> Reading:
    """How much of ``result`` was read as its document's kind expects."""
    kind = kinds.kind(result.document.kind)
    chrome = set(result.chrome)
    text = set(result.nonblank) - chrome
    claimed = text - set(result.unparsed)
    topics = [e for e in result.entries if e.kind != "introduction"]
    size = {n: len(result.lines[n - 1].strip()) if n <= len(result.lines) else 0 for n in text}
    whole = sum(size.values())
    read: set[int] = set()
    if not (len(text) >= HANDFUL and len(topics) * PER_ENTRY < len(text)):
        for entry in result.entries:
            own = set(entry.lines) | set(entry.duplicate_lines)
            if entry.kind == "introduction":
                named = kind.itself and re.search(kind.itself, f"{entry.headword}\n{entry.text}", re.IGNORECASE)
                if named:
                    read |= own
            elif kind.shaped(entry) and not (len(text) >= SWALLOW and 3 * sum(size.get(n, 0) for n in own) > 2 * whole):
                read |= own
    return Reading(kind.name, len(text), len(read & text), len(claimed), detected)


def refusal(result: ParseResult, detected: bool = False) -> str | None:
    """The one line refusing ``result`` when too little of it was read (None: it was read)."""
    found = reading(result, detected)
    if not found.low:
        return None
    how = " (detected)" if detected else ""
    return (
        f"{result.document.path}: read as {found.kind}{how}, only {found.read} of {found.text} lines look like "
        f"{_entries(found.kind)}; is it another kind?"
    )


def note(kind: str) -> str:
    """The note of a version of a document of ``kind`` kept unread."""
    return UNREAD_NOTE.format(entries=_entries(kind))


def detect(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> Detected:
    """The kind ``source`` looks like (None when no detector is confident), and every kind's
    confidence, most confident first. A kind with no detector of its own is sure only when its
    parser reads the text (not `Reading.low`), then as sure as the text's top names the kind
    (`Kind.itself`: 1.0 at its very start, down to `NAMED` at `TOP` characters) or, when more,
    as `STARTS` times the share of lines where one of its entries starts (`Kind.starts`, at most
    1), times `LOOKS`; that is nine tenths of the confidence, the share of starts the last tenth
    (it tells two kinds named alike apart)."""
    sure: list[tuple[str, float]] = []
    results: dict[str, ParseResult] = {}
    top = "\n".join(line.strip() for line in source.lines if line.strip())[:TOP]
    for kind in kinds.every():
        if kind.detect is not None:
            sure.append((kind.name, kind.detect(source)))
            continue
        trial = dataclasses.replace(document, kind=kind.name)
        try:
            results[kind.name] = parsed = parse_source(trial, source, titles)
        except ParseError:
            continue
        if reading(parsed).low:
            sure.append((kind.name, 0.0))
            continue
        named = re.search(kind.itself, top, re.IGNORECASE) if kind.itself else None
        by_name = 1.0 - (1.0 - NAMED) * named.start() / TOP if named else 0.0
        by_starts = min(1.0, STARTS * share(re.compile(kind.starts, re.IGNORECASE), source)) if kind.starts else 0.0
        sure.append((kind.name, 0.9 * max(by_name, LOOKS * by_starts) + 0.1 * by_starts))
    sure.sort(key=lambda pair: -pair[1])
    best = sure[0][0] if sure and sure[0][1] >= CONFIDENT and (len(sure) < 2 or sure[1][1] < sure[0][1]) else None
    return Detected(best, [(name, round(value, 3)) for name, value in sure], results.get(best or ""))


@dataclass(frozen=True)
class Detected:
    """What `detect` found."""

    kind: str | None
    """The kind named (None: no detector is confident)."""
    sure: list[tuple[str, float]]
    """Each kind's confidence, most confident first."""
    result: ParseResult | None = None
    """The parse as that kind, when the detection made it."""

    def refusal(self, path: str) -> str:
        """The one line refusing a document no detector names."""
        best = ", ".join(f"{name} {value:.2f}" for name, value in self.sure[:3])
        return f"{path}: no kind reads it confidently ({best}); name one with --kind"
