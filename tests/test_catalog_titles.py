"""The card titles the parse weighs come from the catalog in use: the card files of the build, not only
``titles/<game>.txt`` (``tests/fixtures/catalog-titles``, built for real).

The Glossary page begins inside a long entry; its leading entries would be that entry's sub-headings
(`rulings.kinds.glossary.parser`) unless one is a game term, a card title or a card's entry. "Temporal Rift" is a
card only in ``cards.csv``: with the card file it is an entry (holding its sub-heading), without it
a sub-heading, and the page, read as nothing, is refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES
from kb.errors import BuildError
from kb.ingest.pipeline import build
from kb.query import KnowledgeBase

LIBRARY = FIXTURES / "catalog-titles"
TEXT = (
    "One or more ships caught in it are placed out of play until a full turn later."
    '\n\n"Drifting" – A ship that is out of play stays where it was.'
)


def built(tmp_path: Path, cards: list[Path]) -> tuple[KnowledgeBase, list[str]]:
    shutil.copytree(LIBRARY, tmp_path / "library")
    report = build(tmp_path / "library", tmp_path / "kb", cards)
    page = tmp_path / "library" / "stccg" / "glossary-page-31.txt"
    warned = [w.replace(f"{page}:", "") for r in report.documents for w in r.warnings if "sub-heading" in w]
    return KnowledgeBase(report.directory), warned


def test_a_card_of_the_card_file_is_an_entry_not_a_sub_heading(tmp_path: Path) -> None:
    kb, warned = built(tmp_path, [LIBRARY / "cards.csv"])
    assert [(p["headword"], p["text"], p["series"]) for p in kb.show("Temporal Rift")["parts"]] == [
        ("Temporal Rift", TEXT, "glossary")
    ]
    assert warned == []  # its "Drifting" is its own sub-heading, in its text


def test_without_the_card_file_the_page_reads_as_sub_headings_and_is_refused(tmp_path: Path) -> None:
    shutil.copytree(LIBRARY, tmp_path / "library")
    with pytest.raises(BuildError) as refused:
        build(tmp_path / "library", tmp_path / "kb")
    assert str(refused.value) == (
        f"{tmp_path / 'library' / 'stccg' / 'glossary-page-31.txt'}: read as glossary, only 0 of 7 lines look like "
        "Glossary entries; is it another kind? (--accept-unread keeps it)"
    )
