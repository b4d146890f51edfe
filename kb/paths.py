"""Where a knowledge base lives: the layout of a knowledge-base directory, which the side that
builds it (`kb.ingest.pipeline`, `kb.index.writer`, `kb.ingest.store`) and the side that reads it (`kb.query`, the
command line, the web app) share, so that reading needs nothing of building.

::

    <kb>/                      DEFAULT_KB (``RULINGS_KB``, or the user's data directory), or --kb
      current -> builds/<stamp>   the knowledge base in service (`current`), switched atomically
      serving.json                a `rulings serve` running on it, while it runs (`web.cli.resident`)
      builds/<stamp>/             one build:
        kb.sqlite                 DB_NAME, the store of record (`kb.ingest.store`)
        index/                    INDEX_DIR, every version (`kb.index.writer`)
        index-current/            CURRENT_DIR, the versions in force on the build date
        vocabulary.json           VOCABULARY, the words for spelling correction
        built_on.txt              BUILT_ON, the build date (its presence marks a finished build)
        built_from.json           BUILT_FROM, the library and manifest it was built from
        default_game.txt          DEFAULT_GAME, the game the manifest names the default (may be empty)
        meaning.npz               MEANING, the numbered rules' meaning vectors (`kb.meaning`; with the model only)
        checksums.json            what the build wrote, checked when it is opened (`kb.checksums`)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

BUNDLED_LIBRARY = Path(__file__).resolve().parents[1] / "data"
"""The library that comes with the program: ``data/`` of the checkout, which the wheel carries as
package data beside `kb` (``<site-packages>/rulings_app/data``, `setup.py`)."""
LIBRARY_HINT = "pass --library DIR or set RULINGS_LIBRARY to a folder holding library.toml"
"""What a "not found" about the library tells the user to do."""
KB_HINT = "pass --kb DIR or set RULINGS_KB to where 'rulings build' wrote one"
"""What a "not found" about the knowledge base tells the user to do."""


def user_data_dir(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> Path:
    """The folder of this program's files in the user's data directory, by the platform's
    convention: ``$XDG_DATA_HOME/rulings`` (``~/.local/share/rulings``) on Linux and other POSIX
    systems, ``~/Library/Application Support/rulings`` on macOS, ``%LOCALAPPDATA%\\rulings`` on Windows."""
    home = Path(environ.get("HOME") or Path.home())
    if platform == "win32":
        local = environ.get("LOCALAPPDATA") or environ.get("APPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "rulings"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "rulings"
    xdg = environ.get("XDG_DATA_HOME", "")
    return (
        Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    ) / "rulings"  # relative: ignored, as XDG says


DEFAULT_LIBRARY = Path(os.environ.get("RULINGS_LIBRARY") or BUNDLED_LIBRARY).absolute()
"""The document library: ``RULINGS_LIBRARY``, else the bundled one (`BUNDLED_LIBRARY`); never the
working directory's. ``--library`` overrides both."""
WAIT = 600.0
"""Seconds a ``build`` or ``add`` waits for another one on the same library or KB before refusing."""
CHECKOUT = BUNDLED_LIBRARY.parent if (BUNDLED_LIBRARY.parent / "Makefile").is_file() else None
"""The checkout the program runs from (an editable install, as ``make`` makes), or None when it
is installed (a wheel has no ``Makefile`` beside its ``data``)."""
DEFAULT_KB = Path(
    os.environ.get("RULINGS_KB") or (CHECKOUT / "instance" / "kb" if CHECKOUT else user_data_dir() / "kb")
).absolute()
"""Where knowledge bases are built: ``RULINGS_KB``, else, in a checkout, its ``instance/kb`` (where
``make run`` builds it), else ``kb`` in the user's data directory (`user_data_dir`); never the
working directory's. ``--kb`` overrides them all."""
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
MEANING = "meaning.npz"
"""The numbered rules' vectors of meaning (`kb.meaning.vectors`), written when the sentence model is installed."""
VOCABULARY = "vocabulary.json"
"""The folded words of every version with their counts, and the words of names, for spelling correction."""
BUILT_FROM = "built_from.json"
"""In each build: the library it was built from and its manifest's SHA-256."""
DEFAULT_GAME = "default_game.txt"
"""In each build: the game its manifest names the default (``game = "stccg"``); empty or absent:
the game with the most documents (`kb.query.KnowledgeBase.default_game`)."""


def current(kb: Path = DEFAULT_KB) -> Path:
    """The directory of the knowledge base in service."""
    from kb.errors import BuildError  # here: a command asking a running server loads no error classes

    link = kb / CURRENT
    if not link.exists():
        raise BuildError(f"{kb}: no knowledge base built yet (run 'rulings build', or {KB_HINT})")
    return link.resolve()
