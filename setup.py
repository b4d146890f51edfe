"""How setuptools lays the program out; `pyproject.toml` holds everything else.

A wheel puts the three packages and the bundled library under one folder of its own,
``rulings_app/`` (``rulings_app/rulings``, ``rulings_app/kb``, ``rulings_app/web``,
``rulings_app/data``), which is not on ``sys.path``: no other distribution's ``web`` or ``kb``
(web.py installs a ``web``) shares files with them or is imported in their place, and the
program's are imported by nobody else. The ``rulings`` command (`web.cli.program`) puts that
folder first on its own ``sys.path``. An editable install (``pip install -e .``, as ``make``
does) keeps the checkout's flat layout, the folders importable as they are (a simple ``.pth``
file, without setuptools' warning about folders of the same name as a package).
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import find_packages, setup

TOPS = ("rulings", "kb", "web")
"""The packages of the checkout, each a folder at its root."""
HOME = "rulings_app"
"""The folder of the wheel that holds them."""


def data_folders(*roots: str) -> list[str]:
    """The folders of package data (``data/``, ``web/templates/``...) that Python could import
    (``data.stccg``): setuptools wants each listed as a package of its own, or warns that its
    files may be left out."""
    folders = [p for root in roots for p in (Path(root), *sorted(Path(root).rglob("*"))) if p.is_dir()]
    return [".".join(p.parts) for p in folders if all(part.isidentifier() for part in p.parts)]


found = find_packages(include=[f"{top}{more}" for top in TOPS for more in ("", ".*")])
if "editable_wheel" in sys.argv:
    setup(
        packages=found,
        package_dir={"": "."},  # the checkout's root on sys.path: its folders are read where they are
        entry_points={"console_scripts": ["rulings = web.cli.program:program"]},
    )
else:
    setup(
        packages=[
            f"{HOME}.{name}"
            for name in [*found, *data_folders("data", "web/templates", "web/static", "kb/search/words")]
        ],
        package_dir={f"{HOME}.{top}": top for top in TOPS} | {f"{HOME}.data": "data"},
        package_data={
            f"{HOME}.web": ["templates/**/*", "static/*"],
            f"{HOME}.data": ["**/*"],
            f"{HOME}.kb.search.words": ["*.toml"],  # each game's players' words (kb.search.players)
        },
        entry_points={"console_scripts": [f"rulings = {HOME}.web.cli.program:program"]},
    )
