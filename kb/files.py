"""Small file-system helpers for writing a library and a knowledge base safely.

- `hold`: an exclusive ``flock`` on a directory, waited for up to a bound, so that one
  ``build`` or ``add`` at a time changes a library or a knowledge base.
- `write_atomic` and `copy_atomic`: every write goes to a temporary file in this program's own
  staging folder beside the target (``<directory>/.rulings-staging/<name>.<pid>.tmp``, `STAGING`),
  is fsynced, then renamed over the target, and the directory is fsynced: a reader or a crash
  sees the old bytes or the new, never a mix. The staging folder is removed once empty.
- `remove_stale_temporaries`: what killed writers left in those staging folders (and only there),
  when the writer is gone; a file a library lists is never taken for one.
- `owner_gone`: whether the process that made a ``….<pid>.tmp`` leftover is gone (its pid
  is not alive and nobody holds a lock on it), so a later command may remove it.
- `naming`: an error of a write that names no file (a full disk) made to name the one written.
- `fault`: the fault-injection hook the tests use: ``RULINGS_FAULT=<step>`` makes the process
  kill itself (SIGKILL) at that named step; ``RULINGS_FAULT=<step>:enospc`` raises
  ``OSError(ENOSPC)`` there instead, as a full disk would.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from kb.errors import Busy as Busy

STAGING = ".rulings-staging"
"""The folder, in a directory this program writes files into, of its temporary files."""
CHUNK = 1 << 20
"""Bytes copied per write by `copy_atomic`."""
_PID = re.compile(r"\.(\d+)\.tmp$")


def fault(step: str) -> None:
    """The fault-injection point ``step``: die (``step``), fail with a full disk (``step:enospc``),
    be interrupted (``step:sigint``) or stop until continued (``step:stop``, SIGSTOP: a test then acts
    while the command is half-way) here when ``RULINGS_FAULT`` names it."""
    wanted = os.environ.get("RULINGS_FAULT")
    if wanted == step:
        os.kill(os.getpid(), signal.SIGKILL)
    if wanted == f"{step}:enospc":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if wanted == f"{step}:sigint":  # Ctrl-C, as the terminal sends it
        os.kill(os.getpid(), signal.SIGINT)
    if wanted == f"{step}:stop":
        os.kill(os.getpid(), signal.SIGSTOP)


@contextlib.contextmanager
def naming(path: Path) -> Iterator[None]:
    """Name ``path`` in an `OSError` raised in the block without a file name (a full disk's
    ENOSPC from a write names none), so the one error line says where the write failed."""
    try:
        yield
    except OSError as err:
        if err.filename is not None or err.errno is None:
            raise
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err


def fsync_directory(directory: Path) -> None:
    """Make the entries of ``directory`` (renames, new files) durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temporary_for(path: Path) -> Path:
    """The temporary file this process writes before renaming it to ``path``: in the staging
    folder of ``path``'s directory (on the same file system, so the rename is atomic)."""
    return path.parent / STAGING / f"{path.name}.{os.getpid()}.tmp"


def remove_stale_temporaries(directories: Iterable[Path], kept: Iterable[Path] = ()) -> list[Path]:
    """Remove the temporaries (``<name>.<pid>.tmp``) that writers now gone left in the staging
    folder of each of ``directories``, never one of ``kept`` (the files a library lists, in
    case one was put there), and the staging folder when that empties it."""
    keep = {p.resolve() for p in kept}
    removed = []
    for directory in directories:
        staging = directory / STAGING
        if staging.is_symlink() or not staging.is_dir():
            continue
        for path in sorted(staging.iterdir()):
            if _PID.search(path.name) and path.is_file() and path.resolve() not in keep and owner_gone(path):
                path.unlink(missing_ok=True)
                removed.append(path)
        with contextlib.suppress(OSError):
            staging.rmdir()  # only when empty
    return removed


@contextlib.contextmanager
def _temporary(path: Path, mode: int, replace: bool) -> Iterator[int]:
    """A new temporary file in the staging folder beside ``path``, to write through the yielded descriptor; on
    success it is fsynced and moved to ``path`` (``replace``: over it; else only if ``path``
    does not exist), the directory fsynced; on any failure it is removed."""
    temporary = temporary_for(path)
    for attempt in range(3):  # another writer may remove the empty staging folder in between
        temporary.parent.mkdir(exist_ok=True)
        temporary.unlink(missing_ok=True)  # ours, left by an earlier failure of this very pid
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            break
        except FileNotFoundError:
            if attempt == 2:
                raise
        except BaseException:
            _tidy(temporary.parent)
            raise
    closed = False
    try:
        with naming(path):
            yield fd
        os.fsync(fd)
        closed = True  # before the call: a close that fails has freed the number all the same
        os.close(fd)
        if replace:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)  # fails with FileExistsError rather than overwrite
            temporary.unlink()
        fsync_directory(path.parent)
    except BaseException:
        if not closed:  # never twice: by then the number may be another thread's file (a server's socket)
            with contextlib.suppress(OSError):
                os.close(fd)
        temporary.unlink(missing_ok=True)
        raise
    finally:
        _tidy(temporary.parent)


def _tidy(staging: Path) -> None:
    """Remove the staging folder if nothing else is in it."""
    with contextlib.suppress(OSError):
        staging.rmdir()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_atomic(path: Path, data: bytes, step: str = "") -> None:
    """Replace ``path`` with ``data`` in one rename (keeping its permission bits if it exists)."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    with _temporary(path, mode, replace=True) as fd:
        os.fchmod(fd, mode)
        _write_all(fd, data)
        if step:
            fault(step)


def copy_atomic(source: Path, target: Path, step: str = "") -> None:
    """Copy ``source`` to ``target``, which must not exist; on any failure nothing is left behind.

    ``step`` names the fault point checked after the first chunk is written."""
    with _temporary(target, 0o644, replace=False) as fd, source.open("rb") as reader:
        first = True
        while chunk := reader.read(CHUNK):
            _write_all(fd, chunk)
            if first and step:
                fault(step)
            first = False


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextlib.contextmanager
def hold(
    directory: Path, wait: float, what: str, notify: Callable[[str], None] | None = None, poll: float = 0.1
) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` for the ``with`` block.

    If another process holds it, call ``notify`` once with a "waiting" line and retry for up
    to ``wait`` seconds, then raise `Busy`. The lock is released when the block ends or the
    process dies, so a killed command never leaves a stale lock."""
    wait = max(0.0, wait)
    fd = os.open(directory, os.O_RDONLY)
    try:
        if not _try_lock(fd):
            if notify and wait > 0:
                notify(f"waiting for another {what} (up to {wait:g} s)")
            deadline = time.monotonic() + wait
            while not _try_lock(fd):
                if time.monotonic() >= deadline:
                    raise Busy(f"another {what} is still running after {wait:g} s; try again when it ends")
                time.sleep(poll)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def claim(directory: Path) -> Iterator[None]:
    """Hold a lock on ``directory`` (a staging or new build directory) while we own it."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_gone(path: Path) -> bool:
    """Whether whoever made ``path`` is gone: the pid in its name (``….<pid>.tmp``, if any) is not
    alive and no process holds a lock on it."""
    match = _PID.search(path.name)
    if match and int(match.group(1)) != os.getpid() and pid_alive(int(match.group(1))):
        return False
    if path.is_symlink() or not path.is_dir():
        return True
    return unlocked(path)


def unlocked(directory: Path) -> bool:
    """Whether no process holds a lock on ``directory``."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return False
    try:
        return _try_lock(fd)
    finally:
        os.close(fd)
