"""The knowledge base: parsed documents stored, versioned, indexed and queried.

Built from a library directory (``data/`` by default) into a knowledge-base directory that
readers open read-only. Four wings over a shared floor (`docs/architecture.md`): `kb.ingest` and
`kb.index` make a knowledge base; `kb.read` and `kb.search` answer from one, through the one
door `kb.query.KnowledgeBase`; the modules of this folder are the floor both sides share.
"""
