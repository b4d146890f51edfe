"""A reading command asks a ``rulings serve`` running on its knowledge base (`web.cli.resident`,
`web.cli.answering`): the real server in a subprocess on a loopback port, the real command line
in others. It prints what it would print answering itself, loading neither numpy, Whoosh nor
Flask; any doubt about the server and it answers itself."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
import servers
from servers import free_port

from helpers import ROOT
from web.cli.main import INTERRUPTED
from web.cli.resident import ANSWER, FILE, PATH

HEAVY = ("numpy", "whoosh", "flask", "web.cli.main", "kb.query")
"""What a command asking a server never loads."""


def serving(kb: Path, log: Path, *options: str) -> AbstractContextManager[subprocess.Popen[bytes]]:
    """``rulings serve --kb kb`` (`servers.serving`) once it has written its file (up to 60 s)."""
    return servers.serving(kb, log, *options, ready=lambda port: (kb / FILE).exists(), seconds=60)


def run(*argv: str, cwd: Path = ROOT, kb: Path | None = None) -> tuple[int, str, str, set[str]]:
    """The command line ``rulings ARGV`` (as installed: `web.cli.program`) in a fresh process
    (``RULINGS_KB`` set to ``kb``, if given): its exit status, standard output and error, and the
    modules it imported."""
    code = "import sys; sys.argv[0] = 'rulings'; from web.cli.program import program; program()"
    env = {**os.environ, "PYTHONPATH": str(ROOT), **({"RULINGS_KB": str(kb)} if kb else {})}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *argv], cwd=cwd, capture_output=True, text=True, env=env
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    errors = "".join(line + "\n" for line in done.stderr.splitlines() if not line.startswith("import time:"))
    return done.returncode, done.stdout, errors, imported


def heavy(imported: set[str]) -> set[str]:
    return {m for m in imported if m.split(".")[0] in HEAVY or m in HEAVY}


@pytest.fixture(scope="module")
def served(history_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of the history knowledge base, a server running on it."""
    work = tmp_path_factory.mktemp("resident")
    kb = work / "kb"
    shutil.copytree(history_root, kb, symlinks=True)
    with serving(kb, work / "serve.log", "--workers", "1"):
        yield kb


ASKED = [
    ("search", "conundrum"),
    ("search", "conundrum", "--json"),
    ("search", "battle", "--all", "--limit", "3", "--page", "2"),
    ("search", "dilemma", "--as-of", "1999-01-01", "--json"),
    ("search", "kind:glossary", "--kind", "nonsense"),  # an unknown kind: exit 2
    ("search", "conundrum", "--limit", "0", "--json"),  # a bad limit, as JSON
    ("search", "zzyzx"),
    ("show", "Conundrum"),
    ("history", "Conundrum", "--json"),
    ("card", "No Such Card"),  # an unknown name: exit 1, suggestions
    ("diff", "1999-01-01", "2001-01-01"),
    ("docs",),
    ("show", "Conundrum", "--as-of", "not a date"),
]


@pytest.mark.parametrize("argv", ASKED, ids=" ".join)
def test_a_command_asked_of_the_server_prints_what_it_would_print(served: Path, argv: tuple[str, ...]) -> None:
    status, out, err, imported = run(*argv, "--kb", str(served))
    assert heavy(imported) == set()  # answered by the server
    local = run(*argv, "--kb", str(served), "--local")
    assert heavy(local[3]) >= {"web.cli.main", "kb.query"}  # answered here
    assert (status, out, err) == local[:3]
    assert out or err


def test_the_server_answers_a_search_as_the_command_line_does(served: Path) -> None:
    status, out, err, imported = run("search", "conundrum target", "--kb", str(served))
    assert (status, err) == (0, "")
    assert out.split("\n")[1] == "1. Conundrum  [Glossary] active"
    assert {"numpy", "whoosh", "flask"} & {m.split(".")[0] for m in imported} == set()


def test_a_relative_kb_and_the_default_one_are_asked_too(served: Path) -> None:
    status, out, _, imported = run("search", "conundrum", "--kb", "kb", cwd=served.parent)
    assert status == 0 and heavy(imported) == set()
    for asked in [run("search", "conundrum", kb=served), run("search", "conundrum", f"--kb={served}")]:
        assert (asked[0], asked[1], heavy(asked[3])) == (0, out, set())
    assert run("search", "conundrum", "--kb", "kb", cwd=served.parent, kb=served)[1] == out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_server_file_names_it_and_is_removed_when_it_stops(
    history_root: Path, tmp_path: Path, workers: str
) -> None:
    """waitress alone, or gunicorn's processes (the file names gunicorn's own)."""
    kb = tmp_path / "kb"
    shutil.copytree(history_root, kb, symlinks=True)
    with serving(kb, tmp_path / "serve.log", "--workers", workers) as process:
        named = json.loads((kb / FILE).read_text())
        assert sorted(named) == ["host", "kb", "pid", "port", "token"]
        assert (named["host"], named["pid"], named["kb"]) == ("127.0.0.1", process.pid, str(kb.resolve()))
        assert named["port"] == int(process.args[process.args.index("--port") + 1])  # type: ignore[index, union-attr, arg-type]
        status, out, _, imported = run("search", "conundrum target", "--kb", str(kb))
        assert (status, out.split("\n")[1], heavy(imported)) == (0, "1. Conundrum  [Glossary] active", set())
        if workers == "2":  # a worker ending (gunicorn starts another) leaves the file
            children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
            os.kill(int(children[0]), signal.SIGTERM)
            for _ in range(100):
                again = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
                if len(again) == 2 and children[0] not in again:
                    break
                time.sleep(0.1)
            assert json.loads((kb / FILE).read_text()) == named
    assert not (kb / FILE).exists()
    assert sorted(p.name for p in kb.iterdir()) == ["builds", "current"]


@contextmanager
def named(kb: Path, text: str | bytes) -> Iterator[None]:
    """``kb``'s server file holding ``text`` for the block; the real one put back after."""
    path = kb / FILE
    real = path.read_bytes()
    try:
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        yield
    finally:
        path.write_bytes(real)


def answered_here(kb: Path) -> None:
    """A search of ``kb`` answered by this command itself, as with ``--local``, and silently."""
    status, out, err, imported = run("search", "conundrum", "--kb", str(kb))
    assert "whoosh" in {m.split(".")[0] for m in imported}
    assert (status, out, err) == run("search", "conundrum", "--kb", str(kb), "--local")[:3]
    assert (status, err) == (0, "")


def stale(kb: Path, **changes: object) -> str:
    real = json.loads((kb / FILE).read_text())
    return json.dumps({**real, **changes})


def test_a_server_gone_or_another_is_not_asked(served: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with named(served, stale(served, pid=int(gone.stdout))):  # a process gone
        answered_here(served)
    with named(served, stale(served, port=free_port(), pid=os.getpid())):  # a port nobody listens on
        answered_here(served)
    with named(served, stale(served, token="0" * 32)):  # another server on that port
        answered_here(served)
    with named(served, stale(served, host="10.1.2.3")):  # not on 127.0.0.1
        answered_here(served)


@pytest.mark.parametrize(
    "text",
    [b"\xff\xfe not json", "[1, 2]", "{}", '{"host": "127.0.0.1", "port": "http", "pid": 1, "token": "x"}',
     '{"host": "127.0.0.1", "port": 5000, "pid": -4, "token": "x"}', "{" + " " * 5000 + "}", ""],
    ids=["bytes", "a list", "empty object", "a port not a number", "a bad pid", "too long", "empty"],
)  # fmt: skip
def test_a_server_file_that_reads_badly_is_ignored(served: Path, text: str | bytes) -> None:
    with named(served, text):
        answered_here(served)


def test_another_knowledge_base_naming_the_server_is_answered_here(served: Path, tmp_path: Path) -> None:
    """A copy of the knowledge base, its file copied with it: the server serves the original."""
    copy = tmp_path / "kb"
    shutil.copytree(served, copy, symlinks=True)
    answered_here(copy)


def answer(root: Path, **changes: object) -> tuple[int, bytes]:
    """The server's answer (status, body) to a request as a client sends it, with ``changes``."""
    server = json.loads((root / FILE).read_text())
    request = {"token": server["token"], "argv": ["search", "conundrum"], "kb": str(root), "cwd": "/",
               "build": str((root / "current").resolve()), "today": time.strftime("%Y-%m-%d"), **changes}  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=30)
    try:
        connection.request("POST", PATH, json.dumps(request), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def ask(root: Path, **changes: object) -> int:
    return answer(root, **changes)[0]


def test_commands_asked_at_once_each_print_their_own(served: Path) -> None:
    """Each run's output goes to its own request (the standard streams are routed per thread)."""
    commands = [["search", "conundrum"], ["history", "Conundrum"], ["show", "Nonsense Topic"],
                ["diff", "1999-01-01", "2001-01-01", "--json"], ["search", "battle", "--all"]]  # fmt: skip
    alone = [json.loads(answer(served, argv=argv)[1]) for argv in commands]
    assert [a["status"] for a in alone] == [0, 0, 1, 0, 0]
    assert alone[2]["stderr"].startswith("rulings: error: ") and alone[2]["stdout"] == ""
    together: list[tuple[int, dict[str, object]]] = []

    def asking(at: int) -> None:
        together.append((at, json.loads(answer(served, argv=commands[at])[1])))

    askers = [threading.Thread(target=asking, args=(at,)) for at in list(range(len(commands))) * 3]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert sorted(at for at, _ in together) == sorted(list(range(len(commands))) * 3)
    assert all(alone[at] == got for at, got in together)


def test_the_server_refuses_what_it_cannot_answer_as_the_client_would(served: Path) -> None:
    assert ask(served) == 200
    assert ask(served, token="0" * 32) == 404
    assert ask(served, token=None) == 404
    assert ask(served, build=str(served / "builds" / "another")) == 409
    assert ask(served, today="1999-01-01") == 409
    assert ask(served, kb=str(served.parent)) == 409
    assert ask(served, argv=["deck", "-"]) == 409
    assert ask(served, argv=["diff", "--deck", "deck.txt"]) == 409
    assert ask(served, argv=["build"]) == 409
    assert ask(served, argv=["search", "-h"]) == 409


def test_a_switched_build_is_asked_of_the_server_that_follows_it(served: Path, tmp_path: Path) -> None:
    """The server follows ``<kb>/current``; the command sends the build it would read."""
    builds = served / "builds"
    first = (served / "current").resolve()
    second = builds / (first.name + "b")
    shutil.copytree(first, second)
    link = served / "current.new"
    try:
        link.symlink_to(Path("builds") / second.name)
        link.replace(served / "current")
        status, out, _, imported = run("search", "conundrum", "--kb", str(served))
        assert status == 0 and heavy(imported) == set()
        assert out == run("search", "conundrum", "--kb", str(served), "--local")[1]
    finally:
        link = served / "current.new"
        link.symlink_to(Path("builds") / first.name)
        link.replace(served / "current")
        shutil.rmtree(second)


@contextmanager
def silent() -> Iterator[int]:
    """A port on 127.0.0.1 that takes connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield int(listener.getsockname()[1])


def test_a_server_that_does_not_answer_is_waited_for_ten_seconds_at_most(served: Path) -> None:
    with silent() as port, named(served, stale(served, port=port, pid=os.getpid())):
        began = time.monotonic()
        answered_here(served)
        assert time.monotonic() - began >= ANSWER


def test_ctrl_c_while_the_server_answers_is_said_in_one_line(served: Path) -> None:
    code = "import sys; sys.argv[0] = 'rulings'; from web.cli.program import program; program()"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for extra in [(), ("--json",)]:
        with silent() as port, named(served, stale(served, port=port, pid=os.getpid())):
            command = subprocess.Popen(
                [sys.executable, "-c", code, "search", "conundrum", "--kb", str(served), *extra],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even from a background job
            )  # fmt: skip
            time.sleep(3)  # it waits for the answer
            command.send_signal(signal.SIGINT)
            out, err = command.communicate(timeout=60)
        if extra:
            assert (command.returncode, json.loads(out), err) == (130, {"error": INTERRUPTED}, "")
        else:
            assert (command.returncode, out, err) == (130, "", f"rulings: {INTERRUPTED}\n")
