"""Installed as a user installs it: ``pip install <clone>`` (a wheel, not a link to this checkout)
into a fresh venv, run from a folder outside any checkout with a home of its own. With no
argument, ``rulings build`` builds the bundled library into the user's data directory, and
``rulings search`` and ``rulings serve`` answer from it; another distribution's ``web`` or ``kb``
beside it neither breaks it nor is broken by it.

One venv serves the whole test session. It is made without pip and with the dependencies of
the interpreter running the tests (a ``.pth`` line naming its site-packages: the folder only, not
its ``.pth`` files, so not this checkout's editable install), so that nothing but the package
itself is installed; the wheel is built by pip as for any user."""

from __future__ import annotations

import http.client
import os
import shutil
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest
from servers import free_port

from helpers import ROOT, SEEDS
from kb.paths import user_data_dir

Installed = dict[str, Path]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The venv (``venv``), its site-packages (``site``), the user's home (``home``) and an empty
    working folder (``work``)."""
    top = tmp_path_factory.mktemp("installed")
    clone = top / "clone"
    shutil.copytree(ROOT, clone, ignore=shutil.ignore_patterns(".venv", ".git", "instance", "build", "*.egg-info"))
    venv = top / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    lib = next((venv / "lib").glob("python3.*/site-packages"))
    (lib / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", "--no-deps",
         "--ignore-installed", str(clone)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    shutil.rmtree(clone)
    (top / "home").mkdir()
    (top / "work").mkdir()
    return {"venv": venv, "site": lib, "home": top / "home", "work": top / "work"}


def environment(installed: Installed, **more: str) -> dict[str, str]:
    """A user's environment: the venv's programs first, a home of its own, no RULINGS_ or XDG_ variables."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("RULINGS_", "XDG_", "PYTHON"))}
    path = f"{installed['venv'] / 'bin'}{os.pathsep}{kept.get('PATH', '')}"
    return {**kept, "HOME": str(installed["home"]), "PATH": path, **more}


def rulings(installed: Installed, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    program = str(installed["venv"] / "bin" / "rulings")
    return subprocess.run([program, *args], cwd=installed["work"], env=environment(installed, **env),
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def first_page(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_build_search_and_serve_with_no_argument(installed: Installed) -> None:
    built = rulings(installed, "build")
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines()[0].startswith("stccg-quick-start: 40 entries")
    kb = installed["home"] / ".local" / "share" / "rulings" / "kb"
    assert (kb / "current" / "kb.sqlite").is_file() and list(installed["work"].iterdir()) == []
    found = rulings(installed, "search", "ship")
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0].startswith("20 result(s) for 'ship' as of ")
    assert (
        found.stdout.splitlines()[1]
        == "1. SHIPS  [Rulebook: Star Trek: The Next Generation CCG Introductory Two-Player Game: Quick-Start Rules]"
        " active"
    )
    options: list[str] = []  # none, unless another program holds the default port
    for _ in range(2):
        log = installed["work"].parent / "serve.log"
        with log.open("wb") as out:
            server = subprocess.Popen([str(installed["venv"] / "bin" / "rulings"), "serve", *options],
                                      cwd=installed["work"], env=environment(installed), stdout=out,
                                      stderr=subprocess.STDOUT)  # fmt: skip
        try:
            for _ in range(600):
                if log.read_text().endswith("\n") or server.poll() is not None:
                    break
                time.sleep(0.05)
            said = log.read_text()
            if server.poll() == 1 and "is in use by another program" in said:
                options = ["--port", str(free_port())]
                continue
            assert said.startswith(f"serving {kb} on http://127.0.0.1:{options[1] if options else 5000}/ with "), said
            status, body = first_page(int(options[1]) if options else 5000, "/entry/stccg:conundrum")
            assert status == 200 and "Conundrum" in body
            break
        finally:
            server.terminate()
            server.wait(timeout=30)
        log.unlink()
    else:
        raise AssertionError("no port to serve on")


def test_parse_finds_the_bundled_titles(installed: Installed) -> None:
    update = installed["site"] / "rulings_app" / "data" / "stccg" / "current-rulings-update-2000-11-27.txt"
    parsed = rulings(installed, "parse", str(update), "--kind", "current-rulings-update")
    assert parsed.returncode == 0 and parsed.stdout.splitlines()[-2].startswith("coverage: ")
    assert (
        parsed.stdout.splitlines()[-1]
        == "read as current-rulings-update: 92 of 92 lines as Current Rulings topics (100.0%)"
    )
    assert "no known title" not in parsed.stderr  # 27 of them without titles/stccg.txt
    assert parsed.stderr == (
        f"warning: {update}:147: 'Mirror versions' looks like an entry but is read as part of 'persona' (after a line "
        "ending with ':', an item of the list it introduces)\n"
    )


def test_every_not_found_says_what_to_pass(installed: Installed, tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    missing = rulings(installed, "search", "ship", RULINGS_KB=str(nowhere))
    assert (missing.returncode, missing.stderr) == (1, (
        f"rulings: error: {nowhere}: no knowledge base built yet (run 'rulings build', or pass --kb DIR or set "
        "RULINGS_KB to where 'rulings build' wrote one)\n"))  # fmt: skip
    empty = rulings(installed, "build", "--library", str(tmp_path), "--kb", str(nowhere))
    assert (empty.returncode, empty.stderr) == (1, (
        f"rulings: error: {tmp_path / 'library.toml'}: no manifest (expected library.toml in the library); pass "
        "--library DIR or set RULINGS_LIBRARY to a folder holding library.toml\n"))  # fmt: skip
    helped = rulings(installed, "build", "-h").stdout
    assert str(installed["site"] / "rulings_app" / "data") in "".join(helped.split())  # the default named in -h
    assert str(installed["work"]) not in helped


def test_the_library_and_kb_from_the_environment(installed: Installed, tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "library")
    env = {"RULINGS_LIBRARY": str(tmp_path / "library"), "RULINGS_KB": str(tmp_path / "kb")}
    built = rulings(installed, "build", "--json", **env)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "kb" / "current").is_dir()
    assert rulings(installed, "build", "--check", **env).stdout == "the knowledge base in service matches the library\n"
    xdg = rulings(installed, "build", "--check", XDG_DATA_HOME=str(tmp_path / "xdg"))
    assert xdg.stderr.startswith(f"rulings: error: {tmp_path / 'xdg' / 'rulings' / 'kb'}: no knowledge base built")


def test_another_web_or_kb_beside_it(installed: Installed) -> None:
    """What web.py (a ``web``) or any other distribution of a ``kb`` would install: each stays
    its own, and the program stays the program's."""
    wheel = [line.split(",")[0] for line in next(installed["site"].glob("rulings-*.dist-info")).joinpath(
        "RECORD").read_text().splitlines()]  # fmt: skip
    tops = {path.split("/")[0] for path in wheel}
    assert "rulings_app" in tops and tops <= {"rulings_app", "rulings-0.1.0.dist-info", "..", "__pycache__"}, tops
    for name in ("web", "kb"):
        (installed["site"] / name).mkdir()
        (installed["site"] / name / "__init__.py").write_text(f"WHOSE = 'another {name}'\n", encoding="utf-8")
    try:
        found = rulings(installed, "search", "conundrum", "--limit", "1")
        assert found.returncode == 0 and found.stdout.startswith("1 result(s) for 'conundrum'"), found.stderr
        python = str(installed["venv"] / "bin" / "python")
        theirs = subprocess.run([python, "-c", "import web, kb; print(web.WHOSE, kb.WHOSE)"], cwd=installed["work"],
                                env=environment(installed), capture_output=True, text=True, check=True)  # fmt: skip
        assert theirs.stdout == "another web another kb\n"
    finally:
        for name in ("web", "kb"):
            shutil.rmtree(installed["site"] / name)


def test_the_user_data_directory_by_platform() -> None:
    home = {"HOME": "/home/judge"}
    assert user_data_dir(home, "linux") == Path("/home/judge/.local/share/rulings")
    assert user_data_dir({**home, "XDG_DATA_HOME": "/data"}, "linux") == Path("/data/rulings")
    assert user_data_dir({**home, "XDG_DATA_HOME": "relative"}, "linux") == Path("/home/judge/.local/share/rulings")
    assert user_data_dir(home, "darwin") == Path("/home/judge/Library/Application Support/rulings")
    assert user_data_dir({**home, "LOCALAPPDATA": "C:/Users/j/AppData/Local"}, "win32") == Path(
        "C:/Users/j/AppData/Local/rulings"
    )
