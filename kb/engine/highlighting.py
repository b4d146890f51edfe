"""Snippets of search hits: the best passages of a hit's text with the matched words marked.

The same hit always gets the same snippet. Whoosh ranks passages by score and breaks ties
by memory address (its ``Fragment`` orders by ``id()``), so identical searches could show
different passages; here a tie goes to the earlier passage. Each hit is marked with a fresh
formatter, so the term classes of one snippet do not depend on the hits before it.
"""

from __future__ import annotations

from typing import Any

from kb.engine.analysers import text_analyzer
from kb.engine.fused import FusedAnalyzer
from kb.engine.passages import PASSAGES, marked
from kb.engine.searching import Hit, highlight


class EarlierOnTies(highlight.BasicFragmentScorer):  # type: ignore[misc]
    """Whoosh's passage score, less a fraction (under one) that grows with the passage's
    start: equal scores become distinct and favour the earlier passage. Scores with a match
    are whole multiples of 100, so the fraction never reorders unequal scores."""

    def __call__(self, fragment: highlight.Fragment) -> float:
        score: float = super().__call__(fragment)
        start: int = fragment.startchar
        return score - start / (len(fragment.text) + 1)


def snippet(hit: Hit) -> str:
    """The highlighted snippet of one hit's text (the same hit always gets the same one)."""
    results = hit.results
    field = results.searcher.schema["text"]
    if field.analyzer != TEXT_CHAIN or not results.has_matched_terms() or "text" not in hit:
        results.fragmenter = highlight.ContextFragmenter(maxchars=240, surround=60)
        results.scorer = EarlierOnTies()
        results.formatter = highlight.HtmlFormatter(tagname="mark", between=" … ")
        text: str = hit.highlights("text", top=PASSAGES)
        return text
    return _marked(hit, field)


TEXT_CHAIN = text_analyzer()
"""The analyser of the text field of the index of the versions in force (`kb.index.writer`)."""
TEXT_TOKENS = FusedAnalyzer(stemmed=True)
"""`TEXT_CHAIN` in one pass (`kb.engine.fused`): the same tokens, for a third of the cost."""


def _marked(hit: Hit, field: Any) -> str:
    """What Whoosh's ``Highlighter.highlight_hit`` makes of the hit's text field when it
    retokenizes the text (no characters stored), with the tokens of `TEXT_TOKENS`: the
    terms matched in the text field by any hit of the results marked, consecutive marks
    merged, the best passages formatted (`kb.engine.passages`, in one pass). Those terms are the
    same for every hit of the results: found for the first, kept with the results."""
    results = hit.results
    words: frozenset[str] | None = getattr(results, "marked_words", None)
    if words is None:
        words = frozenset(field.from_bytes(term[1]) for term in results.matched_terms() if term[0] == "text")
        results.marked_words = words
    return marked(hit["text"], words, TEXT_TOKENS, merge=True)
