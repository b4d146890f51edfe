"""Every entry counted by hand in ../shared/real is found, and no false entry appears.

The expected entries of each file (tests/fixtures/real_counts.toml) were counted by reading the
files before any parser ran on them. Per file: each real entry is found (as an entry of a kind
that is a topic, by its headword), no other entry appears (the introduction, headings and the
group headings listed apart), entries cut off are marked partial, sub-headings held apart and
warned, and the entries of a page of two PDF columns read across on one line each warned that its words
interleave, its icon legend's items held apart as legend entries.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers import FIXTURES, ROOT, SHARED
from kb.ingest.catalog import Catalog, import_lackey
from rulings.manifest import load_titles
from rulings.model import ParseResult
from rulings.parse import coverage, parse_file

REAL = SHARED / "real"
COUNTS: dict[str, dict[str, Any]] = tomllib.loads((FIXTURES / "real_counts.toml").read_text(encoding="utf-8"))
needs_real = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/real (excerpts of real published pages) is absent (only beside the project)"
)
APART = frozenset({"introduction", "preamble", "heading", "note", "sub-heading", "legend"})
"""Entry kinds that are no entry of the document's own (its front matter, headings, sub-headings)."""
OWN_PARTIAL = frozenset({"dated-rulings"})
"""Kinds whose parser is not the one that marks cut-off entries yet (the dated list moves to its own module)."""


def parse(name: str) -> ParseResult:
    return parse_file(REAL / name, COUNTS[name]["kind"])


def entries(result: ParseResult, spec: dict[str, Any]) -> Counter[str]:
    headings = set(spec.get("headings", []))
    return Counter(
        e.headword
        for e in result.entries
        if e.kind not in APART and not (e.kind == "section" and e.headword in headings)
    )


@needs_real
def test_every_file_of_shared_real_is_counted() -> None:
    assert sorted(COUNTS) == sorted(p.name for p in REAL.glob("*.txt"))


@needs_real
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_real_entries_found_and_no_false_entry(name: str) -> None:
    spec = COUNTS[name]
    result = parse(name)
    assert entries(result, spec) == Counter(spec["entries"])
    assert coverage(result).complete


@needs_real
@pytest.mark.parametrize("name", sorted(n for n, s in COUNTS.items() if s["kind"] not in OWN_PARTIAL))
def test_cut_off_entries_are_partial(name: str) -> None:
    spec = COUNTS[name]
    result = parse(name)
    cut = [e.headword for e in result.entries if e.partial and e.kind not in APART]
    assert cut == spec.get("partial", [])
    for headword in cut:
        assert any(f"{headword!r} is cut off where" in w for w in result.warnings)


@needs_real
@pytest.mark.parametrize("name", sorted(n for n, s in COUNTS.items() if s.get("subheadings")))
def test_sub_headings_held_apart_and_warned(name: str) -> None:
    spec = COUNTS[name]
    result = parse(name)
    assert [e.headword for e in result.entries if e.kind == "sub-heading"] == spec["subheadings"]
    for headword in spec["subheadings"]:
        assert any(f"{headword!r} is held as a sub-heading" in w for w in result.warnings)


@needs_real
@pytest.mark.parametrize("name", sorted(n for n, s in COUNTS.items() if s.get("interleaved")))
def test_entries_of_two_columns_read_across_are_read_and_each_warned(name: str) -> None:
    spec = COUNTS[name]
    result = parse(name)
    assert result.unparsed == []
    assert [e.headword for e in result.entries if e.kind == "legend"] == spec.get("legend", [])
    warned = [w.split(": ", 1)[1] for w in result.warnings if "holds words of two PDF columns" in w]
    assert [w.split(" holds ")[0].strip("'") for w in warned if not w.startswith("the front")] == spec["interleaved"]


CARDS = SHARED / "cards" / "Physical.csv"
MID_ENTRY_PAGE = """the crew may not attempt that mission again
this turn.
Cryosatellite – Place on a planet; its crew stays frozen
until a MEDICAL arrives.
Cures – One or more skills that end a dilemma's effect.
"""


@pytest.mark.skipif(
    not CARDS.is_file(), reason="../shared/cards (Lackey card files) is absent (only beside the project)"
)
def test_the_catalogs_card_titles_weigh_in_the_sub_heading_rule(tmp_path: Path) -> None:
    """A card title the catalog in use names (not in data/titles) is an entry at the top of a page begun
    mid-entry; with only data/titles it is held as a sub-heading. Sub-headings are a page's leading
    entries: once a real entry stands, the ones after it are entries."""
    catalog = Catalog()
    import_lackey(CARDS, catalog)
    titles = frozenset(card.name for card in catalog.cards.values())
    page = tmp_path / "page.txt"
    page.write_text(MID_ENTRY_PAGE, encoding="utf-8")
    bare = parse_file(page, "glossary", load_titles(ROOT / "data", "stccg"))
    assert [(e.kind, e.headword) for e in bare.entries] == [("sub-heading", "Cryosatellite"), ("sub-heading", "Cures")]
    read = parse_file(page, "glossary", titles)
    assert [(e.kind, e.headword) for e in read.entries] == [
        ("glossary entry", "Cryosatellite"),
        ("glossary entry", "Cures"),
    ]
