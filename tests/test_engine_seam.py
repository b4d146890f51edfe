"""The engine's seam (`kb.engine`): the private names of Whoosh it reads are all there in the
Whoosh installed, and a release without one is refused as the engine is imported, in one line
naming the release and the name, by the command line as every other error (exit status 1),
never by a search failing later. (The engine against Whoosh's own matchers and scorers, case
by case: the other ``test_engine_*.py``.)"""

from __future__ import annotations

import subprocess
import sys

import pytest
import whoosh

from helpers import ROOT
from kb.engine import privates
from kb.errors import BuildError, EngineMismatch

INSTALLED = whoosh.versionstring()


def test_every_private_name_read_is_there() -> None:
    assert (INSTALLED, privates.TESTED, privates.missing()) == ("2.7.4", "2.7.4", [])
    names = [name for listed in privates.PRIVATE.values() for name in listed]
    assert (len(privates.PRIVATE), len(names), len(set(names))) == (9, 23, 20)  # 20 names, read on 9 owners


def test_a_name_gone_is_named_with_the_release(monkeypatch: pytest.MonkeyPatch) -> None:
    listed = {**privates.PRIVATE, "whoosh.matching:ListMatcher": ("_ids", "_gone"), "whoosh.nowhere": ("_x",)}
    monkeypatch.setattr(privates, "PRIVATE", listed)
    assert privates.missing() == ["whoosh.matching:ListMatcher._gone", "whoosh.nowhere._x"]
    with pytest.raises(EngineMismatch) as raised:
        privates.check()
    assert str(raised.value) == (
        "Whoosh 2.7.4 lacks whoosh.matching:ListMatcher._gone, whoosh.nowhere._x, which kb.engine reads"
        " (written for Whoosh 2.7.4)"
    )
    assert isinstance(raised.value, BuildError)


def test_a_release_without_a_name_stops_the_command_in_one_line(bundled_root: object) -> None:
    """As if a release of Whoosh had dropped ``whoosh.codec.whoosh3._lenfield``: ``rulings search`` fails
    as the engine is imported, before it searches, with the one line, and so does ``rulings
    serve`` before it serves (``show``, which loads no engine, answers)."""
    code = (
        "import sys, whoosh.codec.whoosh3 as codec; del codec._lenfield\n"
        "from web.cli.main import main\n"
        f"sys.exit(main(sys.argv[1:] + ['--kb', {str(bundled_root)!r}]))"
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
        )

    search = run("search", "conundrum")
    assert (search.returncode, search.stdout, search.stderr) == (
        1,
        "",
        "rulings: error: Whoosh 2.7.4 lacks whoosh.codec.whoosh3._lenfield, which kb.engine reads"
        " (written for Whoosh 2.7.4)\n",
    )
    serve = run("serve", "--workers", "1", "--port", "0")  # the app loads the engine before it serves
    assert (serve.returncode, serve.stderr) == (1, search.stderr)
    show = run("show", "Conundrum")
    first = show.stdout.splitlines()[0]
    assert (show.returncode, show.stderr, first.rsplit(" ", 1)[0]) == (
        0,
        "",
        "Conundrum  (stccg:conundrum), in force on",
    )


def test_whooshs_word_variations_load_when_first_asked() -> None:
    """The engine imports Whoosh's queries without their English word variations (a fifth of a
    cold search's CPU, for a query no plan makes); asked, they are Whoosh's own."""
    code = (
        "import sys, kb.engine.searching\n"
        "from whoosh.query.terms import variations\n"
        "loaded = 'whoosh.lang.morph_en' in sys.modules\n"
        "asked = sorted(variations('ship'))\n"
        "from whoosh.lang.morph_en import variations as own\n"
        "print(loaded, asked == sorted(own('ship')), len(asked) > 5, 'ships' in asked)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "True", "True"]
