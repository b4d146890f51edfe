"""An answer does only what it needs: a search reads the vocabulary only for words that may
need it and makes its spelling tables only for a word it does not know; a server's app has the
search side loaded before it forks; autocomplete and SQLite keep little per process and
thread. (Which modules `show` and `search` load: tests/test_layers.py; field lengths read once
and shared by the threads' searchers: tests/test_engine_weighting.py.) A command that only reads ends
its process without the interpreter's teardown, having said all it had to."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from helpers import ROOT
from kb.paths import VOCABULARY, current
from kb.query import KnowledgeBase
from kb.search.questions import Vocabulary
from web.cli.main import main


@pytest.fixture
def bundled(bundled_root: Path) -> KnowledgeBase:
    """A knowledge base opened afresh for each test: nothing read yet."""
    with KnowledgeBase(current(bundled_root)) as knowledge:
        yield knowledge


def test_a_search_of_a_phrase_alone_reads_no_vocabulary(bundled: KnowledgeBase) -> None:
    answer = bundled.search('"seed phase"')
    assert answer["results"] and (answer["corrected"], answer["suggestion"]) == (None, None)
    assert bundled.vocabulary_read() is False


def test_a_search_of_known_words_makes_no_spelling_table(bundled: KnowledgeBase) -> None:
    assert {"conundrum", "target"} <= set(bundled.vocabulary().counts) | bundled.vocabulary().names
    answer = bundled.search("conundrum target")
    assert (answer["results"][0]["headword"], answer["corrected"], answer["suggestion"]) == ("Conundrum", None, None)
    assert bundled.vocabulary().tables_made is False
    corrected = bundled.search("commandering")
    assert (corrected["corrected"], bundled.vocabulary().tables_made) == ("commandeering", True)


def test_the_spelling_tables_made_late_are_those_made_at_once(bundled_root: Path) -> None:
    data = json.loads((current(bundled_root) / VOCABULARY).read_text(encoding="utf-8"))
    late = Vocabulary(data["counts"], data["names"], data["stems"])
    assert (late.tables_made, late.correct("commandering"), late.knows("cloaked"), late.begins("comman")) == (
        False, "commandeering", True, True)  # fmt: skip
    assert late.tables_made is True


def test_the_app_made_before_a_server_forks_has_the_search_side_loaded(bundled_root: Path) -> None:
    """gunicorn makes the app in its first process and forks the workers from it: what the app
    loaded then, no worker's first search loads again."""
    code = f"import sys, web.app; web.app.create_app({{'KB': {str(bundled_root)!r}}}); print(sorted(sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = set(eval(run.stdout))  # a printed list of names
    loaded = {"kb.search.in_force", "kb.search.searchers", "kb.search.completion", "kb.read.cards"}
    assert loaded | {"whoosh.searching", "whoosh.highlight"} <= modules


def test_autocomplete_keeps_a_few_large_objects_not_one_per_name(bundled: KnowledgeBase) -> None:
    """Every headword, card name and alias, in the order autocomplete tries them, held in
    strings and arrays whatever the number of names."""
    names = bundled.completion_names()
    held = {name: type(value).__name__ for name, value in vars(names).items()}
    assert held == {"spaced": "str", "starts": "array", "kinds": "array", "pairs": "list", "names": "str",
                    "name_starts": "array", "targets": "str", "target_starts": "array"}  # fmt: skip
    aliases = sum(len(set(json.loads(c["aliases"])) - {c["name"]}) for c in bundled.store.cards())
    assert len(names) == len(bundled.store.topics()) + len(bundled.store.cards()) + aliases
    assert ([names.item(n)["name"] for n in range(3)], names.words(0)) == (["Klag", '"any"', "Divok"], " klag")
    assert [names.item(n)["name"] for n in names.having([" con", " ta"])] == ["Table of Contents"]
    assert [names.item(n) for n in names.having([" conu"])] == [
        {"name": "Conundrum", "kind": "entry", "game": "stccg", "target": "stccg:conundrum"},
        {"name": "Conundrum", "kind": "card", "game": "stccg", "target": "Conundrum"},
    ]


def test_each_threads_connection_keeps_a_small_page_cache(bundled: KnowledgeBase) -> None:
    """A server process has a connection per thread; the system caches the file for them all."""
    caches = []
    thread = threading.Thread(target=lambda: caches.append(bundled.store.rows("PRAGMA cache_size")[0][0]))
    thread.start()
    thread.join()
    assert (caches, bundled.store.rows("PRAGMA cache_size")[0][0]) == ([-128], -128)


def _program(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``rulings ARGUMENTS`` as the installed program runs it, with an exit handler that says "teardown"."""
    code = ("import atexit, sys; atexit.register(print, 'teardown', file=sys.stderr); "
            f"sys.argv = ['rulings', *{list(arguments)!r}]; "
            "from web.cli.program import program; program()")  # fmt: skip
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)


def test_a_command_that_only_reads_ends_without_teardown_having_said_all(
    bundled_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(bundled_root)
    status = main(["search", "mission", "--kb", kb, "--limit", "50"])
    printed = capsys.readouterr().out
    run = _program("search", "mission", "--kb", kb, "--limit", "50")
    assert (run.returncode, run.stdout, run.stderr, status) == (0, printed, "", 0)
    assert printed.count("Source:") == 35 and printed.startswith("35 result(s) for 'mission'")
    refused = _program("search", "mission", "--kb", kb, "--as-of", "2001-13-01")
    assert (refused.returncode, refused.stderr.startswith("rulings: error: "), "teardown" in refused.stderr) == (
        2, True, False)  # fmt: skip
    written = _program("build", "--library", str(ROOT / "data"), "--kb", str(tmp_path / "kb"))
    assert (written.returncode, written.stderr.splitlines()[-1:]) == (0, ["teardown"])
