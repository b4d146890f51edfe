"""Q&A documents (kind ``faq``).

A FAQ is ``Q:`` / ``A:`` pairs, a ``+`` before the ``Q:`` marking a new one; each pair is a
``question`` entry with the authority ``informal``. A question that starts with a name in
capitals (``Q: ABORTING MISSIONS: Can an Away Team ...?``, ``Q: TIMING -- If ...``, or
``Q: DUPLICATE MISSIONS:`` with numbered questions on the lines after) is headed by that
short name, its text the question (``Q: ...``) then the answer (``A: ...``); any other
question is headed by the question itself, its text the answer. ``A:`` may stand alone with
its (numbered) answers on the lines after. A name in capitals with no question
(``Q: HOLOGRAMS, EXOCOMPS, AND ANDROIDS``) followed by further questions heads a group
(a ``section``), unless a question of the document bears that name: then it is a line of
the page's index of questions, chrome; so is every run of such bare names (the index at a
page's top, even when the questions it names are not in the file). A question may be named
before its ``Q:`` (``DILEMMAS -- Q: When do they stop me?``). A list with no ``Q:`` at all, its
questions lines that ask (``Can an outpost be "stopped"? ...``) with the answer after, is read
the same. A short line standing just before a question (``General``, ``Federation``) heads a
group too. Lines before the first question are the
introduction (navigation bars apart, as chrome); a question with no answer is reported as
unparsed, or kept with a warning when it has a name and text of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.entries.partial import mark_cut
from rulings.entries.topics import join_paragraphs, take_references
from rulings.lines.chrome import is_chrome
from rulings.model import Document, Entry, ParseResult
from rulings.normalize import clean_line, headword_key
from rulings.source import SourceText

_QUESTION = re.compile(r"^(?P<new>\+)?\s*Q[:.]\s*(?P<text>\S.*)$")
_ANSWER = re.compile(r"^A[:.](?:\s+(?P<text>\S.*)|\s*)$")
_NAMED = re.compile(r"^(?P<name>[^a-z?:]{2,80}?)\s*(?:(?::|\s--|\s[-\u2013\u2014])\s*(?P<rest>.*))?$")
_GROUP = re.compile(r"^[A-Z][^.?!:;,()]{0,58}[^.?!:;,()\s]$")


@dataclass
class _Pair:
    """One question being read: its entry, question lines and answer lines."""

    entry: Entry
    name: bool
    question: list[str] = field(default_factory=list)
    answer: list[str] | None = None


def _start(document: Document, source: SourceText) -> tuple[ParseResult, list[tuple[int, str]]]:
    numbered = [(i + 1, t.strip()) for i, t in enumerate(source.lines) if t.strip()]
    return ParseResult(document, [], len(source.lines), [n for n, _ in numbered]), numbered


def _introduction(result: ParseResult, numbered: list[tuple[int, str]], before: list[int]) -> None:
    if before:
        texts = dict(numbered)
        result.entries.insert(
            0, Entry(result.document.title, "introduction", join_paragraphs([texts[n] for n in before]), before)
        )


def _name(text: str) -> tuple[str, str | None] | None:
    """A question's name in capitals and the rest of its line (None when the line is only the name)."""
    match = _NAMED.match(text)
    if not match or not re.search(r"[A-Z]", match["name"]) or not re.search(r"[A-Z0-9]{2}", match["name"]):
        return None
    rest = (match["rest"] or "").strip()
    return match["name"].strip(), rest or None


_NAME_FIRST = re.compile(
    r"^(?P<new>\+)?\s*(?P<name>[A-Z0-9\"'][^a-z?]{1,79}?)\s*(?:--|:|[-\u2013\u2014])\s*Q[:.]\s*(?P<text>\S.*)$"
)
"""A question named before its ``Q:`` (``DILEMMAS -- Q: When do they stop me?``). A list with no ``Q:`` at all, its
questions lines that ask (``Can an outpost be "stopped"? ...``) with the answer after, is read the same."""
INDEX_RUN = 2
"""Bare ``Q: NAME`` lines in a row that make a page's index of its questions."""


def _name_first(numbered: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``NAME -- Q: text`` read as ``Q: NAME -- text``, the shape a named question has after its ``Q:``."""
    out = []
    for number, text in numbered:
        match = _NAME_FIRST.match(text)
        out.append((number, f"{match['new'] or ''}Q: {match['name']} -- {match['text']}" if match else text))
    return out


def _index(numbered: list[tuple[int, str]]) -> set[int]:
    """The lines of a page's index of questions: `INDEX_RUN` or more bare ``Q: NAME`` lines in a row (whether
    or not the questions they name are in the file); the last of them is no index line when the text after it
    is no question (``Q: DUPLICATE MISSIONS:`` then its numbered questions)."""
    found: set[int] = set()
    run: list[int] = []
    for number, text in [*numbered, (0, "")]:
        question = _QUESTION.match(text)
        named = _name(question["text"]) if question else None
        if named and named[1] is None:
            run.append(number)
            continue
        if run and not question and number:
            run.pop()  # the last name is followed by its own question's lines: it asks, it is no index
        if len(run) >= INDEX_RUN:
            found.update(run)
        run = []
    return found


_ASKS = re.compile(
    r"^(?:Can|Could|Does|Do|Did|Is|Are|Was|What|When|Where|Which|Who|Why|How|May|Must|Should|Will|Would|If)\b"
    r"[^?]{3,200}\?"
)
"""A question written with no ``Q:``: an asking word, then the question mark within the line."""
LEAST_ASKED = 2
"""Unmarked questions a document with no ``Q:`` must hold before its lines are read so."""


def _unmarked(numbered: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A Q&A list with no ``Q:`` / ``A:`` (a question line, its answer on the lines after) read as marked."""
    if any(_QUESTION.match(t) for _, t in numbered):
        return numbered
    asked = [k for k, (_, t) in enumerate(numbered) if _ASKS.match(t) and len(t) <= 300]
    if len(asked) < LEAST_ASKED:
        return numbered
    out = list(numbered)
    for k in asked:
        out[k] = (out[k][0], f"Q: {out[k][1]}")
        if k + 1 < len(out) and k + 1 not in asked:
            out[k + 1] = (out[k + 1][0], f"A: {out[k + 1][1]}")
    return out


def parse_faq(document: Document, source: SourceText) -> ParseResult:
    """Parse a Q&A document into question entries (and the groups that head them)."""
    result, numbered = _start(document, source)
    numbered = _name_first(_unmarked(numbered))
    index = _index(numbered)
    result.chrome += sorted(index)
    numbered = [(n, t) for n, t in numbered if n not in index]
    asked = {
        headword_key(n[0])
        for k, (_, t) in enumerate(numbered)
        if (q := _QUESTION.match(t)) and (n := _name(q["text"])) and not _heads_nothing(numbered, k, n)
    }
    before: list[int] = []
    pairs: list[_Pair] = []
    current: _Pair | None = None
    for k, (number, text) in enumerate(numbered):
        question, reply = _QUESTION.match(text), _ANSWER.match(text)
        follows = numbered[k + 1][1] if k + 1 < len(numbered) else ""
        if question:
            named = _name(question["text"])
            if named and _heads_nothing(numbered, k, named):
                current = None
                if headword_key(named[0]) in asked:
                    result.chrome.append(number)
                else:
                    result.entries.append(Entry(named[0], "section", "", [number]))
                continue
            headword = named[0] if named else question["text"]
            current = _Pair(Entry(headword, "question", "", [number], marked=bool(question["new"])), bool(named))
            current.entry.authority = "informal"
            if named and named[1]:
                current.question.append(named[1])
            pairs.append(current)
            result.entries.append(current.entry)
        elif (
            _GROUP.match(text)
            and not is_chrome(text)
            and _QUESTION.match(follows)
            and (current is None or current.answer)
        ):
            current = None
            result.entries.append(Entry(text, "section", "", [number]))
        elif current is None:
            (result.chrome if is_chrome(text) else before).append(number)
        elif reply and current.answer is None:
            current.answer = [reply["text"]] if reply["text"] else []
            current.entry.lines.append(number)
        elif current.answer is not None:
            current.answer.append(text)
            current.entry.lines.append(number)
        elif current.name:
            current.question.append(text)
            current.entry.lines.append(number)
        else:
            current.entry.headword = f"{current.entry.headword} {text}"
            current.entry.lines.append(number)
    _finish(result, pairs)
    _introduction(result, numbered, before)
    mark_cut(result)
    return result


def _heads_nothing(numbered: list[tuple[int, str]], k: int, named: tuple[str, str | None]) -> bool:
    """Whether a ``Q: NAME`` line has no question of its own: the next line is another question,
    a group's heading, or nothing."""
    if named[1] is not None:
        return False
    follows = numbered[k + 1][1] if k + 1 < len(numbered) else ""
    after = numbered[k + 2][1] if k + 2 < len(numbered) else ""
    return not follows or bool(_QUESTION.match(follows)) or bool(_GROUP.match(follows) and _QUESTION.match(after))


def _finish(result: ParseResult, pairs: list[_Pair]) -> None:
    """Each question's text and references; a question with no answer is unparsed (or kept, warned)."""
    path = result.document.path
    for pair in pairs:
        entry = pair.entry
        if pair.name:
            entry.headword = entry.headword.rstrip(": ")
        if pair.answer is None and not (pair.name and pair.question):
            result.entries.remove(entry)
            result.unparsed += entry.lines
            result.warnings.append(f"{path}:{entry.lines[0]}: question without an answer; not placed")
            continue
        if pair.answer is None:
            result.warnings.append(f"{path}:{entry.lines[0]}: {entry.headword}: question without an answer; kept")
        paragraphs = list(pair.answer or [])
        if pair.name:
            asked = [f"Q: {pair.question[0]}", *pair.question[1:]] if pair.question else []
            told = [f"A: {paragraphs[0]}", *paragraphs[1:]] if paragraphs else []
            paragraphs = asked + told
        entry.text, entry.references = take_references(join_paragraphs(paragraphs))
        entry.headword = clean_line(entry.headword)
