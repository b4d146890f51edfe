"""The knowledge base: parsed documents stored, versioned, indexed and queried.

Built from a library directory (``data/`` by default) into a knowledge-base directory that
readers open read-only. Four wings over a shared floor (`docs/architecture.md`): `kb.build` and
`kb.index` make a knowledge base; `kb.read` and `kb.search` answer from one, through the one
door `kb.query.KnowledgeBase`; the modules of this folder are the floor both sides share.
"""

import sys
import types


def _whoosh_without_urllib() -> None:
    """Import ``whoosh.compat`` without ``urllib.request``, which it imports for a function
    no part of Whoosh calls (``urlretrieve``), and with it ``http.client`` and ``email``:
    a fifth of a cold search's imports. While it imports, ``urllib.request`` is a stand-in
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
