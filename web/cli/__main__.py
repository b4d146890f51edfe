"""``python -m web.cli``: the ``rulings`` command line (`web.cli.main`)."""

import sys

from web.cli.main import commands_markdown
from web.cli.program import program

if sys.argv[1:] == ["--commands-markdown"]:
    print(commands_markdown(), end="")
    sys.exit(0)
program()
