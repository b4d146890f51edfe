"""The load of ``bench/fresh_load.py`` asks each search once (issue 48): on the bundled library,
every other request is a search none asked before, and the pages between come in turn, each kind
of a topic, card, period or date not asked before while there are any."""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from pathlib import Path

from helpers import ROOT

sys.path.insert(0, str(ROOT / "bench"))
LOAD = importlib.import_module("fresh_load")


def test_each_search_is_asked_once_and_the_pages_come_in_turn(bundled_root: Path) -> None:
    requests = LOAD.Requests(bundled_root, 300)
    asked = [requests.next() for _ in range(560)]
    searches = [path for endpoint, path in asked if endpoint == "search"]
    assert len(searches) == len(set(searches)) == 280  # none twice
    pages = [endpoint for endpoint, _ in asked if endpoint != "search"]
    assert Counter(pages) == dict.fromkeys(LOAD.PAGES, 40)
    entries = [path for endpoint, path in asked if endpoint == "entry"]
    assert len(set(entries)) == 40 and all(path.startswith("/entry/") for path in entries)
    diffs = [path for endpoint, path in asked if endpoint == "diff"]
    periods = [path.split("&size=")[0] for path in diffs]
    assert len(set(periods[: len(requests.periods)])) == len(requests.periods) == 4  # each before one is asked again


def test_distinct_searches_are_answered_alone_and_their_cpu_counted(bundled_root: Path) -> None:
    """``--searches N``: N distinct searches, one at a time in this process, all answered."""
    answered, spent = LOAD.searches_alone(bundled_root, 30)
    assert answered == 30
    assert 0 < spent < 30
