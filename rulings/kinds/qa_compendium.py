"""The kind ``qa-compendium``: questions and answers gathered per card, under ``== NAME (card - set)``.

Each heading ``== Aching Lantern (card - Shadow Deck)`` starts a card's entry (``card questions``,
informal): its ``Q.`` / ``A.`` pairs are its text, one paragraph each, and its ``Last edited:``
line the date it was last edited (a field, its line in the entry). A line of dashes between
sections is chrome. The markers are found anywhere in a line, so a copy that lost its line
breaks (the whole compendium on one line) reads the same, that line split into its entries.
Text before the first heading is the introduction; a question with no answer is kept, warned.
"""

from __future__ import annotations

import itertools
import re

from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

_MARK = re.compile(r"(?:(?<=\s)|^)(?=== |Q\.\s|A\.\s|-{5,}|Last edited:)")
_HEADING = re.compile(r"^== (?P<name>.+?)\s*\((?P<what>[^()]+?)\s+-\s+(?P<set>[^()]+)\)\s*$")
_RULE = re.compile(r"^-{5,}$")
_EDITED = re.compile(r"^Last edited:\s*(?P<when>.*)$")


def _segments(source: SourceText) -> list[tuple[int, str]]:
    """Each line cut before every marker: (line number, piece), pieces in reading order."""
    pieces: list[tuple[int, str]] = []
    for number, line in enumerate(source.lines, 1):
        cuts = [m.start() for m in _MARK.finditer(line)]
        bounds = [0, *[c for c in cuts if c > 0], len(line)]
        pieces += [(number, line[a:b].strip()) for a, b in itertools.pairwise(bounds) if line[a:b].strip()]
    return pieces


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a Q&A compendium into one entry per card heading."""
    nonblank = [i + 1 for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), nonblank)
    intro: list[tuple[int, str]] = []
    current: Entry | None = None
    paragraphs: dict[int, list[str]] = {}
    for number, piece in _segments(source):
        heading, edited = _HEADING.match(piece), _EDITED.match(piece)
        if _RULE.match(piece):
            if source.lines[number - 1].strip() == piece:
                result.chrome.append(number)
            elif current is not None:
                _take(current, number)
            continue
        if heading:
            current = Entry(heading["name"], "card questions", "", [number], authority="informal")
            current.fields = {"card": heading["what"].strip(), "set": heading["set"].strip()}
            result.entries.append(current)
            paragraphs[id(current)] = []
        elif current is None:
            intro.append((number, piece))
        elif edited:
            current.fields["last edited"] = edited["when"].strip()
            _take(current, number)
        elif piece.startswith(("Q.", "A.")) or not paragraphs[id(current)]:
            paragraphs[id(current)].append(piece)
            _take(current, number)
        else:
            paragraphs[id(current)][-1] += f" {piece}"
            _take(current, number)
    for entry in result.entries:
        texts = paragraphs[id(entry)]
        entry.text = "\n\n".join(texts)
        asked = sum(t.startswith("Q.") for t in texts)
        if asked > sum(t.startswith("A.") for t in texts):
            result.warnings.append(f"{document.path}:{entry.lines[0]}: {entry.headword}: a question without an answer")
    if intro:
        lines = sorted({n for n, _ in intro})
        result.entries.insert(0, Entry(document.title, "introduction", " ".join(p for _, p in intro), lines))
    owners: dict[int, int] = {}
    for entry in result.entries:
        for line in set(entry.lines):
            owners[line] = owners.get(line, 0) + 1
    result.split = sorted(n for n, count in owners.items() if count > 1)
    result.chrome = [n for n in result.chrome if n not in owners]
    return result


def _take(entry: Entry, number: int) -> None:
    if entry.lines[-1] != number:
        entry.lines.append(number)


def shaped(entry: Entry) -> bool:
    """A card's entry with at least one question and answer, headed by a card's name."""
    return entry.kind == "card questions" and "A." in entry.text and term(entry.headword, 10)


KIND = register(
    Kind(
        name="qa-compendium",
        parse=parse,
        versions=Versions(RESTATEMENT, series="faq", rescinds=ALWAYS, topics=("card questions",)),
        rank=1,
        called="an FAQ",
        shaped=shaped,
        itself=r"\bQ&A\b|\bcompendium\b|\bquestions and answers\b",
        starts=r"(?:^|\s)== .+? \([^()]+ - [^()]+\)",
        entries="card questions and answers",
    )
)
