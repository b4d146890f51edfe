"""The interfaces: the command line and the HTTP app, each presenting what `kb` answers.

- the HTTP app: `web.app` (the app factory), `web.views` (what every page shares), one blueprint
  per task (`web.search`, `web.entries`, `web.cards`, `web.changes`, `web.documents`) and the
  templates;
- the command line ``rulings``: `web.cli` (`web.cli.main` runs a command, the parser in `web.cli.arguments`,
  the commands that build in `web.cli.commands`, how answers are printed in `web.cli.answers`, the
  server processes in `web.cli.serving`);
- the offline export (``rulings export``): `web.export` (the site's pages and file names, the
  files written, the browser's search index).

No parsing or storage logic lives here.
"""
