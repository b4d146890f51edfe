"""The kind ``rules-update``: a monthly Rules Update article, each of its rulings dated by the article.

Since the Current Rulings Document was retired (March 2020), First Edition rules changes are
announced in a monthly article: its title (``Rules Update, October 2021``), a byline (``by James
Heaney, Rules Manager (1E)``) and its date (``4th October 2021``), prose in sections under short
headings, and the rulings. Lines before the title are the site's menu (chrome). The title,
byline, date and the prose before the first heading are the introduction; a sentence saying
there are "no functional changes" this month is kept as its field ``functional changes``.

A ruling is a ``ruling`` entry dated by the article (a topic of its own, named by the article and
its number: ``Rules Update, October 2021, ruling 2``):

- in a section whose heading names rulings (``Temporary "Bluetext" Rulings Update``, errata,
  clarifications, rules changes), each paragraph set apart from the prose (indented deeper than
  the article's prose: the site's blue box) and each bullet of a paragraph of bullets, until a
  paragraph that speaks of rulings after one (prose again); a heading saying "temporary" or
  "bluetext" makes them ``temporary`` (their note says so). Such a section of which nothing is
  set apart is prose (a discussion of the month's changes), warned;
- under such a heading with nothing of its own, a heading that is a card title (of the catalog
  in use) and its paragraphs: one ruling on that card, headed by its title (a heading that is no
  card title there is prose, warned);
- numbered resolution steps (``1.``) and their bullets belong to the ruling before them; the
  site renders an ordered list numbered ``1, 3, 5 ...``, read as ``1, 2, 3 ...``;
- anywhere, a question ``Q:`` and its answer ``A:`` (an answer without its question, or a
  question without its answer, is reported unparsed).

The prose of each section is a ``section`` entry headed by its heading (no topic). A text with no
``Rules Update,`` title is reported unparsed, line by line, with one warning.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from rulings.kinds import DATED, Kind, Versions, register, term
from rulings.model import Document, Entry, ParseResult
from rulings.normalize import title_key
from rulings.source import SourceText

_TITLE = re.compile(
    r"^(?:(?:1E|2E|First Edition|Second Edition)\s+)?Rules Update[,:]?\s+(?:[-\u2013\u2014]\s+)?"
    r"[A-Z][a-z]+(?:\s+\d{4})?$"
)
_BYLINE = re.compile(r"^by\s+\S")
_DAY = re.compile(
    r"^(?:(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>[A-Z][a-z]+)"
    r"|(?P<month2>[A-Z][a-z]+)\s+(?P<day2>\d{1,2})(?:st|nd|rd|th)?,)\s+(?P<year>\d{4})$"
)
_STEP = re.compile(r"^(?P<number>\d{1,2})\.\s+(?P<text>\S.*)$")
_BULLET = re.compile(r"^[\u2022*\u2013-]\s*(?P<text>\S.*)$")
_QUESTION = re.compile(r"^Q[:.]\s*\S")
_ANSWER = re.compile(r"^A[:.]\s*\S")
_NO_CHANGES = re.compile(r"\bno functional changes\b", re.IGNORECASE)
_RULINGS = re.compile(
    r"\brulings?\b|\berrat(?:a|um)\b|\bclarifications?\b|\b(?:rules?|glossary) changes?\b", re.IGNORECASE
)
"""A heading naming rulings: the paragraphs under it (after its lead) are rulings."""
_TEMPORARY = re.compile(r"\btemporary\b|\bbluetext\b", re.IGNORECASE)
_ABOUT = re.compile(r"\brulings\b", re.IGNORECASE)
"""A paragraph that speaks of rulings (plural) is prose about them, not one of them."""
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip
TEMPORARY_NOTE = 'temporary ("bluetext") ruling'
"""The note of a temporary ruling's version."""

Line = tuple[int, str]
"""A non-blank line: its 1-based number and its text, stripped."""


@dataclass
class _Section:
    heading: Line | None
    paragraphs: list[list[Line]] = field(default_factory=list)


def parse(document: Document, source: SourceText, titles: frozenset[str] = frozenset()) -> ParseResult:
    """Parse a Rules Update article into its introduction, its prose sections and its dated rulings."""
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    result = ParseResult(document, [], len(source.lines), [n for n, _ in numbered])
    at = next((k for k, (_, t) in enumerate(numbered) if _TITLE.match(t)), None)
    if at is None:
        result.unparsed = [n for n, _ in numbered]
        if numbered:
            result.warnings.append(f"{document.path}:{numbered[0][0]}: no title (Rules Update, October 2021)")
        return result
    result.chrome = [n for n, _ in numbered[:at]]
    head = [numbered[at]]
    rest = numbered[at + 1 :]
    day = None
    for line in rest[:2]:
        if _BYLINE.match(line[1]) and len(head) == 1:
            head.append(line)
        elif (found := _DAY.match(line[1])) and day is None:
            day = _date(found)
            head.append(line)
        else:
            break
    if day is None:
        day = document.date
        result.warnings.append(f"{document.path}:{head[-1][0]}: no date line (4th October 2021); dated by the manifest")
    title = numbered[at][1]
    intro = Entry(document.title, "introduction", "", [n for n, _ in head])
    intro.fields = {"title": title, "byline": next((t for _, t in head if _BYLINE.match(t)), "")}
    if day is not None:
        intro.fields["date"] = day.isoformat()
    result.entries.append(intro)
    sections = _sections(source, {n for n, _ in head} | set(result.chrome))
    reader = _Reader(document, result, title, day)
    reader.cards = frozenset(title_key(t) for t in titles)
    taken = {n for n, _ in head} | set(result.chrome)
    reader.indents = {
        n: len(t) - len(t.lstrip()) for n, t in enumerate(source.lines, 1) if t.strip() and n not in taken
    }
    reader.base = min(reader.indents.values(), default=0)
    for section in sections:
        reader.section(section, intro)
    intro.text = "\n\n".join([*(t for _, t in head), *reader.intro_text])
    if any(_NO_CHANGES.search(t) for t in reader.intro_text):
        intro.fields["functional changes"] = "none this month"
    from rulings.entries.partial import mark_cut

    mark_cut(result)
    return result


def _date(found: re.Match[str]) -> dt.date | None:
    month, day = found["month"] or found["month2"], found["day"] or found["day2"]
    if month not in _MONTHS:
        return None
    try:
        return dt.date(int(found["year"]), _MONTHS.index(month) + 1, int(day))
    except ValueError:
        return None


def _sections(source: SourceText, taken: set[int]) -> list[_Section]:
    """The paragraphs (runs of non-blank lines) after the header, grouped under their headings."""
    sections = [_Section(None)]
    paragraph: list[Line] = []
    for number, raw in enumerate([*source.lines, ""], 1):
        text = raw.strip()
        if text and number not in taken:
            paragraph.append((number, text))
            continue
        if not paragraph:
            continue
        if len(paragraph) == 1 and _heading(paragraph[0][1]):
            sections.append(_Section(paragraph[0]))
        else:
            sections[-1].paragraphs.append(paragraph)
        paragraph = []
    return sections


def _joined(paragraph: list[Line]) -> str:
    return " ".join(t for _, t in paragraph)


def _heading(text: str) -> bool:
    """A short line ending no sentence, that is no step, bullet, question or answer."""
    if any(p.match(text) for p in (_STEP, _BULLET, _QUESTION, _ANSWER)):
        return False
    return term(text, 8) and not re.search(r"[.:!?,;]$", text)


class _Reader:
    """The entries of the article's sections, in order, numbering its rulings."""

    def __init__(self, document: Document, result: ParseResult, title: str, day: dt.date | None) -> None:
        self.document, self.result, self.title, self.day = document, result, title, day
        self.intro_text: list[str] = []
        self.count = 0
        self.headed = False
        self.cards: frozenset[str] = frozenset()
        self.under: tuple[bool, bool] = (False, False)
        self.bare: str | None = None
        self.indents: dict[int, int] = {}
        """Each body line's indentation: a paragraph indented deeper than the prose is set apart."""
        self.base = 0
        """The prose's indentation (the least of the body's)."""
        """A heading naming rulings with nothing under it before the next heading (its rulings are headed by cards)."""
        """Whether the last heading that is no card's named rulings, and temporary ones."""

    def section(self, section: _Section, intro: Entry) -> None:
        """Read one section: its prose, its rulings, its questions and answers."""
        self.headed = section.heading is None
        start = len(self.result.entries)
        prose: list[list[Line]] = []
        heading = section.heading[1] if section.heading else ""
        if section.heading and title_key(heading) in self.cards and self.under[0]:
            self.card(section, section.heading, self.under[1])
            return
        rulings, temporary = bool(_RULINGS.search(heading)), bool(_TEMPORARY.search(heading))
        if heading and not rulings and self.bare is not None and section.heading is not None:
            self.result.warnings.append(
                f"{self.document.path}:{section.heading[0]}: {heading!r}, under {self.bare!r} with no ruling of its "
                "own, is no card title of the catalog in use: read as prose"
            )
        else:
            self.bare = heading if rulings and not section.paragraphs else None
        self.under = (rulings, temporary) if heading else (False, False)
        current: Entry | None = None
        paragraphs = list(section.paragraphs)
        while paragraphs:
            paragraph = paragraphs.pop(0)
            first = paragraph[0][1]
            if _QUESTION.match(first):
                current = None
                self.flush(section, prose, intro)
                self.question(paragraph, paragraphs, temporary)
            elif _ANSWER.match(first):
                self.unparsed(paragraph, "an answer with no question before it")
            elif rulings and _STEP.match(first) and current is not None:
                self.steps(current, paragraph)
            elif rulings and _BULLET.match(first):
                self.flush(section, prose, intro)
                for line in paragraph:
                    current = self.ruling([line], temporary, bullet=True)
            elif rulings and self.indents[paragraph[0][0]] > self.base and not _ABOUT.search(_joined(paragraph)):
                self.flush(section, prose, intro)
                current = self.ruling(paragraph, temporary)
            else:
                if rulings and len(self.result.entries) > start and _ABOUT.search(_joined(paragraph)):
                    rulings = False  # prose about the rulings before it: they end
                current = None
                prose.append(paragraph)
        self.flush(section, prose, intro)
        own = [e for e in self.result.entries[start:] if e.kind == "ruling"]
        plain = [p for p in section.paragraphs if not p[-1][1].endswith(":")]
        if heading and _RULINGS.search(heading) and not own and plain:
            self.result.warnings.append(
                f"{self.document.path}:{plain[0][0][0]}: {heading!r} names rulings, but none of its {len(plain)} "
                "paragraph(s) is set apart as one (indented, a bullet, Q: and A:): read as prose"
            )
        if not self.headed and section.heading is not None:
            self.result.entries.insert(start, Entry(section.heading[1], "section", "", [section.heading[0]]))

    def card(self, section: _Section, heading: tuple[int, str], temporary: bool) -> None:
        """A card's title as a heading (``heading``, the section's) under a heading naming rulings: its
        paragraphs are one ruling on that card, headed by its title (numbered steps and bullets among them)."""
        lines = [heading, *(line for p in section.paragraphs for line in p)]
        entry = self.ruling(lines[1:] or [heading], temporary)
        entry.headword, entry.lines = heading[1], [n for n, _ in lines]
        entry.text = "\n\n".join(
            _renumbered(p) if _STEP.match(p[0][1]) else " ".join(t for _, t in p) for p in section.paragraphs
        )
        if any(_odd(p) for p in section.paragraphs):
            entry.fields["steps"] = "numbered 1, 3, 5 ... on the page"

    def flush(self, section: _Section, prose: list[list[Line]], intro: Entry) -> None:
        """The prose read so far: the introduction's before the first heading, else a section entry
        (the first of the section holding its heading)."""
        if section.heading is None:
            for paragraph in prose:
                intro.lines += [n for n, _ in paragraph]
                self.intro_text.append(" ".join(t for _, t in paragraph))
        elif prose:
            lines = [n for p in prose for n, _ in p]
            if not self.headed:
                lines, self.headed = [section.heading[0], *lines], True
            text = "\n\n".join(" ".join(t for _, t in p) for p in prose)
            self.result.entries.append(Entry(section.heading[1], "section", text, lines))
        prose.clear()

    def ruling(self, paragraph: list[Line], temporary: bool, bullet: bool = False) -> Entry:
        """A ruling of one paragraph (or one bullet), dated by the article."""
        self.count += 1
        texts = [_BULLET.sub(r"\g<text>", t) if bullet else t for _, t in paragraph]
        entry = Entry(f"{self.title}, ruling {self.count}", "ruling", " ".join(texts), [n for n, _ in paragraph])
        entry.date = self.day
        if temporary:
            entry.authority = "temporary"
            entry.fields["note"] = TEMPORARY_NOTE
        self.result.entries.append(entry)
        return entry

    def steps(self, ruling: Entry, paragraph: list[Line]) -> None:
        """Numbered steps (and their bullets) added to the ruling before them, as paragraphs."""
        ruling.text += "\n\n" + _renumbered(paragraph)
        ruling.lines += [n for n, _ in paragraph]
        if _odd(paragraph):
            ruling.fields["steps"] = "numbered 1, 3, 5 ... on the page"

    def question(self, paragraph: list[Line], following: list[list[Line]], temporary: bool) -> None:
        """A question and its answer (in the same paragraph, or the next one) as one ruling."""
        answer = next((k for k, (_, t) in enumerate(paragraph) if _ANSWER.match(t)), None)
        if answer is None and following and _ANSWER.match(following[0][0][1]):
            paragraph = [*paragraph, *following.pop(0)]
            answer = 1
        if answer is None:
            self.unparsed(paragraph, "a question with no answer (A:)")
            return
        entry = self.ruling(paragraph, temporary)
        question = " ".join(t for _, t in paragraph[:answer])
        entry.text = f"{question}\n\n{' '.join(t for _, t in paragraph[answer:])}"

    def unparsed(self, paragraph: list[Line], why: str) -> None:
        self.result.unparsed += [n for n, _ in paragraph]
        self.result.warnings.append(f"{self.document.path}:{paragraph[0][0]}: {why}; not read")


def _odd(paragraph: list[Line]) -> bool:
    """Whether numbered steps run 1, 3, 5 ... (the site's rendering of an ordered list)."""
    numbers = [int(m["number"]) for _, t in paragraph if (m := _STEP.match(t))]
    return len(numbers) > 1 and numbers == list(range(1, 2 * len(numbers), 2))


def _renumbered(paragraph: list[Line]) -> str:
    """Steps (and their bullets) one paragraph each, numbered 1, 2, 3 ... when the page ran them 1, 3, 5 ..."""
    odd, step, texts = _odd(paragraph), 0, []
    for _, text in paragraph:
        found = _STEP.match(text)
        if found and odd:
            step += 1
            text = f"{step}. {found['text']}"
        texts.append(text)
    return "\n\n".join(texts)


def shaped(entry: Entry) -> bool:
    """A dated ruling with its text, or a section of the article's prose headed by a term."""
    if entry.kind == "ruling":
        return entry.date is not None and bool(entry.text)
    return entry.kind == "section" and term(entry.headword)


KIND = register(
    Kind(
        name="rules-update",
        parse=parse,
        versions=Versions(DATED, series="current-rulings", topics=("ruling",), note_field="note"),
        rank=4,
        called="the Current Rulings",
        shaped=shaped,
        itself=r"\brules update\b",
        starts=r"^(?:(?:1E|2E|First Edition|Second Edition)\s+)?Rules Update\b",
        entries="Rules Update rulings and sections",
    )
)
