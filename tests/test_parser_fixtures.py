"""Fixture-driven parser tests: each case's input parsed and rendered must equal its expected text."""

from __future__ import annotations

import pytest

from helpers import FIXTURES, Case, parse_text, read_cases, render
from rulings.amendments import parse_amendment

TITLES = frozenset(
    {"Federation Outpost", "U.S.S. Galaxy", "Runabout", "Dr. Farek", "Taitt", "Palor Toff - Alien Trader"}
)
KINDS = {
    "rulebook": "rulebook", "glossary": "glossary", "current": "current-rulings-update", "faq": "faq",
    "dated": "dated-rulings",
}  # fmt: skip


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


def render_amendment(text: str) -> str:
    amendment, unreadable = parse_amendment(text)
    if amendment is None:
        return "unreadable" if unreadable else "none"
    head = f"{amendment.describe()} | {amendment.action} {amendment.target} {amendment.unit}"
    head += f" {amendment.ordinal}" if amendment.ordinal is not None else ""
    for name in ("section", "release", "aside"):
        if getattr(amendment, name):
            head += f" | {name}: {getattr(amendment, name)}"
    return f"{head}\ntext: {amendment.text}"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=f"amendments.txt:{c.line}: {c.title}")
        for c in read_cases(FIXTURES / "parsers" / "amendments.txt")
    ],
)
def test_amendment_fixture(case: Case) -> None:
    assert render_amendment(case.source.strip()) == case.expected
