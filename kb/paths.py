"""Where a knowledge base lives: the layout of a knowledge-base directory, which the side that
builds it (`kb.ingest.pipeline`, `kb.index.writer`, `kb.ingest.store`) and the side that reads it (`kb.query`, the
command line, the web app) share, so that reading needs nothing of building.

::

    <kb>/                      DEFAULT_KB (``instance/kb``, or ``RULINGS_KB``), or --kb
      current -> builds/<stamp>   the knowledge base in service (`current`), switched atomically
      builds/<stamp>/             one build:
        kb.sqlite                 DB_NAME, the store of record (`kb.ingest.store`)
        index/                    INDEX_DIR, every version (`kb.index.writer`)
        index-current/            CURRENT_DIR, the versions in force on the build date
        vocabulary.json           VOCABULARY, the words for spelling correction
        built_on.txt              BUILT_ON, the build date (its presence marks a finished build)
        built_from.json           BUILT_FROM, the library and manifest it was built from
        default_game.txt          DEFAULT_GAME, the game the manifest names the default (may be empty)
"""

from __future__ import annotations

import os
from pathlib import Path

from kb.errors import BuildError

DEFAULT_LIBRARY = Path(os.environ.get("RULINGS_LIBRARY", "data")).absolute()
"""The document library: ``data/`` in the working directory (not beside the installed package);
``RULINGS_LIBRARY`` overrides it."""
WAIT = 600.0
"""Seconds a ``build`` or ``add`` waits for another one on the same library or KB before refusing."""
DEFAULT_KB = Path(os.environ.get("RULINGS_KB", "instance/kb")).absolute()
"""Where knowledge bases are built: ``instance/kb`` in the working directory (git-ignored);
``RULINGS_KB`` overrides it."""
CURRENT = "current"
"""The link, inside a knowledge-base directory, to the build in service."""
BUILDS = "builds"
"""The folder, inside a knowledge-base directory, of the builds."""
DB_NAME = "kb.sqlite"
"""The store's file name inside a build directory."""
INDEX_DIR = "index"
"""The folder of the index of every version, inside a build directory: one document per topic
holding all its versions (`kb.index.history`; builds before it had one document per version)."""
CURRENT_DIR = "index-current"
"""The folder of the small index of the versions in force on the build date."""
BUILT_ON = "built_on.txt"
"""The build date, which `CURRENT_DIR` is exact for."""
VOCABULARY = "vocabulary.json"
"""The folded words of every version with their counts, and the words of names, for spelling correction."""
BUILT_FROM = "built_from.json"
"""In each build: the library it was built from and its manifest's SHA-256."""
DEFAULT_GAME = "default_game.txt"
"""In each build: the game its manifest names the default (``game = "stccg"``); empty or absent:
the game with the most documents (`kb.query.KnowledgeBase.default_game`)."""


def current(kb: Path = DEFAULT_KB) -> Path:
    """The directory of the knowledge base in service."""
    link = kb / CURRENT
    if not link.exists():
        raise BuildError(f"{kb}: no knowledge base built yet (run 'rulings build')")
    return link.resolve()
