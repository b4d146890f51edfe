"""``python -m web.cli``: the ``rulings`` command line (`web.cli.main`)."""

import sys

from web.cli.program import program

if sys.argv[1:] == ["--commands-markdown"]:
    from web.cli.main import commands_markdown  # here: a command asking a server loads no parser

    print(commands_markdown(), end="")
    sys.exit(0)
program()
