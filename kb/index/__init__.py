"""Writing the Whoosh indexes: the versions in force on the build date (`writer`) and every
version, one document per topic (`history`), fast (`kb.engine.writing`, `kb.engine.fused`), in a forked child
(`aside`). The layout both sides rely on is `kb.layout`; the search side reads, never imports, these."""
