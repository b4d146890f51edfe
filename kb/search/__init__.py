"""The search side: a query as read (`questions`), planned into Whoosh queries within a budget
(`plans`, `budget`), run over the versions in force (`in_force`) or every version (`history`,
`matching`), scored (`weighting`), alike whatever the index's segments (`steady`), with
snippets (`snippet`) and autocomplete (`completion`), on each thread's own searchers (`searchers`)."""

import os
import sys
import types

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
"""numpy (imported by the bulk evaluation, `bulk`) starts OpenBLAS's pool of threads as it loads,
one a core, for linear algebra no search does: a third of numpy's import time in a cold search,
and threads a server worker would carry across its fork. One is asked for, unless the user set it."""


def _whoosh_without_urllib() -> None:
    """Import ``whoosh.compat`` without ``urllib.request``, which it imports for a function
    no part of Whoosh calls (``urlretrieve``), and with it ``http.client`` and ``email``:
    a fifth of a cold search's imports (done here, as the search side is first imported,
    so that an answer read from the store alone loads no Whoosh). While it imports, ``urllib.request`` is a stand-in
    whose ``urlretrieve`` imports the real module when called; then the stand-in is gone,
    and whoever imports ``urllib.request`` gets the real one."""
    if "whoosh.compat" in sys.modules or "urllib.request" in sys.modules:
        return
    stand_in = types.ModuleType("urllib.request")

    def urlretrieve(*args: object, **kwargs: object) -> object:
        import importlib

        return importlib.import_module("urllib.request").urlretrieve(*args, **kwargs)

    stand_in.urlretrieve = urlretrieve  # type: ignore[attr-defined]
    sys.modules["urllib.request"] = stand_in
    try:
        import whoosh.compat  # noqa: F401
    finally:
        if sys.modules.get("urllib.request") is stand_in:
            del sys.modules["urllib.request"]


_whoosh_without_urllib()
