"""Work done aside: in a forked child process, on a second core, while this process goes on.

A build writes the history index this way while it writes the store, the in-force index and
the vocabulary itself (`kb.index.writer.indexes_written`). The child shares the build's data as it
was at the fork (nothing is copied to it), writes only its own files, reports back through a
pipe, and dies with its parent. Its error is raised in the parent as if the work had been done there (an error that
cannot travel is named in a `BuildError`), and a child that dies says so in a `BuildError`:
either way the build fails before anything is published.

A process forks only when no other thread runs in it (a fork copies the other threads'
locks, not the threads) and it may use two cores; otherwise the work is done in turn, first.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import random
import signal
import threading
import traceback
from collections.abc import Callable, Iterator

from kb.errors import BuildError


def may_fork() -> bool:
    """Whether work may be forked aside: a fork is possible, safe (one thread) and worth it (two cores)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return hasattr(os, "fork") and cores >= 2 and threading.active_count() == 1


@contextlib.contextmanager
def aside(work: Callable[[], None], name: str) -> Iterator[int | None]:
    """Run ``work`` in a forked child while the block runs (the block gets the child's pid, or
    None when `may_fork` says no and ``work`` was done first, here). Leaving the block waits for
    the child and raises its error; an error of the block kills the child first. ``name`` says
    what the work makes, for the error of a child that died."""
    if not may_fork():
        work()
        yield None
        return
    reading, writing = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            _die_with(parent)
            os.close(reading)
            random.seed()  # names of temporary files unlike the parent's
            work()
            status = 0
        except BaseException as err:
            err.add_note(f"(in process {os.getpid()}, writing {name}:)\n{traceback.format_exc()}")
            _send(writing, err)
        finally:
            os._exit(status)
    os.close(writing)
    try:
        yield pid
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        _collect(pid, reading)
        raise
    payload, status = _collect(pid, reading)
    if status == 0:
        return
    if payload:
        try:
            error = pickle.loads(payload)
        except Exception:
            error = None
        if isinstance(error, BaseException):
            raise error
    cause = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
    raise BuildError(f"{name} was not written: its process {pid} failed ({cause})")


def _die_with(parent: int) -> None:
    """Have this child killed when its ``parent`` dies (on Linux), so that a build killed midway
    leaves no writer behind (nor its lock on the staging directory)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # died before the request
        os._exit(1)


def _send(fd: int, error: BaseException) -> None:
    """Write ``error`` (or, if it cannot be pickled, a `BuildError` naming it) to the pipe ``fd``."""
    try:
        payload = pickle.dumps(error)
    except Exception:
        payload = pickle.dumps(BuildError(f"{type(error).__name__}: {error}"))
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view) :]


def _collect(pid: int, fd: int) -> tuple[bytes, int]:
    """What the child ``pid`` sent on the pipe ``fd`` (read to its end), and its exit code
    (negative: the signal that killed it)."""
    chunks = []
    with open(fd, "rb", closefd=True) as pipe:
        while chunk := pipe.read(1 << 16):
            chunks.append(chunk)
    _, waited = os.waitpid(pid, 0)
    return b"".join(chunks), os.waitstatus_to_exitcode(waited)
