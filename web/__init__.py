"""The interfaces: the command line and the HTTP app, each presenting what `kb` answers.

- the command line ``rulings``: `web.cli` (the parser, and the commands that parse, build, add
  and serve), `web.cli_answers` (the commands that ask the knowledge base), `web.export`
  (``rulings export``), `web.serving` (the server processes);
- the HTTP app: `web.app` (the app factory), `web.views` (what every page shares), one blueprint
  per task (`web.search`, `web.entries`, `web.cards`, `web.changes`, `web.documents`) and the
  templates.

No parsing or storage logic lives here.
"""
