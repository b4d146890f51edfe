"""How numbered rules stand under one another (`kb.read.rules`), read from the numbers alone:
Magic's ``702.19b`` and a chapter's ``702``, and a numbering with a period at every level, as
Lorcana's (``6.1.``, ``6.1.2.``, ``6.1.10.``)."""

from __future__ import annotations

from kb.read.rules import _parents, bare, number_order, under


def test_a_number_stands_under_the_one_it_begins_at_a_boundary() -> None:
    assert [under(child, "702.19") for child in ("702.19a", "702.190", "702.19", "702.1")] == [
        True,
        False,
        False,
        False,
    ]
    assert [under(child, "7") for child in ("702", "70", "702.1", "8")] == [True, True, False, False]
    assert [under(child, "6.1") for child in ("6.1.2", "6.10", "6.1.2.3")] == [True, False, True]
    assert [bare(h) for h in ("6.1.", "6.1.2.", "702.19b", "Trample")] == ["6.1", "6.1.2", "702.19b", None]


def test_each_number_hangs_from_the_nearest_present_above_it() -> None:
    rows = [{"id": f"lorcana:{h}", "headword": h} for h in ("6.1.1.", "6.1.2.", "6.1.2.1.", "6.1.10.", "6.1.3.1.")]
    parents = _parents("6.1", rows)
    assert parents == {
        "lorcana:6.1.1.": "",
        "lorcana:6.1.2.": "",
        "lorcana:6.1.2.1.": "lorcana:6.1.2.",
        "lorcana:6.1.10.": "",
        "lorcana:6.1.3.1.": "",  # 6.1.3. is not there: it stands directly under 6.1.
    }
    ordered = sorted((r["headword"] for r in rows), key=number_order)
    assert ordered == ["6.1.1.", "6.1.2.", "6.1.2.1.", "6.1.3.1.", "6.1.10."]
