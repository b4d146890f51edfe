"""Which texts restate a numbered rule: the Glossary of a comprehensive rules document.

A comprehensive rules document (Magic's, Lorcana's) numbers its rules and ends with a Glossary
that restates them in a sentence or two ("Trample: A keyword ability that modifies how a
creature assigns combat damage. See rule 702.19"). A judge asking how trample works wants the
numbered rule, which holds the words of the answer; the Glossary entry only names the term. A
search (`kb.search.in_force.run`, the export's search alike: `kb.search.offline`) ranks such a
restatement after the numbered rules that match as many of the query's words. A Glossary that
is a document of its own (STCCG's) is the rules' own text and keeps its place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NUMBERED = frozenset({"comprehensive-rules"})
"""The document kinds whose Glossary restates their numbered rules."""
GLOSSARY = "glossary"
"""The series of a Glossary's entries."""


def restating_documents(documents: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The ids of the documents (id -> facts with a ``kind``) whose Glossary entries restate numbered rules."""
    return frozenset(ident for ident, facts in documents.items() if facts.get("kind") in NUMBERED)


def restates(series: str, document: str, documents: frozenset[str]) -> bool:
    """Whether a version of ``series`` from ``document`` restates a numbered rule
    (``documents``: `restating_documents`)."""
    return series == GLOSSARY and document in documents
