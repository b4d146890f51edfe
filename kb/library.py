"""Bring a newly published document into a library: check, copy, register, rebuild.

`add_document` parses the file first and refuses it (with the parse report) if any line
would be lost; only then copies it into the library, appends its ``[[document]]`` table to
the manifest and rebuilds. If the rebuild fails, the library is put back as it was.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from pathlib import Path

from kb.build import BuildError, BuildReport, build, report_for
from rulings.manifest import MANIFEST, load_manifest, load_titles
from rulings.model import Document
from rulings.parse import parse_document


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "document"


def add_document(
    source: Path, kind: str, date: dt.date, library: Path, kb: Path,
    game: str = "stccg", title: str | None = None, version: str | None = None,
) -> BuildReport:  # fmt: skip
    """Add ``source`` to ``library`` as a document of ``kind`` dated ``date``, and rebuild."""
    existing = load_manifest(library)
    ident = _slug(f"{game}-{source.stem}")
    taken = {d.id for d in existing}
    while ident in taken:
        ident += "-2"
    document = Document(id=ident, path=str(source), game=game, kind=kind, title=title or source.stem,
                        version=version or date.isoformat(), date=date)  # fmt: skip
    report = report_for(parse_document(document, load_titles(library, game)))
    if not report.coverage.complete or report.unparsed:
        raise BuildError(f"{source}: refused, it would lose lines: {report.line()}")
    target = library / game / source.name
    if target.exists():
        raise BuildError(f"{target}: a file of that name is already in the library")
    manifest = library / MANIFEST
    before = manifest.read_text(encoding="utf-8")
    table = "\n".join([
        "", "[[document]]", f"id = {json.dumps(ident)}", f"file = {json.dumps(f'{game}/{source.name}')}",
        f"game = {json.dumps(game)}", f"kind = {json.dumps(kind)}", f"title = {json.dumps(document.title)}",
        f"version = {json.dumps(document.version)}", f'date = "{date.isoformat()}"', "",
    ])  # fmt: skip
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    try:
        manifest.write_text(before + table, encoding="utf-8")
        return build(library, kb)
    except BaseException:
        manifest.write_text(before, encoding="utf-8")
        target.unlink(missing_ok=True)
        raise
