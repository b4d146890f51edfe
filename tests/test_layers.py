"""The layers: the read side of a knowledge base (`kb.read`, `kb.search.in_force`) needs nothing of the
build side (`kb.ingest.pipeline`, `kb.index.writer`): both stand on the floor of `kb` (where a knowledge base
lives, the model, the store's and the indexes' layouts, the errors), and no module of the three
packages imports another that imports it back, not even for the type checker."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from helpers import ROOT
from kb.paths import BUILDS, BUILT_FROM, BUILT_ON, CURRENT, CURRENT_DIR, DB_NAME, INDEX_DIR, VOCABULARY, current

PACKAGES = ("rulings", "kb", "web")


def _imports(inside_functions: bool = False, for_types: bool = False) -> dict[str, set[str]]:
    """Each module of the three packages -> the modules of the packages it imports when it is loaded
    (``inside_functions``: or when any of its functions runs; ``for_types``: and for the type
    checker only)."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        checking = (
            set()
            if for_types
            else {
                id(n)
                for i in tree.body
                if isinstance(i, ast.If) and "TYPE_CHECKING" in ast.unparse(i.test)
                for n in ast.walk(i)
            }
        )
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
    code = "import sys, kb.query, kb.search.in_force, kb.read.cards, web.app, web.cli.main; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = set(eval(loaded.stdout))  # a printed list of names
    assert {m for m in modules if m.startswith(("kb.ingest", "kb.index", "rulings.parse"))} == set()
    assert {"kb.paths", "kb.vocabulary", "kb.errors", "kb.model", "kb.schema"} <= modules


def test_the_read_and_search_wings_import_nothing_of_building() -> None:
    """Not inside a function, nor for the type checker: what reads and searches stands on the floor of `kb`."""
    graph = _imports(inside_functions=True, for_types=True)
    wings = ("kb.read", "kb.search", "kb.query")
    crossing = {(m, i) for m, found in graph.items() if m.startswith(wings) for i in found
                if i.startswith(("kb.ingest", "kb.index"))}  # fmt: skip
    assert crossing == set()
    wings_and_door = {"kb.query", "kb.ingest", "kb.index", "kb.search", "kb.read"}
    floor = {m for m in graph if m.startswith("kb.") and m.count(".") == 1 and m not in wings_and_door}
    # the search engine's seam and the answers' types (a package of three modules) are of the floor too
    floor |= {m for m in graph if m.startswith(("kb.engine.", "kb.answers."))}
    assert {i for m in floor for i in graph[m] if i.startswith("kb.") and i not in floor} == set()


WEB = ("flask", "werkzeug", "jinja2", "markdown_it", "gunicorn", "waitress")


def loaded(*arguments: str) -> tuple[set[str], str]:
    """The modules a ``rulings`` command run in a fresh process loads, and what it printed."""
    code = ("import io, json, sys, contextlib, web.cli.main\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    status = web.cli.main.main(sys.argv[1:])\n"
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
    assert {"kb.search", "kb.search.questions", "kb.analysis", "kb.index", "kb.read.cards",
            "rulings.kinds.rulebook.cardlist", "web.export", "web.app"} & modules == set()  # fmt: skip


def test_search_loads_whoosh_but_not_the_web_app(bundled_root: Path) -> None:
    modules, printed = loaded("search", "conundrum target", "--kb", str(bundled_root))
    assert printed.split("\n")[1] == "1. Conundrum  [Glossary] active"
    assert "whoosh" in packages(modules) and packages(modules) & set(WEB) == set()
    assert {"web.export", "web.app", "kb.ingest"} & modules == set()
    # nor what a cold search paid for and never used: Whoosh's English variations (its
    # Variations query's), the installed version (asked with --version), the build's, the
    # server's and the sources' commands (the manifest's TOML, sockets)
    assert {"whoosh.lang.morph_en", "importlib.metadata", "web.cli.commands", "web.cli.following", "tomllib",
            "rulings.manifest", "socket"} & modules == set()  # fmt: skip


def test_no_import_cycle() -> None:
    """Not even through an import inside a function (a cycle put off to run time is a cycle), nor
    through an import for the type checker only."""
    graph = _imports(inside_functions=True, for_types=True)
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


ENGINE = "kb.engine"
"""The package that holds the search engine, Whoosh, behind one seam."""


def _engine_free(name: str) -> bool:
    return name != ENGINE and not name.startswith(ENGINE + ".")


def test_only_the_engine_imports_whoosh() -> None:
    """No module of the three packages outside `kb.engine` imports Whoosh, not even inside a
    function or for the type checker, nor names it (every Whoosh class it uses comes through
    the engine, so a release of Whoosh is checked in one place: `kb.engine.privates`)."""
    importing, naming = [], []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            if not _engine_free(name):
                continue
            text = path.read_text(encoding="utf-8")
            for node in ast.walk(ast.parse(text)):
                modules = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                importing += [name for m in modules if m.split(".")[0] == "whoosh"]
            if "whoosh" in text:
                naming.append(name)
    assert (importing, naming) == ([], [])


RE_EXPORTS = {"kb.engine.searching"}
"""The engine's modules that only pass Whoosh's own names on (query nodes, matchers, collectors,
searchers, hits, highlighter): what takes them builds Whoosh's objects itself."""


def _passes_whoosh_on(path: Path) -> bool:
    """Whether a module of the engine is only its docstring, imports of Whoosh and its ``__all__``."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "whoosh":
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            continue
        return False
    return True


def test_whooshs_own_objects_are_taken_by_the_engine_only() -> None:
    """Whoosh is imported in the engine only, and no module outside it takes Whoosh's objects
    from the engine's modules that pass them on (`RE_EXPORTS`), even inside a function or for
    the type checker: the search side holds an open index, a plan as run and the documents
    found as the engine's own types (`handles.Index`, `handles.Built`, `hits.Scored`) and asks
    the engine's functions of them (`postings`, `weighting`, `budget`, `bulk`, `hits`...)."""
    engine = sorted((ROOT / "kb" / "engine").glob("*.py"))
    assert {f"kb.engine.{path.stem}" for path in engine if _passes_whoosh_on(path)} == RE_EXPORTS
    graph = _imports(inside_functions=True, for_types=True)
    assert {m for m, found in graph.items() if _engine_free(m) and found & RE_EXPORTS} == set()


def test_only_the_engine_unwraps_an_open_index() -> None:
    """The search side holds an open index as the engine's `kb.engine.handles.Index`, a type it
    can ask nothing of (mypy sees to it); no module outside the engine takes the Whoosh
    searcher it is (`searcher_of`), nor the Whoosh hit a document found wraps (`hits.Scored`),
    not even inside a function."""
    graph = _imports(inside_functions=True, for_types=True)
    taking = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            text = path.read_text(encoding="utf-8")
            if _engine_free(name) and ("searcher_of" in text or "._hit" in text):
                taking.add(name)
    assert taking == set()
    holding = {m for m, found in graph.items() if _engine_free(m) and "kb.engine.handles" in found}
    assert {"kb.search.searchers", "kb.search.in_force", "kb.search.history", "kb.search.plans"} <= holding


def test_the_engine_stands_on_the_floor_of_kb_only() -> None:
    """The engine imports nothing of the search side, the indexes' writers or the web: they stand on it."""
    graph = _imports(inside_functions=True, for_types=False)
    above = {m: sorted(n for n in found if n.startswith(("kb.search", "kb.index", "kb.ingest", "kb.read", "web")))
             for m, found in graph.items() if not _engine_free(m)}  # fmt: skip
    assert {m: n for m, n in above.items() if n} == {}
    assert {"kb.engine", "kb.engine.privates", "kb.engine.postings", "kb.engine.weighting"} <= set(above)


def test_the_export_does_not_import_the_index_writer() -> None:
    """Nor any module that does, even inside a function: the export reads a knowledge base built."""
    graph = _imports(inside_functions=True, for_types=True)
    reached: set[str] = set()
    todo = [m for m in graph if m.startswith("web.export")]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += graph[module]
    assert {"web.export.search_index", "kb.texts"} <= reached
    writers = {"kb.index.writer", "kb.index.history", "kb.engine.writing", "kb.engine.indexes"}
    assert {m for m in reached if m in writers} == set()


FLOOR_FOR_THE_EXPORT = {"kb.answers", "kb.errors", "kb.asking", "kb.paging", "kb.vocabulary", "kb.paths"}
"""What the export may import of `kb` beside the facade (`kb.query`): the answers' shapes and the floor's words."""


def test_the_export_asks_only_the_facade_and_reads_no_row() -> None:
    """The export (`web.export`) imports nothing of `kb` but `kb.query` and `FLOOR_FOR_THE_EXPORT`,
    not even inside a function or for the type checker, and calls none of the store's row methods
    (`kb.read.reader.Reader`'s): what it lists and indexes it asks `KnowledgeBase` for whole."""
    from kb.read.reader import Reader

    graph = _imports(inside_functions=True, for_types=True)
    taken = {(m, i) for m, found in graph.items() if m.startswith("web.export") for i in found if i.startswith("kb.")}
    assert {i for _, i in taken} - {"kb.query", *FLOOR_FOR_THE_EXPORT} == set()
    rows = {name for name in vars(Reader) if not name.startswith("_")}
    called = set()
    for path in sorted((ROOT / "web" / "export").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in rows:
                called.add((path.name, node.attr))
    assert len(rows) > 30 and called == set()


def test_every_error_class_is_in_its_sides_home() -> None:
    """An exception class is defined in `rulings.errors`, `kb.errors` or `web.errors` only (a module
    that raised one before may still name it, imported from there); no class is both an
    exception and another type (an answer's) under one name."""
    defined: list[tuple[str, str, list[str]]] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = [ast.unparse(b).split(".")[-1] for b in node.bases]
                    defined.append((node.name, str(path.relative_to(ROOT)), bases))
    errors = {"Exception", "ValueError", "LookupError", "OSError"}
    while grown := {n for n, _, bases in defined if n not in errors and errors & set(bases)}:
        errors |= grown
    homes = {where for name, where, _ in defined if name in errors}
    assert homes == {"rulings/errors.py", "kb/errors.py", "web/errors.py"}
    # the 17 of the seam's review, DamagedCache (a build cache that does not load), PortInUse,
    # UnknownDocument and UnknownVersion (the docs and version commands), FetchError (update)
    assert len({name for name, _, _ in defined} & errors) == 22
    assert sorted(name for name, _, _ in defined if name in errors) == sorted(
        errors - {"Exception", "ValueError", "LookupError", "OSError"}
    )


def test_the_facade_holds_the_store_and_is_no_reader() -> None:
    """`KnowledgeBase` holds the store's `Reader` (``store``, for tests and benchmarks) instead of
    inheriting it: its public attributes are answers, the search side and its lifecycle; of the
    reader's row methods only ``close`` is on it, so no page nor the export can read a row."""
    from kb.query import KnowledgeBase
    from kb.read.reader import Reader

    public = {a for a in dir(KnowledgeBase) if not a.startswith("_")}
    rows = {a for a in dir(Reader) if not a.startswith("_")}
    assert not issubclass(KnowledgeBase, Reader)
    assert public & rows == {"close"}
    assert len(public) == 40  # no searcher of the engine's: those are the search side's (``searchers``)
