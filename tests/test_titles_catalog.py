"""The bundled deck-list titles are real card titles (checked against the Lackey catalog).

Compared by headword key: the seed prints ``Palor Toff - Alien Trader``, the catalog
``Palor Toff: Alien Trader``.
"""

from __future__ import annotations

import csv

import pytest

from helpers import SEEDS, SHARED
from rulings.manifest import load_titles
from rulings.normalize import headword_key

CATALOG = SHARED / "cards" / "Physical.csv"


@pytest.mark.skipif(not CATALOG.is_file(), reason="../shared/cards/Physical.csv is absent (only beside the project)")
def test_every_bundled_title_is_in_the_real_catalog() -> None:
    with CATALOG.open(encoding="utf-8-sig", newline="") as handle:
        names = {headword_key(row["Name"]) for row in csv.DictReader(handle)}
    missing = sorted(t for t in load_titles(SEEDS, "stccg") if headword_key(t) not in names)
    assert missing == []
