"""``python -m web.cli``: the ``rulings`` command line (`web.cli.main`)."""

import sys

from web.cli.main import commands_markdown, main

if sys.argv[1:] == ["--commands-markdown"]:
    print(commands_markdown(), end="")
    sys.exit(0)
sys.exit(main())
