"""The card catalogs a library keeps: a card file imported once is imported by every later build.

``rulings build --cards Physical.csv`` makes the card file part of the library, as ``rulings add``
does a document: `kept` refuses a file that gives no card before anything is written, copies it
into the library's ``cards/`` folder (`rulings.manifest.CARDS_FOLDER`) and appends a ``[[cards]]``
table naming it to the manifest (a file of that name the manifest already names is replaced by
the newer one; one already in the library is named where it is). Every build and add then imports
the files the manifest names (`rulings.manifest.load_card_files`), so an add no longer drops the
catalog. If the build fails before its knowledge base is in service, the library is put back: the
manifest (only over the bytes this wrote, `kb.ingest.manifest_file`), the copies removed, a
replaced file's old bytes written back.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path

from kb import files
from kb.errors import BuildError
from kb.ingest import manifest_file
from kb.ingest.catalog import Catalog, import_lackey
from kb.ingest.publish import library_changed
from rulings.manifest import CARDS_FOLDER, MANIFEST, load_card_files


def readable(path: Path) -> None:
    """Refuse, in one line, a card file that gives no card (before the library is touched)."""
    catalog = Catalog()
    report = import_lackey(path, catalog)
    if not report.printings:
        said = [p for p in catalog.problems if p.startswith(f"{path}:")]
        raise BuildError(
            f"{said[0]}; no card read from this card file"
            if said
            else f"{path}:1: no card read from this card file ({report.rows} rows)"
        )


def _table(name: str) -> bytes:
    return f"\n[[cards]]\nfile = {manifest_file.toml_string(name)}\n".encode()


@contextlib.contextmanager
def kept(library: Path, kb: Path, cards: list[Path]) -> Iterator[list[str]]:
    """Make ``cards`` card files of ``library`` (see the module) for the block, which builds ``kb``; yield
    the names the manifest gives them (``cards/Physical.csv``). If the block fails before the knowledge
    base in service is the one built from the new manifest, put the library back."""
    for path in cards:
        readable(path)
    manifest = library / MANIFEST
    before = manifest.read_bytes()
    listed = {p.resolve() for p in load_card_files(library)}
    root = library.resolve()
    names: list[str] = []
    tables = b""
    made: list[Path] = []
    replaced: dict[Path, bytes] = {}
    made_folder = not (root / CARDS_FOLDER).exists()
    try:
        for source in cards:
            resolved = source.resolve()
            if resolved.is_relative_to(root):  # already in the library: named where it is
                target = resolved
            else:
                target = root / CARDS_FOLDER / source.name
                if target in replaced or target in made:
                    raise BuildError(f"{source}: another card file given is also named {source.name!r}")
                data = source.read_bytes()
                if target.exists() and target.read_bytes() != data:
                    if target not in listed:
                        raise BuildError(f"{target}: a file of that name, not in the manifest, is in the library")
                    replaced[target] = target.read_bytes()
                    _write(target, functools.partial(files.write_atomic, target, data))
                elif not target.exists():
                    target.parent.mkdir(exist_ok=True)
                    _write(target, functools.partial(files.copy_atomic, source, target))
                    made.append(target)
            name = target.relative_to(root).as_posix()
            names.append(name)
            if target not in listed:
                listed.add(target)
                tables += _table(name)
        if tables:
            manifest_file.replace(manifest, before, before + tables)
        yield names
    except BaseException:
        if (tables or replaced) and library_changed(library, kb, strict=True) is None:
            raise  # the knowledge base in service was built from the new manifest: the import stands
        if tables and manifest.read_bytes() == before + tables:
            manifest_file.replace(manifest, before + tables, before)
        for path in made:
            path.unlink(missing_ok=True)
        for path, data in replaced.items():
            files.write_atomic(path, data)
        if made_folder:
            with contextlib.suppress(OSError):
                (root / CARDS_FOLDER).rmdir()
        raise


def _write(path: Path, write: Callable[[], None]) -> None:
    try:
        write()
    except OSError as err:
        raise BuildError(f"{path}: cannot write: {err.strerror or err}") from None
