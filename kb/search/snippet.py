"""Snippets of search hits: the best passages of a hit's text with the matched words marked.

The same hit always gets the same snippet. Whoosh ranks passages by score and breaks ties
by memory address (its ``Fragment`` orders by ``id()``), so identical searches could show
different passages; here a tie goes to the earlier passage. Each hit is marked with a fresh
formatter, so the term classes of one snippet do not depend on the hits before it.
"""

from __future__ import annotations

from whoosh import highlight
from whoosh.searching import Hit

PASSAGES = 2
"""Passages per snippet."""


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
    results.fragmenter = highlight.ContextFragmenter(maxchars=240, surround=60)
    results.scorer = EarlierOnTies()
    results.formatter = highlight.HtmlFormatter(tagname="mark", between=" … ")
    text: str = hit.highlights("text", top=PASSAGES)
    return text
