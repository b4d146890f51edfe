"""Test helper for the kinds' tests: a one-document library built into a knowledge base."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase


def built(tmp_path: Path, source: Path, kind: str, date: str = "2020-01-01") -> KnowledgeBase:
    """A knowledge base built from a library holding only ``source``, of ``kind``, dated ``date``."""
    library = tmp_path / "library"
    (library / "game").mkdir(parents=True)
    shutil.copy(source, library / "game" / source.name)
    (library / "library.toml").write_text(
        f'[[document]]\nid = "doc"\nfile = "game/{source.name}"\ngame = "game"\nkind = "{kind}"\n'
        f'title = "Doc"\nversion = "1"\ndate = "{date}"\n',
        encoding="utf-8",
    )
    build(library, tmp_path / "kb")
    return KnowledgeBase(current(tmp_path / "kb"))
