"""The installed ``rulings`` program: the command line (`web.cli.main`), ended at once after a
command that only reads.

Installed from a wheel, this module is ``rulings_app.web.cli.program`` (`setup.py`): it first
puts ``rulings_app/`` at the head of ``sys.path``, so that ``rulings``, ``kb`` and ``web`` are
the program's own even where another distribution installed a package of the same name."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import NoReturn

if __package__ and __package__ != "web.cli":  # rulings_app.web.cli: the wheel's layout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from web.cli.resident import asked  # after the line above, which may make it importable


def program() -> NoReturn:
    """`main`, its status the exit status; a reading command first asks a ``rulings serve``
    running on its knowledge base (`web.cli.resident.asked`: neither `main` nor the search engine
    is then loaded). A command that only reads ends the process once its output is flushed,
    without the interpreter's teardown, which freed a large search's objects one by one (some
    20 ms of a cold search at 90,000 versions); it has nothing to finish, having written nothing."""
    arguments = sys.argv[1:]
    try:
        status = asked(arguments)
    except KeyboardInterrupt:  # Ctrl-C while the server answers: said as `main` says it
        from web.cli.main import interrupted

        status = interrupted(arguments)
    if status is None:
        from web.cli.main import READING, main

        status = main(arguments)
        reading = bool(arguments[:1]) and arguments[0] in READING
    else:
        reading = True
    if reading:
        with contextlib.suppress(OSError):  # a closed pipe: nothing more to say
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
