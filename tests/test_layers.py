"""The layers: the read side of a knowledge base needs nothing of the build side (both take
where a knowledge base lives from `kb.paths`), and no module of the three packages imports
another that imports it back."""

from __future__ import annotations

import ast
import json
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


WEB = ("flask", "werkzeug", "jinja2", "markdown_it", "gunicorn", "waitress")


def loaded(*arguments: str) -> tuple[set[str], str]:
    """The modules a ``rulings`` command run in a fresh process loads, and what it printed."""
    code = ("import io, json, sys, contextlib, web.cli\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    status = web.cli.main(sys.argv[1:])\n"
            "print(json.dumps([status, out.getvalue(), sorted(sys.modules)]))")  # fmt: skip
    run = subprocess.run([sys.executable, "-c", code, *arguments], cwd=ROOT, capture_output=True, text=True, check=True)
    status, printed, modules = json.loads(run.stdout)
    assert status == 0, run.stderr
    return set(modules), printed


def packages(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_show_loads_neither_whoosh_nor_the_web_app(bundled_root: Path) -> None:
    modules, printed = loaded("show", "Conundrum", "--kb", str(bundled_root))
    assert printed.startswith("Conundrum  (stccg:conundrum), in force on ")
    assert packages(modules) & {"whoosh", *WEB} == set()
    assert {"kb.search", "kb.questions", "kb.analysis", "kb.index", "kb.cardquery", "rulings.cardlist", "web.export",
            "web.app"} & modules == set()  # fmt: skip


def test_search_loads_whoosh_but_not_the_web_app(bundled_root: Path) -> None:
    modules, printed = loaded("search", "conundrum target", "--kb", str(bundled_root))
    assert printed.split("\n")[1] == "1. Conundrum  [Glossary] active"
    assert "whoosh" in packages(modules) and packages(modules) & set(WEB) == set()
    assert {"web.export", "web.app", "kb.build"} & modules == set()


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
