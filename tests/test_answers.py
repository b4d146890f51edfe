"""The answers' contracts (`kb.answers`): every answer a knowledge base gives, as the command
line prints it with ``--json`` and as the pages' JSON twins carry it, has exactly the keys its
TypedDict names, at every depth (parts, citations, endings, diff items); every answer is a
method of `KnowledgeBase` returning its TypedDict; the web and the command line ask only
those methods. A producer that adds or drops a key without its contract fails here."""

from __future__ import annotations

import ast
import contextlib
import datetime as dt
import io
import json
import shutil
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NotRequired

import pytest

from helpers import FIXTURES, ROOT, SEEDS
from kb import answers
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

CONTRACTS = {name: value for name, value in vars(answers).items() if typing.is_typeddict(value)}
"""Every TypedDict of `kb.answers`, by name."""
BASES = {"DiffItem", "CardFacts", "DocumentDetails"}
NUMBERED_RULES = {"RuleNode", "Restated", "Typography"}
"""Shapes only a library of numbered-rules releases gives (a rule's subrules, a release restating a
text, typography alone changed): checked against real answers in tests/test_mtg_typography.py."""
"""Shapes only built upon (checked through the shapes that extend them)."""
TODAY = dt.date.today().isoformat()


def mismatches(value: Any, shape: Any, where: str = "answer", reached: set[str] | None = None) -> Iterator[str]:
    """Where ``value`` (an answer, or its JSON) differs from ``shape`` (a type of `kb.answers`):
    a key missing or extra, a list or a None out of place. The names of the TypedDicts met are
    added to ``reached``."""
    reached = set() if reached is None else reached
    origin = typing.get_origin(shape)
    if typing.is_typeddict(shape):
        reached.add(shape.__name__)
        if not isinstance(value, dict):
            yield f"{where}: {type(value).__name__}, not a {shape.__name__}"
            return
        hints = typing.get_type_hints(shape, include_extras=True)
        optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
        hints = {k: typing.get_args(t)[0] if k in optional else t for k, t in hints.items()}
        if not set(hints) - optional <= set(value) <= set(hints):
            extra, missing = set(value) - set(hints), set(hints) - optional - set(value)
            yield f"{where}: extra {sorted(extra)}, missing {sorted(missing)}"
        for key in sorted(set(value) & set(hints)):
            yield from mismatches(value[key], hints[key], f"{where}.{key}", reached)
    elif origin in (types.UnionType, typing.Union):
        options = typing.get_args(shape)
        if value is None and type(None) in options:
            return
        reasons = [list(mismatches(value, o, where, reached)) for o in options if o is not type(None)]
        if all(reasons):
            yield from min(reasons, key=len)
    elif origin is list:
        if not isinstance(value, list):
            yield f"{where}: {type(value).__name__}, not a list"
            return
        for index, item in enumerate(value):
            yield from mismatches(item, typing.get_args(shape)[0], f"{where}[{index}]", reached)


def cli_json(*args: str) -> Any:
    """What ``rulings ARGS --json`` prints, read back."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*args, "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def asked(bundled_root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Any, Any]]:
    """(what was asked, the answer, its contract) for answers of every kind: the command line's
    JSON, the methods' dicts and the pages' JSON twins, over the bundled library and over the
    fixture library with the seed update (topics superseded, rescinded and pending)."""
    work = tmp_path_factory.mktemp("answers")
    shutil.copytree(FIXTURES / "library", work / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", work / "library" / "stccg")
    build(work / "library", work / "kb")
    deck = work / "deck.txt"
    deck.write_text("2x Conundrum\nSHIPS\nU.S.S. Galaxy (2)\nNo Such Card\n", encoding="utf-8")
    header = ("Name,Set,ImageFile,Release,Info,Property,Uniqueness,Type,Mission/ Dilemma Type,Affil,Class,Int/Rng,"
              "Cun/Wpn,Str/Shd,Points,Region,Quadrant,Span,Icons,Staff,Characteristics/ Keywords,Requires,Persona,"
              "Command,Lore,Reports,Names,Text")  # fmt: skip
    row = ["Kreetchta", "Premiere", "", "", "", "", "", "Personnel"] + [""] * (header.count(",") - 7)
    (work / "cards.csv").write_text(f"{header}\n{','.join(row)}\n", encoding="utf-8")
    build(SEEDS, work / "named-twice", work / "cards.csv")  # a stccg Kreetchta beside the neutral-zone one
    bundled, library = ["--kb", str(bundled_root)], ["--kb", str(work / "kb")]
    commands = [
        (answers.ShowAnswer, ["show", "Conundrum", *bundled]),
        (answers.ShowAnswer, ["show", "persona", *bundled]),
        (answers.ShowAnswer, ["show", "Cha'Joh", *bundled]),  # one text governing over another (GivesWay)
        (answers.ShowAnswer, ["show", "tribble", "--as-of", "2001-02-01", *library]),
        (answers.ShowAnswer, ["show", "Admiral Riker", "--as-of", "2001-02-01", *library]),
        (answers.HistoryAnswer, ["history", "Conundrum", *bundled]),
        (answers.BlameAnswer, ["blame", "Q-Flash", *library]),
        (answers.HistoryAnswer, ["history", "Q-Flash", *library]),
        (answers.SearchAnswer, ["search", "conondrum target", *bundled]),
        (answers.SearchAnswer, ["search", "chajoh", "--all", *bundled]),
        (answers.CardAnswer, ["card", "Conundrum", *bundled]),
        (answers.CardAnswer, ["card", "Kreechta", *bundled]),
        (answers.CardAnswer, ["card", "Kreetchta", "--game", "neutral-zone", "--kb", str(work / "named-twice")]),
        (answers.DeckAnswer, ["deck", str(deck), *bundled]),
        (answers.PairAnswer, ["cards", "Stop First Contact", "Hero of the Empire", *bundled]),
        (answers.DiffAnswer, ["diff", "1990-01-01", TODAY, *library]),
        (answers.DiffAnswer, ["diff", "1990-01-01", TODAY, *bundled]),
        (answers.DiffAnswer, ["diff", "2000-11-01", "2001-02-01", *library]),
        (answers.DocumentsAnswer, ["docs", *bundled]),
        (answers.DocumentsAnswer, ["docs", "--as-of", "2001-02-01", *library]),
    ]
    found = [(" ".join(args[:-2]), cli_json(*args), shape) for shape, args in commands]
    with KnowledgeBase(current(work / "kb")) as kb:
        found += [(f"as_of {on}", kb.as_of(on), answers.AsOfAnswer) for on in (dt.date(2000, 12, 1), dt.date.today())]
    with KnowledgeBase(current(bundled_root)) as kb:
        key = "stccg:conundrum@stccg-cr-update-2000-11-27@glossary"  # a permalink's key, as a search hit gives it
        found.append((f"version_page {key}", kb.version_page(key, dt.date.today()), answers.VersionPage))
        found.append(("latest_documents 3", kb.latest_documents(3), list[answers.DocumentFacts]))
        found.append(("offline_index", kb.offline_index(dt.date.today()), answers.OfflineIndex))
        found.append(("site_pages", kb.site_pages(), answers.SitePages))
    client = create_app({"KB": str(bundled_root)}).test_client()
    pages = {
        "/card/Conundrum.json": answers.CardPage,
        "/asof/2000-12-01.json": answers.AsOfAnswer,
        "/docs.json": answers.DocumentsPage,
        "/docs/stccg-cr-update-2000-11-27.json?lines=79-83": answers.DocumentPage,
    }
    for url, shape in pages.items():
        found.append((url, client.get(url).get_json(), shape))
    client = create_app({"KB": str(work / "kb")}).test_client()
    with KnowledgeBase(current(work / "kb")) as kb:
        first, second = kb.history("Q-Flash")["versions"][:2]
    for url in ("/docs.json?as_of=2001-02-01", "/docs.json?as_of=2000-11-01"):  # documents replaced, and later
        found.append((url, client.get(url).get_json(), answers.DocumentsPage))
    url = f"/entry/Q-Flash.json?a={first['version']}&b={second['version']}"
    found.append((url, client.get(url).get_json()["compare"], answers.Comparison))
    return found


def test_every_answer_has_exactly_its_contracts_keys(asked: list[tuple[str, Any, Any]]) -> None:
    wrong = {what: list(mismatches(answer, shape)) for what, answer, shape in asked}
    assert {what: found for what, found in wrong.items() if found} == {}


def test_the_answers_checked_hold_every_contract(asked: list[tuple[str, Any, Any]]) -> None:
    """Each shape of `kb.answers` is met in a real answer above, so each is checked against real data."""
    reached: set[str] = set()
    for _, answer, shape in asked:
        list(mismatches(answer, shape, reached=reached))
    assert set(CONTRACTS) - reached == BASES | NUMBERED_RULES


def test_the_checker_finds_a_key_added_or_dropped() -> None:
    citation = {"document": "d", "title": "t", "version": "1", "date": None, "lines": "3", "sources": []}
    assert list(mismatches(citation, answers.Citation)) == []
    assert list(mismatches({**citation, "page": 4}, answers.Citation)) == ["answer: extra ['page'], missing []"]
    cut = {k: v for k, v in citation.items() if k != "lines"}
    assert list(mismatches(cut, answers.Citation)) == ["answer: extra [], missing ['lines']"]
    assert list(mismatches([cut, None], list[answers.Citation | None])) == ["answer[0]: extra [], missing ['lines']"]
    hit = {
        "version": 1, "key": "k", "series": "glossary", "label": "Glossary", "headword": "h", "text": "",
        "status": "active", "authority": "official", "operation": "original", "valid_from": None, "valid_to": None,
        "ended": None, "note": "", "condition": None, "references": [], "summary": None, "citation": citation,
        "ended_by": None, "cards": [], "topic": "t", "snippet": "s", "full": False, "game": "g", "number": 1, "of": 1,
        "partial": None, "sections": [], "gives_way": None, "governs": None, "paragraphs": [], "restated": None,
    }  # fmt: skip
    assert list(mismatches(hit, answers.SearchResult)) == []
    assert list(mismatches({**hit, "matching": [1]}, answers.SearchResult)) == [
        "answer: extra ['matching'], missing []"
    ]
    assert list(mismatches(hit, Grouped)) == []  # a key marked NotRequired may be left out
    assert list(mismatches({**hit, "matching": [1]}, Grouped)) == []
    assert list(mismatches({**hit, "matching": 1}, Grouped)) == ["answer.matching: int, not a list"]
    assert list(mismatches({**hit, "citation": cut}, answers.SearchResult)) == [
        "answer.citation: extra [], missing ['lines']"
    ]


class Grouped(answers.SearchResult):
    """A search hit with a key it may leave out (to test the checker)."""

    matching: NotRequired[list[int]]


ANSWER_METHODS = {
    "show": answers.ShowAnswer, "history": answers.HistoryAnswer, "as_of": answers.AsOfAnswer,
    "diff": answers.DiffAnswer, "card": answers.CardAnswer, "deck": answers.DeckAnswer,
    "search": answers.SearchAnswer, "documents_in_force": answers.DocumentsAnswer, "blame": answers.BlameAnswer,
    "documents_page": answers.DocumentsPage, "document_page": answers.DocumentPage | None,
    "latest_documents": list[answers.DocumentFacts], "document_dates": list[str], "compared": answers.Comparison,
    "offline_index": answers.OfflineIndex, "site_pages": answers.SitePages,
}  # fmt: skip


def test_every_answer_is_a_method_of_the_knowledge_base_returning_its_contract() -> None:
    returned = {name: typing.get_type_hints(getattr(KnowledgeBase, name))["return"] for name in ANSWER_METHODS}
    assert returned == ANSWER_METHODS


def test_the_web_and_the_command_line_ask_only_the_knowledge_bases_methods() -> None:
    """No module of ``web/`` imports the modules that compute answers (it asks `KnowledgeBase`)."""
    computing = {"kb.search.in_force", "kb.search.completion", "kb.read.cards", "kb.read.documents", "kb.read.changes"}
    taken = set()
    for path in sorted((ROOT / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in computing:
                taken |= {(path.name, node.module, alias.name) for alias in node.names}
            elif isinstance(node, ast.Import):
                taken |= {(path.name, alias.name, "") for alias in node.names if alias.name in computing}
    assert taken == set()


FACADE = {"kb.query", "kb.answers", "kb.errors", "kb.asking", "kb.paging", "kb.vocabulary", "kb.paths"}
"""What of `kb` the pages and the answering commands may import: the facade, its answers' types and words."""


def test_the_pages_and_the_answering_commands_import_only_the_facade_and_its_words() -> None:
    """The pages (``web/*.py``) and the commands that print answers (``web/cli/answers.py``) import
    of `kb` only `FACADE`: a constant or a word diff they need comes with an answer or from there."""
    taken = set()
    for path in [*sorted((ROOT / "web").glob("*.py")), ROOT / "web" / "cli" / "answers.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            named += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            taken |= {(path.name, name) for name in named if name.split(".")[0] == "kb" and name not in FACADE}
    assert taken == set()
