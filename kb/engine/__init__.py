"""The search engine behind one seam: every import of Whoosh in `kb` and `web` is in this
package, and so is every name of Whoosh's own it reads that Whoosh does not publish.

What the rest of the knowledge base asks of it, module by module:

- write documents: an index as the writers describe it, its fields in our own terms (`indexes`:
  Whoosh's schema made of them, an index created, an add's copy of one, its segments counted),
  written fast and whole (`writing`: the fused analysers in place, field lengths read once, a
  commit or nothing);
- analyse text: the analysers' chains, Whoosh's tokenizer and filters around our folding and
  stemming of words (`analysers`, of `kb.analysis`), and the same tokens in one pass per
  distinct word (`fused`);
- evaluate a plan: our plan (`kb.plan`) as Whoosh's query and the words of it a snippet marks
  (`planning`; held by the search side as a `handles.Built`), the query nodes,
  matchers, collectors and searchers a plan is made of and run on (`searching`), a term's
  postings read whole into document numbers, weights and positions (`postings`; where given
  documents stand in them, their positions decoded when asked: `postings.placed`), and the score
  of each document (`weighting`, BM25F over the live documents, from field lengths read once:
  `lengths`), the same ranking whatever the index's segments (`steady`: sums in the query's
  order, equal scores by version, its collectors) within the work one search may do
  (`budget`: prefixes and fuzzy words expanded, documents examined), what an index told a
  search kept for the searches of it that follow (`memo`); which versions of a topic document
  of the history index a query matches, from the positions of its words, one topic at a time
  (`version_matching`) or every topic at once (`version_keys`);
- open an index to search it: a searcher reading its files, the file of a damaged index named
  in one line, the documents in force on a date (`opening`), held by the search side as an
  `Index` it asks nothing of, handed back to the engine's functions (`handles`); the fields the
  offline copy takes of the server's index, as plain lists (`exported`);
- stored fields: through the searchers and hits of `searching`, the documents a search found
  held by the search side as `hits.Scored` (their stored fields, matched terms and snippet asked
  of `hits`); highlights: a hit's snippet as a plain string (`highlighting`, its passages made
  in one pass by `passages`).

The search side (`kb.search`) keeps the reading of a query, its planning and the ranking
policy. The private names read are listed in `privates` and checked as this package is
imported: a release of Whoosh that moved one fails here, in one line naming the release
(`kb.errors.EngineMismatch`), never later in a search.
"""

import sys
import types


def _whoosh_without_urllib() -> None:
    """Import ``whoosh.compat`` without ``urllib.request``, which it imports for a function
    no part of Whoosh calls (``urlretrieve``), and with it ``http.client`` and ``email``:
    a fifth of a cold search's imports (done here, as the engine is first imported,
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


def _query_without_morphology() -> None:
    """Import ``whoosh.query`` without ``whoosh.lang.morph_en``, the English words' variations
    that only its ``Variations`` query uses (no plan of ours does): the hundreds of patterns it
    compiles as it is imported were a fifth of a cold search's CPU. While ``whoosh.query``
    imports, ``whoosh.lang.morph_en`` is a stand-in whose ``variations`` imports the real module
    when called; then the stand-in is gone, and whoever imports the module gets the real one."""
    name = "whoosh.lang.morph_en"
    if "whoosh.query" in sys.modules or name in sys.modules:
        return
    stand_in = types.ModuleType(name)

    def variations(word: str) -> object:
        import importlib

        return importlib.import_module(name).variations(word)

    stand_in.variations = variations  # type: ignore[attr-defined]
    import whoosh.lang  # the stand-in's package, itself

    sys.modules[name] = stand_in
    try:
        import whoosh.query  # noqa: F401
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]


_whoosh_without_urllib()
_query_without_morphology()

from kb.engine import privates  # noqa: E402  (after Whoosh's first import, above)

privates.check()
