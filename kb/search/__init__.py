"""The search side: a query as read (`questions`), planned within a budget (`plans`: a plan of our
own, `kb.plan`, made the engine's queries by `kb.engine.planning`; `kb.engine.budget`), run over the
versions in force (`in_force`) or every version (`history`; a topic's matching versions:
`kb.engine.version_matching`), evaluated in bulk (`kb.engine.bulk`), scored
(`kb.engine.weighting`), alike whatever the index's segments (`kb.engine.steady`), with snippets
(`kb.engine.highlighting`) and autocomplete (`completion`), on each thread's own searchers (`searchers`)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
"""numpy (imported by the bulk evaluation, `bulk`) starts OpenBLAS's pool of threads as it loads,
one a core, for linear algebra no search does: a third of numpy's import time in a cold search,
and threads a server worker would carry across its fork. One is asked for, unless the user set it."""
