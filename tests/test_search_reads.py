"""What a search reads of the index of the versions in force: the stored fields of the hits it
shows, not of those it passes over (issue 48 item 6: a search's own CPU is what a search queued
behind it waits for)."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh.reading import SegmentReader

from kb.paths import current
from kb.query import KnowledgeBase


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(bundled_root))


def reading(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The documents whose stored fields are read from now on (each read once listed)."""
    reads: list[int] = []
    real = SegmentReader.stored_fields
    monkeypatch.setattr(SegmentReader, "stored_fields", lambda self, docnum: reads.append(docnum) or real(self, docnum))
    return reads


@pytest.mark.parametrize(
    ("text", "shown", "first", "again"),
    [("what happens when a ship is stopped", 20, 26, 21)],
)
def test_a_question_reads_the_fields_of_the_hits_shown(
    bundled: KnowledgeBase, monkeypatch: pytest.MonkeyPatch, text: str, shown: int, first: int, again: int
) -> None:
    """A question of several words ranks up to a hundred versions matching most of its words and
    a hundred its rarest word finds, to show twenty: it reads the stored fields of those shown
    (and of one more, which tells whether more follow) and the headwords of the others its
    rarest word may name, once for the index (`kb.search.memo`). Before, every hit's fields were
    read to drop those already found and to order Glossary restatements in a library that has
    none: 108 reads, and 108 again."""
    reads = reading(monkeypatch)
    answer = bundled.search(text)
    assert (len(answer["results"]), len(reads)) == (shown, first)
    reads.clear()
    bundled.search(text)
    assert len(reads) == again
