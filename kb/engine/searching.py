"""Evaluating a plan: the query nodes a plan is made of (`query`), the matchers and their
wrappers that run it (`matching`, `wrappers`), the collectors that gather its best documents
(`collectors`), the searcher that opens an index's segments and reads their stored fields
(`Searcher`, its `Hit` and `Results`), the scorers (`scoring`, `WeightScorer`) and the
highlighter of a hit's text (`highlight`)."""

from whoosh import collectors, highlight, matching, query, scoring
from whoosh.matching import wrappers
from whoosh.reading import TermNotFound
from whoosh.scoring import WeightScorer
from whoosh.searching import Hit, Results, Searcher

__all__ = [
    "Hit",
    "Results",
    "Searcher",
    "TermNotFound",
    "WeightScorer",
    "collectors",
    "highlight",
    "matching",
    "query",
    "scoring",
    "wrappers",
]
