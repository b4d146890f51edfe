"""`rulings add` of an update spelling a card as an earlier version does, but with its quotes,
apostrophes, case or accents written otherwise (``Cha’Joh``, ``CHA'JOH``, ``Chá'Joh`` beside
``Cha'Joh``): the card links nothing new, so the add is incremental, and it still makes what a
full build makes (issue 37). An accent is folded however it is encoded: ``á`` precomposed
(U+00E1) or ``a`` and a combining acute (U+0301)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from test_incremental import HEAD, add_report, counts, library, same_as_full_build, segments_shared

from kb.ingest import store
from kb.ingest.pipeline import build

__all__ = ["library"]  # the fixture, shared with test_incremental

SPELLINGS = ["Cha\u2019Joh", "Cha\u2018Joh", "CHA'JOH", "Ch\u00e1'Joh", "Cha\u0301'Joh", "CH\u00c1\u2019JOH"]
"""Curly quotes, case, a precomposed and a decomposed accent, and all of them at once."""


def links(directory: Path, version: int) -> list[tuple[str, str]]:
    """The cards a version links, and how."""
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        query = "SELECT card_key, via FROM card_links WHERE version_id = ? ORDER BY card_key, via"
        return list(db.execute(query, (version,)))


def latest(directory: Path) -> tuple[int, str]:
    """The last version's number and topic."""
    with closing(sqlite3.connect(directory / store.DB_NAME)) as db:
        found: tuple[int, str] = db.execute("SELECT id, topic_id FROM versions ORDER BY id DESC LIMIT 1").fetchone()
        return found


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_card_spelled_as_before_up_to_quotes_case_and_accents_is_added_incrementally(
    library: Path, tmp_path: Path, spelling: str
) -> None:
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    text = HEAD.format(us="3/5/01") + f"{spelling} - This ship may change its affiliation once each turn.\n"
    report = add_report(library, kb, tmp_path, text, dt.date(2001, 3, 5))
    assert (report.full, report.rewritten) == (None, 2)  # its ruling, and the Cha'Joh ruling it replaces
    assert segments_shared(previous, report.directory)
    version, topic = latest(report.directory)
    assert topic == "stccg:chajoh"
    assert links(report.directory, version) == [("stccg:chajoh", "headword")]
    assert counts(report.directory)["cards"] == counts(previous)["cards"]  # no card of its own
    same_as_full_build(library, kb, tmp_path)


@pytest.mark.parametrize("spelling", ["Ch\u00e1'Joh", "Cha\u0301'Joh"])
def test_a_card_written_with_an_accent_in_a_text_links_the_card_in_an_add_and_a_full_build(
    library: Path, tmp_path: Path, spelling: str
) -> None:
    kb = tmp_path / "kb"
    build(library, kb)
    text = HEAD.format(us="3/5/01") + f"outpost placement - An outpost may be placed where you have the {spelling}.\n"
    report = add_report(library, kb, tmp_path, text, dt.date(2001, 3, 5))
    assert report.full is None
    version, topic = latest(report.directory)
    assert topic == "stccg:outpost-placement"
    assert links(report.directory, version) == [("stccg:chajoh", "title")]
    same_as_full_build(library, kb, tmp_path)  # the full build links it too


@pytest.mark.parametrize("spelling", ["Q-Flash", "Q\u2013Flash", "Q\u2010Flash", "Q\u2011Flash", "Q\u2013Fl\u00e1sh"])
def test_a_card_spelled_with_an_en_dash_or_a_unicode_hyphen_is_the_hyphens_card(
    library: Path, tmp_path: Path, spelling: str
) -> None:
    """Written for a hyphen, an en dash or U+2010/U+2011 makes no card of its own (``Q–Flash`` beside
    ``Q-Flash``): the add is incremental and its ruling names the card Q-Flash."""
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    text = HEAD.format(us="3/5/01") + f"{spelling} - This card may be played once each turn.\n"
    report = add_report(library, kb, tmp_path, text, dt.date(2001, 3, 5))
    assert (report.full, report.rewritten) == (None, 1)
    version, topic = latest(report.directory)
    assert topic == "stccg:q-flash"
    assert links(report.directory, version) == [("stccg:qflash", "headword")]
    assert counts(report.directory)["cards"] == counts(previous)["cards"]
    same_as_full_build(library, kb, tmp_path)
