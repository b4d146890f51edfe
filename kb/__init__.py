"""The knowledge base: parsed documents stored, versioned, indexed and queried.

Built from a library directory (``data/`` by default) into a knowledge-base directory
that readers open read-only; see `kb.build`.
"""
