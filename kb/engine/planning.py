"""Our query plans (`kb.plan`) as Whoosh's queries: the one translation, node for node, so that
the search side builds no query of Whoosh's own (`tests/test_layers.py` lists the modules that
still do), and the words of such a query that a snippet marks (`text_terms`)."""

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


def plan_terms(node: Node) -> set[tuple[str, str]]:
    """The (field, word) pairs of the terms of the plan ``node`` as the engine runs it (not expanded)."""
    return {(f, str(t)) for f, t in engine_query(node).all_terms()}


def text_terms(built: query.Query) -> set[str]:
    """The words of ``built`` (a plan as run: its prefixes expanded, `kb.engine.budget.expanded`)
    searched in the text field (those a snippet marks: `kb.search.history.mark`)."""
    if isinstance(built, query.Term):
        return {str(built.text)} if built.fieldname == "text" else set()
    if isinstance(built, query.Phrase):
        return {str(w) for w in built.words} if built.fieldname == "text" else set()
    if built.is_leaf():
        return set()
    return set().union(*(text_terms(child) for child in built.children()))
