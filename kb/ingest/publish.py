"""How a build is put in service, atomically: staged into ``builds/.<stamp>.<pid>.tmp``
(locked while its maker lives), made durable, renamed, and ``current`` switched to it with one
atomic rename (`publish`); leftovers of killed builds removed, old builds pruned but never the
one in service; and the manifest (and the card files it names) each build was made from recorded
(`write_reports`), so `library_changed` can tell when the library moved on without a rebuild."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from kb import checksums, files
from kb.errors import BuildError
from kb.paths import BUILDS, BUILT_FROM, CURRENT, DEFAULT_GAME
from rulings.errors import ManifestError
from rulings.manifest import MANIFEST, load_card_files, load_default_game

KEEP_BUILDS = 3
"""Older builds beyond this many are removed after a successful switch."""


def write_reports(staging: Path, library: Path, manifest: bytes, lines: list[str], cards: list[Path]) -> None:
    """Write the build's report lines, what it was built from (`fingerprint`) and the library's default game."""
    (staging / "report.json").write_text(json.dumps(lines, indent=1))
    (staging / BUILT_FROM).write_text(json.dumps(fingerprint(library, manifest, cards), indent=1))
    (staging / DEFAULT_GAME).write_text(load_default_game(library) or "", encoding="utf-8")


def publish(kb: Path, write: Callable[[Path], None]) -> tuple[Path, str | None]:
    """Make a new build directory with ``write``, then switch ``current`` to it; on any failure
    until the switch, remove what was made and leave ``current`` as it was. The switch is the
    commit: a failure after it (making it durable, pruning old builds) is returned as a line
    (else None) with the new build, never raised, so that an ``add`` does not undo a library
    change the knowledge base in service already holds."""
    builds = kb / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    remove_leftovers(kb)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
    staging = builds / f".{stamp}.{os.getpid()}.tmp"
    final = builds / stamp
    staging.mkdir()
    try:
        with files.claim(staging):
            try:
                write(staging)
            except sqlite3.Error as err:  # a full disk, a file size limit: the store says it in its words
                raise BuildError(f"{kb}: cannot write the new build's store: {err}") from None
            checksums.seal(staging)  # what the build wrote, checked when it is read
            _fsync_tree(staging)
            staging.rename(final)
            files.fsync_directory(builds)
            files.fault("before-switch")
            link = kb / f".current.{stamp}.{os.getpid()}.tmp"
            link.symlink_to(Path(BUILDS) / stamp)
            link.replace(kb / CURRENT)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if final.is_dir() and (kb / CURRENT).resolve() != final.resolve():
            shutil.rmtree(final, ignore_errors=True)
        raise
    try:  # the new build is in service: nothing after this undoes it, a failure is only reported
        files.fsync_directory(kb)
        files.fault("after-switch")
        _prune(builds, final)
    except OSError as err:
        failed = err.strerror or str(err)
        return final, f"{kb / CURRENT}: the new build is in service, but what follows the switch failed: {failed}"
    except KeyboardInterrupt:  # after the commit: say the build stands, not that nothing was done
        raise KeyboardInterrupt(f"interrupted after the new build was put in service ({final})") from None
    return final, None


def _fsync_tree(directory: Path) -> None:
    for path in directory.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    files.fsync_directory(directory)


def remove_leftovers(kb: Path) -> list[Path]:
    """Remove what killed builds left in ``kb``: staging directories and half-made ``current``
    links whose owner is gone. Another process's live staging directory is kept."""
    builds = kb / BUILDS
    candidates = [p for p in kb.glob(".current.*") if p.is_symlink()]
    candidates += [p for p in builds.glob(".*.tmp")] if builds.is_dir() else []
    removed = []
    for path in candidates:
        if files.owner_gone(path):
            if path.is_symlink() or not path.is_dir():
                path.unlink(missing_ok=True)
            else:
                shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _prune(builds: Path, keep: Path) -> None:
    """Remove finished builds beyond `KEEP_BUILDS`, oldest first; never ``keep``, the build
    ``current`` points to, nor a build whose maker still holds it."""
    link = builds.parent / CURRENT
    serving = link.resolve() if link.is_symlink() else None
    olds = sorted(p for p in builds.iterdir() if p.is_dir() and not p.name.startswith(".") and p != keep)
    for old in olds[: max(0, len(olds) - (KEEP_BUILDS - 1))]:
        if old.resolve() != serving and files.unlocked(old):
            shutil.rmtree(old, ignore_errors=True)


def fingerprint(library: Path, manifest: bytes, cards: list[Path]) -> dict[str, str]:
    """The library, its manifest's bytes and, when any was imported, the card files' bytes (in order)."""
    found = {"library": str(library.resolve()), "manifest_sha256": hashlib.sha256(manifest).hexdigest()}
    if cards:
        digest = hashlib.sha256()
        for path in cards:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        found["cards_sha256"] = digest.hexdigest()
    return found


def library_changed(library: Path, kb: Path, strict: bool = False) -> str | None:
    """Why the knowledge base in service no longer matches ``library`` (its manifest, or a card file
    it names, changed since that build, e.g. an ``add`` was interrupted; or the build imported card
    files the manifest does not name), or None if it matches. A KB built from another library (or
    before builds recorded it) is reported only when ``strict``."""
    link = kb / CURRENT
    try:
        manifest = (library / MANIFEST).read_bytes()
        built = json.loads((link.resolve() / BUILT_FROM).read_text(encoding="utf-8"))
        try:
            cards = load_card_files(library)
        except ManifestError:
            cards = []  # the manifest's bytes tell it changed; the next build says what is wrong with it
        now = fingerprint(library, manifest, cards)
    except (OSError, ValueError):
        built = None
    else:
        if built == now:
            return None
        if isinstance(built, dict) and built.get("library") == now["library"]:
            if built.get("manifest_sha256") == now["manifest_sha256"]:
                return f"the card files {library / MANIFEST} names are not those the knowledge base in service imported"
            return f"{library / MANIFEST} changed since the knowledge base in service was built"
    if not strict:
        return None
    source = built.get("library") if isinstance(built, dict) else None
    return f"the knowledge base in service was not built from {library}" + (f" but from {source}" if source else "")
