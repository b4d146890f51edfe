"""Our query plans (`kb.plan`) as Whoosh's queries: the one translation, node for node, so that
the search side builds no query of Whoosh's own (`tests/test_layers.py` lists the modules that
still do)."""

from __future__ import annotations

from whoosh import query

from kb.plan import And, AndNot, Node, Or, Phrase, Prefix, Term


def engine_query(node: Node) -> query.Query:
    """Whoosh's query of ``node``: the same shape, node for node, with the same fields, words and boosts."""
    if isinstance(node, Term):
        return query.Term(node.field, node.text, boost=node.boost)
    if isinstance(node, Phrase):
        return query.Phrase(node.field, list(node.words), boost=node.boost)
    if isinstance(node, Prefix):
        return query.Prefix(node.field, node.text, boost=node.boost)
    if isinstance(node, And):
        return query.And([engine_query(part) for part in node.parts], boost=node.boost)
    if isinstance(node, Or):
        return query.Or([engine_query(part) for part in node.parts], boost=node.boost)
    if isinstance(node, AndNot):
        return query.AndNot(engine_query(node.kept), engine_query(node.excluded))
    raise TypeError(f"not a node of a plan: {node!r}")
