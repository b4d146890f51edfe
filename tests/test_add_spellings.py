"""`rulings add` of an update spelling a card as an earlier version does, but with its quotes,
apostrophes or case written otherwise (``Cha’Joh``, ``CHA'JOH`` beside ``Cha'Joh``): the card
links nothing new, so the add is incremental, and it still makes what a full build makes (issue 37)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from test_incremental import HEAD, add_report, library, same_as_full_build, segments_shared

from kb.ingest.pipeline import build

__all__ = ["library"]  # the fixture, shared with test_incremental


@pytest.mark.parametrize("spelling", ["Cha\u2019Joh", "Cha\u2018Joh", "CHA'JOH"])
def test_a_card_spelled_as_before_up_to_quotes_and_case_is_added_incrementally(
    library: Path, tmp_path: Path, spelling: str
) -> None:
    kb = tmp_path / "kb"
    previous = build(library, kb).directory
    text = HEAD.format(us="3/5/01") + f"{spelling} - This ship may change its affiliation once each turn.\n"
    report = add_report(library, kb, tmp_path, text, dt.date(2001, 3, 5))
    assert (report.full, report.rewritten) == (None, 2)
    assert segments_shared(previous, report.directory)
    same_as_full_build(library, kb, tmp_path)
