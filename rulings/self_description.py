"""What a document says of itself, against what the manifest or the command says of it.

A Current Rulings update says so in its title block (``CURRENT RULINGS UPDATE``, "this special
"update" document contains only new or changed Current Rulings"); a full Current Rulings says
"this document contains all Current Rulings". Believed as the other kind, an update rescinds
every ruling it does not repeat, and a full document rescinds nothing. The date a Current
Rulings document states is the one its parser reads (`Document.declared_date`, from
`rulings.kinds.current_rulings.layout.declared_date`). `contradictions` lists where the text and what it was
given disagree; the builder refuses them unless the document is forced
(``force_contradiction = true`` in the manifest, ``rulings add --force-contradiction``), and
then shows each one as a warning and in the document's note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulings.dates import parse_us_date
from rulings.model import ParseResult
from rulings.normalize import clean_line

UPDATE = "current-rulings-update"
FULL = "current-rulings"
TITLE_BLOCK = ("introduction", "heading", "change summary", "note")
"""Entry kinds that belong to the document's own front matter, where it says what it is."""
LOOKED_AT = 60
"""Non-blank lines read from the top for the title block (a forum repost puts a post before it)."""

_UPDATE_SAYS = re.compile(
    r"\bonly new or changed\b|^(?:STAR TREK\S*:? CUSTOMIZABLE CARD GAME\S* )?CURRENT RULINGS UPDATE:?(?: \S+)?$",
    re.IGNORECASE,
)
_FULL_SAYS = re.compile(
    r"\bcontains all Current Rulings\b|^(?:STAR TREK\S*:? CUSTOMIZABLE CARD GAME\S* )?CURRENT RULINGS:?(?: \S+)?$",
    re.IGNORECASE,
)
_SAID_BY = {"kind": "the manifest's kind", "date": "the manifest's date"}


@dataclass(frozen=True)
class Contradiction:
    """One thing the text says of itself that the manifest or the command contradicts."""

    line: int
    """The line (from 1) where the text says it."""
    said: str
    """What was said and by whom, without the file: "the text calls itself ..., but --kind says ..."."""

    def message(self, path: str) -> str:
        """The contradiction as a ``file:line: ...`` line."""
        return f"{path}:{self.line}: {self.said}"


def declared_kind(lines: list[str], before: int | None = None) -> tuple[str, int, str] | None:
    """The kind the title block declares (`UPDATE` or `FULL`), with its line and text, if it declares one.
    The title block ends where the first entry of the document starts (line ``before``): a ruling's text
    that quotes "only new or changed" says nothing of its document."""
    top = [(n, clean_line(t)) for n, t in enumerate(lines, start=1) if t.strip() and (before is None or n < before)]
    top = top[:LOOKED_AT]
    for pattern, kind in ((_UPDATE_SAYS, UPDATE), (_FULL_SAYS, FULL)):
        found = next(((n, t) for n, t in top if pattern.search(t)), None)
        if found:
            return kind, found[0], found[1]
    return None


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 70 else text[:67] + "...")


def contradictions(
    result: ParseResult, lines: list[str] | None, said_by: dict[str, str] | None = None
) -> list[Contradiction]:
    """Where ``result``'s document, as its text (``lines``; None when not at hand, e.g. a PDF) says,
    is not what it was given as. ``said_by`` names who gave kind and date (default: the manifest)."""
    who = {**_SAID_BY, **(said_by or {})}
    document = result.document
    found: list[Contradiction] = []
    starts = [e.span.start for e in result.entries if e.kind not in TITLE_BLOCK]
    declared = declared_kind(lines, min(starts, default=None)) if lines is not None else None
    if declared is not None:
        kind, line, text = declared
        if kind == UPDATE and document.kind != UPDATE:
            found.append(
                Contradiction(
                    line,
                    f"the text calls itself a Current Rulings update ({_quoted(text)}), but {who['kind']} is "
                    f"{document.kind!r}"
                    + (
                        "; as a full Current Rulings it would rescind every ruling it does not repeat"
                        if document.kind == FULL
                        else ""
                    ),
                )
            )
        elif kind == FULL and document.kind == UPDATE:
            found.append(
                Contradiction(
                    line,
                    f"the text calls itself a full Current Rulings ({_quoted(text)}), but {who['kind']} is "
                    f"{UPDATE!r}; as an update it would rescind none of the rulings it drops",
                )
            )
    stated = document.declared_date
    if stated and document.date and stated != document.date and not document.date_approximate:
        introduction = next((e for e in result.entries if e.kind == "introduction"), None)
        numbers = sorted(introduction.lines) if introduction else [1]
        line = next((n for n in numbers[:6] if lines and parse_us_date(lines[n - 1]) == stated), numbers[0])
        found.append(
            Contradiction(
                line, f"the text is dated {stated.isoformat()}, but {who['date']} is {document.date.isoformat()}"
            )
        )
    return found
