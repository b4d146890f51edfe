"""Fixture-driven parser tests: each case's input parsed and rendered must equal its expected text."""

from __future__ import annotations

import pytest

from helpers import FIXTURES, Case, parse_text, read_cases, render

TITLES = frozenset(
    {"Federation Outpost", "U.S.S. Galaxy", "Runabout", "Dr. Farek", "Taitt", "Palor Toff - Alien Trader"}
)
KINDS = {"rulebook": "rulebook", "glossary": "glossary", "current": "current-rulings-update"}


def _cases() -> list[object]:
    params = []
    for name, kind in KINDS.items():
        path = FIXTURES / "parsers" / f"{name}.txt"
        for case in read_cases(path):
            params.append(pytest.param(kind, case, id=f"{name}.txt:{case.line}: {case.title}"))
    return params


@pytest.mark.parametrize(("kind", "case"), _cases())
def test_fixture(kind: str, case: Case) -> None:
    assert render(parse_text(case.source, kind, TITLES)) == case.expected
