"""The layout of `rulings/` (docs/architecture.md, "Where things live in rulings/"): each kind is a
module or a package directly under `rulings/kinds/`; what several kinds share lives in a room
named for it (`rulings/lines/`, `rulings/entries/`, `rulings/numbering/`); the top of `rulings/`
holds only the package's public surface. A module put elsewhere fails here, told where it goes."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

from helpers import ROOT
from rulings import kinds

RULINGS = ROOT / "rulings"

SURFACE = {
    "amendments",  # the model's Amendment, and when an amendment takes effect (kb.ingest.ledger)
    "dates",  # dates as documents and users write them (the CLI, the web)
    "errors",
    "extract",
    "manifest",
    "model",
    "normalize",  # headword and title keys, which kb stores and searches by
    "parse",
    "reading",
    "self_description",
    "source",
}
"""The modules at the top of `rulings/`: what `kb/`, `web/` and the command line import."""

ROOMS = {
    "lines": "the lines every kind meets: noise, pages, reflow, chrome, where an entry starts",
    "entries": "entries as several kinds shape them: topics and their references, entries cut off",
    "numbering": "numbered rules: how a game numbers its rules, and their self-check",
}
"""The rooms of what several kinds share, each named for what it holds."""


def _children(folder: Path) -> tuple[set[str], set[str]]:
    """The modules and the packages directly in ``folder``."""
    found = [m for m in pkgutil.iter_modules([str(folder)]) if not m.name.startswith("_")]
    return {m.name for m in found if not m.ispkg}, {m.name for m in found if m.ispkg}


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, inside its functions and for the type checker too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = {f"{node.module}.{a.name}" for a in node.names}
            found |= {node.module, *(m for m in modules if _is_module(m))}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def test_the_top_of_rulings_is_its_public_surface_and_its_rooms() -> None:
    modules, packages = _children(RULINGS)
    misplaced = sorted(modules - SURFACE)
    assert misplaced == [], (
        f"rulings/: {misplaced} not in the public surface: a kind's parser goes in rulings/kinds/<kind>/, "
        f"a helper several kinds share in a room ({', '.join(sorted(ROOMS))})"
    )
    assert (modules, packages) == (SURFACE, {"kinds", *ROOMS})


def test_every_module_or_package_directly_under_kinds_is_a_registered_kind() -> None:
    modules, packages = _children(RULINGS / "kinds")
    registered = {k.name for k in kinds.every()}
    assert {m.replace("_", "-") for m in modules | packages} == registered == set(kinds.names())
    assert packages >= {"comprehensive_rules", "current_rulings", "faq", "glossary", "rulebook", "rulings_database"}


def test_no_room_and_nothing_of_the_surface_imports_a_kind() -> None:
    """The rooms and the surface stand below the kinds: they reach a kind only through the
    registry (`rulings.kinds`), so a kind's modules are that kind's alone, or another kind's."""
    paths = [p for room in ROOMS for p in sorted((RULINGS / room).glob("*.py"))]
    paths += [RULINGS / f"{name}.py" for name in sorted(SURFACE)]
    reaching = {
        str(p.relative_to(ROOT)): sorted(m for m in _imported(p) if m.startswith("rulings.kinds.")) for p in paths
    }
    assert {p: found for p, found in reaching.items() if found} == {}
    assert [(RULINGS / room / "__init__.py").is_file() for room in sorted(ROOMS)] == [True] * len(ROOMS)


def test_every_module_of_rulings_says_what_it_is_for() -> None:
    silent = [
        str(p.relative_to(ROOT))
        for p in sorted(RULINGS.rglob("*.py"))
        if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert silent == []
