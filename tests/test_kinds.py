"""The registry of document kinds (`rulings.kinds`): each kind one module, its policy read by the ledger."""

from __future__ import annotations

import pytest

from helpers import ROOT
from kb.read.standing import NAMES, TIERS
from rulings import kinds
from rulings.kinds import ALWAYS, DATED, NEVER, RESTATEMENT, RULINGS, SUPERSEDING, Kind, Versions


def test_the_first_kinds_keep_their_order_and_each_module_is_a_kind() -> None:
    assert kinds.names()[:6] == kinds.FIRST
    found = [
        *(ROOT / "rulings" / "kinds").glob("*.py"),
        *(p.parent for p in (ROOT / "rulings" / "kinds").glob("*/__init__.py")),
    ]
    modules = sorted(p.stem for p in found if not p.stem.startswith("_"))
    assert sorted(kinds.names()) == sorted(m.replace("_", "-") for m in modules)
    assert [k.name for k in kinds.every()] == list(kinds.names())


def test_each_first_kind_declares_how_its_entries_become_versions() -> None:
    declared = {k.name: (k.versions.how, k.versions.series, k.versions.rescinds) for k in kinds.every()}
    assert {name: declared[name] for name in kinds.FIRST} == {
        "rulebook": (RESTATEMENT, "rulebook", SUPERSEDING),
        "glossary": (RESTATEMENT, "glossary", ALWAYS),
        "current-rulings": (RULINGS, "current-rulings", ALWAYS),
        "current-rulings-update": (RULINGS, "current-rulings", NEVER),
        "faq": (RESTATEMENT, "faq", ALWAYS),
        "dated-rulings": (DATED, "current-rulings", NEVER),
    }
    assert kinds.kind("glossary").versions.consolidates == ("current-rulings",)
    assert kinds.kind("rulebook").versions.lineage and not kinds.kind("rulebook").cleaned


def test_standing_ranks_the_series_as_the_kinds_declare() -> None:
    assert {s: TIERS[s] for s in ("current-rulings", "glossary", "rulebook", "faq", "variant")} == {
        "current-rulings": 4, "glossary": 3, "rulebook": 2, "faq": 1, "variant": 0,
    }  # fmt: skip
    assert NAMES["glossary"] == "the Glossary" and NAMES["faq"] == "an FAQ"


def test_a_kind_registers_only_from_its_own_module_and_once() -> None:
    faq = kinds.kind("faq")
    with pytest.raises(ValueError, match=r"must be registered by the module rulings\.kinds\.errata"):
        kinds.register(Kind("errata", faq.parse, faq.versions, 1, "an FAQ"))
    with pytest.raises(ValueError, match="registered twice"):
        kinds.register(Kind("faq", faq.parse, faq.versions, 2, "an FAQ"))
    with pytest.raises(KeyError):
        kinds.kind("errata")
    with pytest.raises(ValueError, match="how 'sometimes'"):
        Versions("sometimes", series="faq")
