"""The work a build does grows with what is new, not with how often it repeats.

Bounded-work tests (no clocks): each counts the calls of a costly step while real code
runs on real inputs, and checks that repeating the same words in more texts adds no calls.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from test_incremental import HEAD, add, same_as_full_build, segments_shared

from helpers import FIXTURES, ROOT, SEEDS
from kb.ingest import store
from kb.ingest.catalog import Card, Catalog
from kb.ingest.linking import link_versions, ordinary_words
from kb.ingest.pipeline import build
from kb.model import Topic, Version
from rulings.normalize import title_key

TEXT = "A ship may attack the Enterprise or a Klingon; a ship with no crew may not attack again."
"""Eleven distinct lower-case words, two card titles."""


@contextmanager
def counting(function: Callable[..., Any]) -> Iterator[list[int]]:
    """Count the calls of ``function`` (observed with `sys.setprofile`, not replaced)."""
    calls = [0]
    code = function.__code__

    def observe(frame: FrameType, event: str, _: object) -> None:
        if event == "call" and frame.f_code is code:
            calls[0] += 1

    sys.setprofile(observe)
    try:
        yield calls
    finally:
        sys.setprofile(None)


def test_ordinary_words_keys_each_written_word_once() -> None:
    for copies in (1, 50):
        with counting(title_key) as calls:
            words = ordinary_words([TEXT] * copies)
        assert words == {"ship", "may", "attack", "the", "or", "a", "with", "no", "crew", "not", "again"}
        assert calls[0] == 11


def _library(versions: int) -> tuple[list[Version], dict[str, Topic], Catalog]:
    catalog = Catalog()
    for name in ("Enterprise", "Klingon"):
        catalog.add(Card(name, "stccg", "Ship"))
    topics = {"stccg:attack": Topic("stccg:attack", "stccg", "attack", "ruling")}
    texts = [Version(n, "stccg:attack", "current-rulings", "attack", TEXT, None, "cr", 1, 1, "original")
             for n in range(1, versions + 1)]  # fmt: skip
    return texts, topics, catalog


def test_linking_keys_each_word_once_per_build() -> None:
    """Each version costs one key, its headword's; the words of its text, and the names of the
    cards it names, are keyed once per build."""
    counts = []
    for versions in (10, 20):
        texts, topics, catalog = _library(versions)
        with counting(title_key) as calls:
            links = link_versions(texts, topics, catalog, {"ship"})
        cards = ("stccg:enterprise", "stccg:klingon")
        assert links == [(n, key, "title") for n in range(1, versions + 1) for key in cards]
        counts.append(calls[0])
    assert counts[1] - counts[0] == 10


PARSE_ON_CORES = """
import sqlite3
import sys
from pathlib import Path
from kb.ingest.pipeline import parse_documents
from rulings.manifest import load_manifest, load_titles
from rulings.errors import ParseError
from rulings.parse import parse_document

library = Path(sys.argv[1])
titles = {g: load_titles(library, g) for g in ("stccg", "neutral-zone")}
in_turn = [parse_document(d, titles[d.game]) for d in load_manifest(library)]
documents = load_manifest(library)
pooled = parse_documents(documents, titles)
print([r.document is d for r, d in zip(pooled, documents, strict=True)], pooled == in_turn)
(library / "stccg" / "current-rulings-update-2000-11-27.txt").write_text("CURRENT RULINGS\\nno heading\\n")
(library / "neutral-zone" / "rulebook.txt").write_bytes(b"\\x00binary")
try:
    parse_documents(load_manifest(library), titles)
except ParseError as error:
    print(error)
"""
"""Run in a fresh process: this one may run other threads (left by other tests), and then parses in turn."""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: documents are parsed in turn")
def test_documents_parsed_on_several_cores_give_what_a_parse_in_turn_gives(tmp_path: Path) -> None:
    library = tmp_path / "library"
    shutil.copytree(SEEDS, library)
    run = subprocess.run([sys.executable, "-c", PARSE_ON_CORES, str(library)], cwd=ROOT, capture_output=True,
                         text=True, check=False, timeout=300)  # fmt: skip
    first = library / "neutral-zone" / "rulebook.txt"  # the first in the manifest of the two broken
    assert (run.stdout.splitlines(), run.stderr) == (
        ["[False, False, False, False] True", f"{first}:1: binary file (NUL byte); expected plain text"],
        "",
    )


PRINTED = HEAD.format(us="{us}") + (
    'Kreetchta - A reference table spells it "Kreechta"; the ship card itself reads "Kreetchta".\n'
)
"""A ruling naming a card's printed spelling, as the bundled Neutral Zone rulebook does."""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "library", tmp_path / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", tmp_path / "library" / "stccg")
    return tmp_path / "library"


def test_a_card_spelling_said_again_leaves_the_catalog_and_the_add_incremental(library: Path, tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    built = build(library, kb).directory
    add(library, kb, tmp_path, PRINTED.format(us="3/5/01"), dt.date(2001, 3, 5))
    second = add(library, kb, tmp_path, PRINTED.format(us="4/2/01"), dt.date(2001, 4, 2))
    assert segments_shared(built, second)  # applied to the full build's index, not rebuilt
    with closing(sqlite3.connect(second / store.DB_NAME)) as db:
        assert db.execute("SELECT aliases FROM cards WHERE key = 'stccg:kreetchta'").fetchall() == [('["Kreechta"]',)]
    same_as_full_build(library, kb, tmp_path)
