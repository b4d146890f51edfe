"""The layers: the read side of a knowledge base needs nothing of the build side (both take
where a knowledge base lives from `kb.paths`), and no module of the three packages imports
another that imports it back."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from helpers import ROOT
from kb.paths import BUILDS, BUILT_FROM, BUILT_ON, CURRENT, CURRENT_DIR, DB_NAME, INDEX_DIR, VOCABULARY, current

PACKAGES = ("rulings", "kb", "web")


def _imports(inside_functions: bool = False) -> dict[str, set[str]]:
    """Each module of the three packages -> the modules of the packages it imports when it is loaded
    (``inside_functions``: or when any of its functions runs; imports for the type checker only
    are left out)."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        checking = {id(n) for i in tree.body if isinstance(i, ast.If) and "TYPE_CHECKING" in ast.unparse(i.test)
                    for n in ast.walk(i)}  # fmt: skip
        for node in [n for n in ast.walk(tree) if id(n) not in checking] if inside_functions else tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                          for a in node.names}  # fmt: skip
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
        graph[name] = {m for m in found if m in modules and m != name and m not in PACKAGES}
    return graph


def test_reading_a_knowledge_base_loads_nothing_of_building() -> None:
    """The command line too: `rulings show` or `search` starts without the parsers and the build."""
    code = "import sys, kb.query, kb.search, kb.cardquery, web.app, web.cli; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = set(eval(loaded.stdout))  # a printed list of names
    assert {"kb.build", "kb.library", "kb.incremental", "kb.linking", "rulings.parse"} & modules == set()
    assert {"kb.paths", "kb.vocabulary", "kb.errors"} <= modules
    assert "kb.build" not in _imports()["kb.query"]


def test_no_import_cycle() -> None:
    """Not even through an import inside a function (a cycle put off to run time is a cycle)."""
    graph = _imports(inside_functions=True)
    cycles = []
    for start in sorted(graph):
        seen, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            if module == start:
                cycles.append(start)
                break
            if module not in seen:
                seen.add(module)
                todo += graph[module]
    assert cycles == []


def test_the_layout_of_a_knowledge_base(bundled_root: Path) -> None:
    link = bundled_root / CURRENT
    assert (
        link.is_symlink() and link.resolve().parent == (bundled_root / BUILDS).resolve() == current(bundled_root).parent
    )
    build = current(bundled_root)
    assert [(build / name).is_file() for name in (DB_NAME, BUILT_ON, BUILT_FROM, VOCABULARY)] == [True] * 4
    assert [(build / name).is_dir() for name in (INDEX_DIR, CURRENT_DIR)] == [True, True]
