"""What a build wrote, checked before it answers: a damaged or missing file is one line, never a
quieter or a wrong answer.

A build lists in ``checksums.json`` (`CHECKSUMS`) each file its readers read, with its size:
the store, the vocabulary, the build date and the default game with their CRC-32 too (a single
bit flipped in ``kb.sqlite`` changed a ruling's text, "You may nov target", with no error), the
indexes' tables of contents and segments by size only (Whoosh reads them through checks of its
own, and hashing them would cost more than it finds). `check` reads the list when a knowledge
base is opened (`kb.query.KnowledgeBase`): a file missing, of another size or another CRC-32
is `kb.errors.Damaged` naming it (``rulings: error: ...``, exit status 1; a 503 on the web).
A build made before the list was kept has none, and is read as before.

CRC-32 finds every flipped bit and every burst of up to 32 bits; it reads the store at about
800 MB a second (SHA-256: 350), once per process and build, not once per answer.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from kb.errors import Damaged
from kb.paths import BUILT_ON, CURRENT_DIR, DB_NAME, DEFAULT_GAME, INDEX_DIR, MEANING, VOCABULARY

CHECKSUMS = "checksums.json"
"""The list of the files a build wrote, inside its build directory."""
SUMMED = (DB_NAME, VOCABULARY, BUILT_ON, DEFAULT_GAME, MEANING)
"""The files listed with their CRC-32 (besides their size)."""
SIZED = (INDEX_DIR, CURRENT_DIR)
"""The folders whose index files (``*.toc``, ``*.seg``) are listed by size."""
_CHUNK = 1 << 22


def crc32(path: Path) -> str:
    """The CRC-32 of the file at ``path``, as 8 hexadecimal digits."""
    value = 0
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            value = zlib.crc32(chunk, value)
    return f"{value:08x}"


def listed(build: Path) -> dict[str, dict[str, int | str]]:
    """What `seal` lists of the build directory ``build``: each file by its path in it."""
    found: dict[str, dict[str, int | str]] = {}
    for name in SUMMED:
        path = build / name
        if path.is_file():
            found[name] = {"size": path.stat().st_size, "crc32": crc32(path)}
    for folder in SIZED:
        for path in sorted((build / folder).glob("*")) if (build / folder).is_dir() else []:
            if path.suffix in (".toc", ".seg"):
                found[f"{folder}/{path.name}"] = {"size": path.stat().st_size}
    return found


def seal(build: Path) -> None:
    """Write `CHECKSUMS` into the build directory ``build``, once everything else is written
    (the build directory is staged and renamed whole: `kb.ingest.publish`)."""
    (build / CHECKSUMS).write_text(json.dumps(listed(build), indent=1), encoding="utf-8")


def check(build: Path) -> None:
    """Raise `Damaged` naming the first file of ``build`` that is not what its build wrote:
    missing, of another size or of another CRC-32 (nothing when the build kept no list)."""
    path = build / CHECKSUMS
    if not path.is_file():
        return
    try:
        wrote = json.loads(path.read_text(encoding="utf-8"))
        entries = [(str(name), int(facts["size"]), facts.get("crc32")) for name, facts in wrote.items()]
    except (ValueError, OSError, TypeError, KeyError, AttributeError) as err:
        raise Damaged(path, err) from None
    for name, size, summed in entries:
        file = build / name
        try:
            found = file.stat().st_size
        except FileNotFoundError:
            raise Damaged(file, "missing: the build wrote it") from None
        except OSError as err:
            raise Damaged(file, err) from None
        if found != size:
            raise Damaged(file, f"{found} bytes, the build wrote {size}")
        if summed is None:
            continue
        try:
            got = crc32(file)
        except OSError as err:
            raise Damaged(file, err) from None
        if got != summed:
            raise Damaged(file, f"changed since it was built: CRC-32 {got}, the build wrote {summed}")
