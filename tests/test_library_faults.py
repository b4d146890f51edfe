"""The library is a transaction: `rulings add` and `rulings build` killed at each step, run
concurrently, or failing on a full disk, leave the library and the KB in service byte for byte
as before (or, after a retry, equal to a clean build). Every run is the real CLI in a subprocess;
``RULINGS_FAULT=<step>`` makes it SIGKILL itself at that step (kb.files.fault)."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from helpers import FIXTURES, SEEDS
from kb import files
from rulings.manifest import load_manifest

UPDATE = FIXTURES / "library" / "stccg" / "current-rulings-update-2000-12-18.txt"
ADD = ["--kind", "current-rulings-update", "--date", "2000-12-18"]
TABLE = (
    b'\n[[document]]\nid = "stccg-new-update"\nfile = "stccg/new-update.txt"\ngame = "stccg"\n'
    b'kind = "current-rulings-update"\ntitle = "new-update"\nversion = "2000-12-18"\ndate = "2000-12-18"\n'
)


HOLDER = """import fcntl, os, sys
path = f"{sys.argv[1]}/.20000101T000000000001.{os.getpid()}.tmp"
os.mkdir(path)
fcntl.flock(os.open(path, os.O_RDONLY), fcntl.LOCK_EX)
print(path, flush=True)
sys.stdin.read()
"""
"""A live build's stand-in: makes a staging directory named with its pid and holds its lock until stdin closes."""


def rulings(*args: str | Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``rulings`` command line in a new process."""
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_FAULT"}
    if fault:
        env["RULINGS_FAULT"] = fault
    command = [sys.executable, "-m", "web.cli", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)


def start(*args: str | Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "web.cli", *map(str, args)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones too) with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def in_service(kb: Path) -> tuple[str, dict[str, bytes]]:
    """The build ``current`` points to, and its files byte for byte."""
    target = os.readlink(kb / "current")
    return target, tree(kb / target)


def contents(kb: Path) -> dict[str, object]:
    """What the KB in service holds, comparable across builds: every file byte for byte, except
    the Whoosh indexes (whose segment names are random), compared by their stored documents, and
    what a build saves for the next one (pickles, compared through the builds they make), and the
    list of what it wrote (``checksums.json``, which names the segments)."""
    directory = (kb / "current").resolve()
    saved = ("index", "parsed/", "state.pickle", "checksums.json")
    answer: dict[str, object] = {k: v for k, v in tree(directory).items() if not k.startswith(saved)}
    for name in ("index", "index-current"):
        with whoosh_index.open_dir(str(directory / name)).searcher() as searcher:
            answer[name] = sorted(repr(sorted(fields.items())) for fields in searcher.all_stored_fields())
    return answer


def leftovers(library: Path, kb: Path) -> list[str]:
    hidden = [p for p in [*library.rglob(".*"), *kb.glob(".*"), *(kb / "builds").glob(".*")]]
    return sorted(str(p) for p in hidden)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(SEEDS, tmp_path / "library")
    shutil.copy(UPDATE, tmp_path / "new-update.txt")
    return tmp_path / "library"


@pytest.fixture
def kb(library: Path) -> Path:
    kb = library.parent / "kb"
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    return kb


def clean_build(library: Path) -> dict[str, object]:
    """What a full build of ``library`` as it is now holds."""
    reference = library.parent / "reference-kb"
    shutil.rmtree(reference, ignore_errors=True)
    assert rulings("build", "--library", library, "--kb", reference).returncode == 0
    return contents(reference)


ADD_STEPS = ["copy", "after-copy", "manifest", "after-manifest", "mid-build", "before-switch", "after-switch"]


@pytest.mark.parametrize("step", ADD_STEPS)
def test_add_killed_at_each_step(library: Path, kb: Path, step: str) -> None:
    new = library.parent / "new-update.txt"
    before, served = tree(library), in_service(kb)
    killed = rulings("add", new, *ADD, "--library", library, "--kb", kb, fault=step)
    assert killed.returncode == -signal.SIGKILL
    manifest = (library / "library.toml").read_bytes()
    registered = ADD_STEPS.index(step) >= ADD_STEPS.index("after-manifest")
    assert manifest == before["library.toml"] + (TABLE if registered else b"")
    copied = library / "stccg" / "new-update.txt"
    assert copied.read_bytes() == new.read_bytes() if step != "copy" else not copied.exists()
    assert {k: v for k, v in tree(library).items() if not k.startswith((".", "stccg/."))} == before | (
        {} if step == "copy" else {"stccg/new-update.txt": new.read_bytes()}
    ) | {"library.toml": manifest}
    if step == "after-switch":
        assert contents(kb) == clean_build(library)
    else:
        assert in_service(kb) == served
    check = rulings("build", "--check", "--library", library, "--kb", kb)
    if registered and step != "after-switch":
        changed = f"{library / 'library.toml'} changed since the knowledge base in service was built"
        assert (check.returncode, check.stderr) == (1, f"rulings: {changed}; run 'rulings build'\n")
        retry = rulings("build", "--library", library, "--kb", kb)
        assert retry.stderr == f"rulings: note: {changed}; rebuilding\n"
    elif not registered:
        assert check.returncode == 0
        retry = rulings("add", new, *ADD, "--library", library, "--kb", kb)
        assert (retry.returncode, retry.stderr) == (0, "")
    assert rulings("build", "--check", "--library", library, "--kb", kb).returncode == 0
    assert tree(library) == before | {"stccg/new-update.txt": new.read_bytes(), "library.toml": manifest + (
        b"" if registered else TABLE)}  # fmt: skip
    assert contents(kb) == clean_build(library)
    assert leftovers(library, kb) == []


def test_the_next_add_says_the_library_was_ahead_and_rebuilds_it(library: Path, kb: Path) -> None:
    new = library.parent / "new-update.txt"
    assert rulings("add", new, *ADD, "--library", library, "--kb", kb, fault="after-manifest").returncode == -9
    other = library.parent / "other.txt"  # another text: a copy of the first is refused (test_editing_mistakes)
    other.write_bytes(UPDATE.read_bytes().replace(b"Bred tribble cards stay", b"Bred tribble cards remain"))
    added = rulings("add", other, *ADD, "--library", library, "--kb", kb)
    changed = f"{library / 'library.toml'} changed since the knowledge base in service was built"
    assert (added.returncode, added.stderr) == (0, f"rulings: warning: {changed} (an interrupted add?); this add "
                                                   "rebuilds it\n")  # fmt: skip
    assert contents(kb) == clean_build(library)
    ids = [d.id for d in load_manifest(library)]
    assert ids[-2:] == ["stccg-new-update", "stccg-other"]
    check = rulings("build", "--check", "--library", SEEDS, "--kb", kb)
    elsewhere = f"the knowledge base in service was not built from {SEEDS} but from {library.resolve()}"
    assert (check.returncode, check.stderr) == (1, f"rulings: {elsewhere}; run 'rulings build'\n")


@pytest.mark.parametrize("step", ["mid-build", "before-switch", "after-switch"])
def test_build_killed_at_each_step(library: Path, kb: Path, step: str) -> None:
    before, served = tree(library), in_service(kb)
    assert rulings("build", "--library", library, "--kb", kb, fault=step).returncode == -signal.SIGKILL
    assert tree(library) == before
    if step == "after-switch":
        assert in_service(kb) != served and contents(kb) == clean_build(library)
    else:
        assert in_service(kb) == served
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    assert contents(kb) == clean_build(library)
    assert leftovers(library, kb) == []
    assert len(list((kb / "builds").iterdir())) == (2 if step == "mid-build" else 3)


def test_leftovers_of_dead_builds_are_removed_and_live_ones_kept(library: Path, kb: Path) -> None:
    builds = kb / "builds"
    finished = subprocess.Popen(["true"])
    finished.wait()
    dead = builds / f".20000101T000000000000.{finished.pid}.tmp"
    (dead / "index").mkdir(parents=True)
    (dead / "kb.sqlite").write_bytes(b"half")
    link = kb / f".current.20000101T000000000000.{finished.pid}.tmp"
    link.symlink_to(Path("builds") / dead.name)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(builds)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        live = Path(holder.stdout.readline().strip())
        assert live.parent == builds
        assert rulings("build", "--library", library, "--kb", kb).returncode == 0
        assert not dead.exists() and not link.is_symlink()
        assert live.is_dir()
    finally:
        assert holder.stdin is not None
        holder.communicate()
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    assert not live.exists()


def test_concurrent_builds_wait_for_each_other(library: Path, kb: Path) -> None:
    runs = [start("build", "--library", library, "--kb", kb) for _ in range(3)]
    outcomes = [(run.communicate(timeout=300)[1], run.returncode) for run in runs]
    waiting = f"rulings: waiting for another build or add on {library.resolve()} (up to 600 s)\n"
    assert [status for _, status in outcomes] == [0, 0, 0]
    assert all(err in ("", waiting) for err, _ in outcomes), outcomes
    assert contents(kb) == clean_build(library)
    assert leftovers(library, kb) == []
    assert len(list((kb / "builds").iterdir())) == 3


def test_a_second_command_is_refused_with_one_line_after_its_wait(library: Path, kb: Path) -> None:
    served = in_service(kb)
    with files.hold(kb.resolve(), 0, "test"):
        refused = rulings("build", "--library", library, "--kb", kb, "--wait", "0")
        added = rulings("add", library.parent / "new-update.txt", *ADD, "--library", library, "--kb", kb,
                        "--wait", "0.2")  # fmt: skip
    busy = f"another build or add on {kb.resolve()} is still running after"
    assert (refused.returncode, refused.stderr) == (1, f"rulings: error: {busy} 0 s; try again when it ends\n")
    assert (added.returncode, added.stderr) == (1, f"rulings: waiting for another build or add on {kb.resolve()} "
                                                   "(up to 0.2 s)\nrulings: error: another build or add on "
                                                   f"{kb.resolve()} is still running after 0.2 s; try again when "
                                                   "it ends\n")  # fmt: skip
    assert in_service(kb) == served
    assert not (library / "stccg" / "new-update.txt").exists()


def test_concurrent_adds_all_land(library: Path, kb: Path) -> None:
    before = (library / "library.toml").read_bytes()
    names = ["newA", "newB", "newC"]
    texts = {name: UPDATE.read_bytes().replace(b"cards stay", f"cards ({name}) stay".encode()) for name in names}
    for name in names:  # three texts: copies of one are refused (test_editing_mistakes)
        (library.parent / f"{name}.txt").write_bytes(texts[name])
    runs = [start("add", library.parent / f"{name}.txt", *ADD, "--library", library, "--kb", kb) for name in names]
    assert [(run.communicate(timeout=300), run.returncode)[1] for run in runs] == [0, 0, 0]
    manifest = (library / "library.toml").read_bytes()
    tables = {name: TABLE.replace(b"stccg-new-update", f"stccg-{name.lower()}".encode()) for name in names}
    tables = {name: table.replace(b"new-update", name.encode()) for name, table in tables.items()}
    assert manifest in {before + b"".join(order) for order in itertools.permutations(tables.values())}
    assert [(library / "stccg" / f"{name}.txt").read_bytes() for name in names] == list(texts.values())
    db = sqlite3.connect((kb / "current").resolve() / "kb.sqlite")
    ids = {row[0] for row in db.execute("SELECT id FROM documents")}
    db.close()
    assert {"stccg-newa", "stccg-newb", "stccg-newc"} <= ids
    assert contents(kb) == clean_build(library)


def test_game_outside_the_library_is_refused_before_anything_is_made(library: Path, kb: Path) -> None:
    before = sorted(library.parent.parent.rglob("*"))
    result = rulings("add", library.parent / "new-update.txt", *ADD, "--game", "../../outside-x",
                     "--library", library, "--kb", kb)  # fmt: skip
    assert (result.returncode, result.stderr) == (
        1, "rulings: error: --game '../../outside-x': must be lower-case letters, digits and '-'\n")  # fmt: skip
    assert sorted(library.parent.parent.rglob("*")) == before


def test_a_title_with_an_emoji_is_added_and_read_back(library: Path, kb: Path) -> None:
    title = 'Rulings \U0001f600 "quoted" \\ tab\there'
    result = rulings("add", library.parent / "new-update.txt", *ADD, "--title", title, "--library", library,
                     "--kb", kb)  # fmt: skip
    assert (result.returncode, result.stderr) == (0, "")
    assert load_manifest(library)[-1].title == title
    db = sqlite3.connect((kb / "current").resolve() / "kb.sqlite")
    assert db.execute("SELECT title FROM documents WHERE id = 'stccg-new-update'").fetchone() == (title,)
    db.close()


def test_a_full_disk_during_the_copy_leaves_nothing_and_a_retry_works(library: Path, kb: Path) -> None:
    before, served = tree(library), in_service(kb)
    new = library.parent / "new-update.txt"
    failed = rulings("add", new, *ADD, "--library", library, "--kb", kb, fault="copy:enospc")
    assert (failed.returncode, failed.stderr) == (
        1, f"rulings: error: {library / 'stccg/new-update.txt'}: cannot write: No space left on device\n")  # fmt: skip
    assert tree(library) == before and in_service(kb) == served
    assert rulings("add", new, *ADD, "--library", library, "--kb", kb).returncode == 0
    assert tree(library) == before | {
        "stccg/new-update.txt": new.read_bytes(),
        "library.toml": before["library.toml"] + TABLE,
    }
    assert contents(kb) == clean_build(library)


@pytest.mark.parametrize("step", ["copy", "after-copy", "manifest", "after-manifest", "mid-build", "before-switch"])
def test_a_failed_add_puts_the_library_back_byte_for_byte(library: Path, kb: Path, step: str) -> None:
    before, served, builds = tree(library), in_service(kb), sorted((kb / "builds").iterdir())
    new = library.parent / "new-update.txt"
    failed = rulings("add", new, *ADD, "--game", "new-game", "--library", library, "--kb", kb, fault=f"{step}:enospc")
    assert failed.returncode == 1
    assert failed.stderr.startswith("rulings: error: ") and failed.stderr.endswith("No space left on device\n")
    assert failed.stderr.count("\n") == 1
    assert tree(library) == before and not (library / "new-game").exists()
    assert in_service(kb) == served and sorted((kb / "builds").iterdir()) == builds


def dead_pid() -> int:
    """The pid of a process that has ended."""
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def test_a_listed_document_named_like_a_temporary_is_never_removed(library: Path) -> None:
    pid = dead_pid()
    notes = library / "stccg" / f".notes.{pid}.tmp"
    seed = (library / "stccg" / "current-rulings-update-2000-11-27.txt").read_bytes()
    assert seed.count(b"\n11/27/00\n") == 1
    notes.write_bytes(seed.replace(b"\n11/27/00\n", b"\n11/28/00\n"))  # dated as listed; a copy is refused
    table = (f'\n[[document]]\nid = "stccg-notes"\nfile = "stccg/{notes.name}"\ngame = "stccg"\n'
             'kind = "current-rulings-update"\ntitle = "notes"\nversion = "2000-11-28"\n'
             'date = "2000-11-28"\n')  # fmt: skip
    with (library / "library.toml").open("a") as manifest:
        manifest.write(table)
    kb = library.parent / "kb"
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    killed = library / "stccg" / ".rulings-staging" / f"new-update.txt.{pid}.tmp"  # what a killed add of this pid left
    killed.parent.mkdir()
    killed.write_bytes(b"half a copy")
    added = rulings("add", library.parent / "new-update.txt", *ADD, "--library", library, "--kb", kb)
    assert (added.returncode, added.stderr) == (0, "")
    assert notes.read_bytes() == seed.replace(b"\n11/27/00\n", b"\n11/28/00\n")
    assert not killed.parent.exists()  # the leftover and its staging folder are gone
    rebuilt = rulings("build", "--library", library, "--kb", kb)
    assert (rebuilt.returncode, rebuilt.stderr) == (0, "")
    assert leftovers(library, kb) == [str(notes)]


@pytest.mark.parametrize("command", ["add", "build"])
def test_a_full_disk_after_the_switch_leaves_the_library_and_the_kb_in_service_agreeing(
    library: Path, kb: Path, command: str
) -> None:
    before = tree(library)
    new = library.parent / "new-update.txt"
    args = ["add", new, *ADD] if command == "add" else ["build"]
    done = rulings(*args, "--library", library, "--kb", kb, fault="after-switch:enospc")
    unsettled = f"{kb / 'current'}: the new build is in service, but what follows the switch failed"
    assert (done.returncode, done.stderr) == (0, f"rulings: warning: {unsettled}: No space left on device\n")
    added = {"stccg/new-update.txt": new.read_bytes(), "library.toml": before["library.toml"] + TABLE}
    assert tree(library) == (before | added if command == "add" else before)
    check = rulings("build", "--check", "--library", library, "--kb", kb)
    assert (check.returncode, check.stderr) == (0, "")
    assert contents(kb) == clean_build(library)
    assert leftovers(library, kb) == []


def stopped(step: str, *args: str | Path) -> subprocess.Popen[str]:
    """The real ``rulings`` command line, stopped (SIGSTOP) at the fault point ``step``: the test acts, then
    continues it (SIGCONT)."""
    env = {**os.environ, "RULINGS_FAULT": f"{step}:stop"}
    command = [sys.executable, "-m", "web.cli", *map(str, args)]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    _, status = os.waitpid(run.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status)
    return run


def by_hand(library: Path) -> bytes:
    """A document put in the library by an editor, and the [[document]] table the editor appends for it."""
    (library / "stccg" / "by-hand.txt").write_bytes(UPDATE.read_bytes().replace(b"cards stay", b"cards remain"))
    return TABLE.replace(b"stccg-new-update", b"stccg-by-hand").replace(b"new-update", b"by-hand")


def test_an_add_interrupted_after_a_hand_edit_leaves_the_edit(library: Path, kb: Path) -> None:
    new, manifest = library.parent / "new-update.txt", library / "library.toml"
    before, served, hand = manifest.read_bytes(), in_service(kb), by_hand(library)
    run = stopped("mid-build", "add", new, *ADD, "--library", library, "--kb", kb)
    with manifest.open("ab") as editor:
        editor.write(hand)
    run.send_signal(signal.SIGINT)
    run.send_signal(signal.SIGCONT)
    _, err = run.communicate(timeout=300)
    copy = library / "stccg" / "new-update.txt"
    assert (run.returncode, err) == (130, f"rulings: interrupted; {manifest} was edited while this add ran: left as "
                                          f"edited, with this add's [[document]] table for {copy}; 'rulings build' "
                                          "puts the library in service (or delete that table and file)\n")  # fmt: skip
    assert manifest.read_bytes() == before + TABLE + hand
    assert copy.read_bytes() == new.read_bytes() and in_service(kb) == served
    assert rulings("build", "--library", library, "--kb", kb).returncode == 0
    assert [d.id for d in load_manifest(library)][-2:] == ["stccg-new-update", "stccg-by-hand"]


def test_an_add_refuses_to_write_over_a_hand_edit(library: Path, kb: Path) -> None:
    new, manifest = library.parent / "new-update.txt", library / "library.toml"
    before, served, hand = manifest.read_bytes(), in_service(kb), by_hand(library)
    run = stopped("after-copy", "add", new, *ADD, "--library", library, "--kb", kb)
    with manifest.open("ab") as editor:
        editor.write(hand)
    run.send_signal(signal.SIGCONT)
    _, err = run.communicate(timeout=300)
    assert (run.returncode, err) == (1, f"rulings: error: new-update.txt not added: {manifest} was edited while "
                                        "this add ran, and is left as edited; run the add again\n")  # fmt: skip
    assert manifest.read_bytes() == before + hand
    assert not (library / "stccg" / "new-update.txt").exists() and in_service(kb) == served


def test_the_same_add_retried_after_a_kill_finishes_it(library: Path, kb: Path) -> None:
    new = library.parent / "new-update.txt"
    before = (library / "library.toml").read_bytes()
    assert rulings("add", new, *ADD, "--library", library, "--kb", kb, fault="mid-build").returncode == -9
    changed = f"{library / 'library.toml'} changed since the knowledge base in service was built"
    renamed = library.parent / "renamed.txt"  # the same text under another name: a copy, and the way out said
    renamed.write_bytes(new.read_bytes())
    copy = rulings("add", renamed, *ADD, "--library", library, "--kb", kb)
    assert (copy.returncode, copy.stderr) == (1, (
        f"rulings: error: {renamed}: refused: its text is the text of document 'stccg-new-update' "
        "(stccg/new-update.txt), already in the library; an update added twice would be applied twice; and "
        f"{changed}: 'rulings build' brings it up to date\n"))  # fmt: skip
    retry = rulings("add", new, *ADD, "--library", library, "--kb", kb)
    finishes = "an interrupted add of new-update.txt left it there; this add finishes it"
    assert (retry.returncode, retry.stderr) == (0, f"rulings: note: {changed}: {finishes}\n")
    assert retry.stdout.startswith("stccg-new-update: 11 entries")
    assert (library / "library.toml").read_bytes() == before + TABLE
    assert rulings("build", "--check", "--library", library, "--kb", kb).returncode == 0
    assert contents(kb) == clean_build(library)


@pytest.mark.parametrize("command", ["add", "build"])
def test_ctrl_c_after_the_switch_says_the_work_completed(library: Path, kb: Path, command: str) -> None:
    args = ["add", library.parent / "new-update.txt", *ADD] if command == "add" else ["build"]
    env = {**os.environ, "RULINGS_FAULT": "after-switch:sigint"}
    command_line = [sys.executable, "-m", "web.cli", *map(str, args), "--library", str(library), "--kb", str(kb)]
    done = subprocess.run(command_line, capture_output=True, text=True, env=env, timeout=300, check=False,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    serving = (kb / "current").resolve()
    said = {
        "add": "interrupted after the add completed: stccg-new-update is in the library and in the knowledge base "
        "in service",
        "build": f"interrupted after the new build was put in service ({serving})",
    }[command]
    assert (done.returncode, done.stderr) == (130, f"rulings: {said}\n")
    assert rulings("build", "--check", "--library", library, "--kb", kb).returncode == 0
    assert contents(kb) == clean_build(library)


def test_a_copy_refused_closes_its_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy onto a file that exists is refused (FileExistsError) and leaves nothing behind; its
    temporary file's descriptor is closed exactly once. Closed a second time, the number could
    by then be another thread's file: a test server's socket was once found closed under it (EBADF)."""
    source, target = tmp_path / "source.txt", tmp_path / "target.txt"
    source.write_bytes(b"new text\n")
    target.write_bytes(b"kept text\n")
    closed: list[int] = []
    close = os.close

    def counted(fd: int) -> None:
        closed.append(fd)
        close(fd)

    monkeypatch.setattr(os, "close", counted)
    with pytest.raises(FileExistsError):
        files.copy_atomic(source, target)
    monkeypatch.undo()
    assert target.read_bytes() == b"kept text\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source.txt", "target.txt"]  # no staging left
    assert closed and len(closed) == len(set(closed)), closed  # each descriptor once (the temporary's, the directory's)
