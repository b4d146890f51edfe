"""A query plan of our own (issue 53): the nodes a search's plan is made of, whatever engine runs it.

The query reader's planner (`kb.search.plans`) makes them from the words typed: a word in a
field (`Term`), words one after another (`Phrase`), the words a typed stem begins (`Prefix`),
all of several parts (`And`), any of them (`Or`), and a part less another (`AndNot`); each with
its field and boost. The engine translates a plan into its own queries
(`kb.engine.planning.engine_query`), the one place that knows Whoosh's; nothing here does.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """An index word in one field."""

    field: str
    text: str
    boost: float = 1.0


@dataclass(frozen=True)
class Phrase:
    """Index words one after another in one field."""

    field: str
    words: tuple[str, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class Prefix:
    """The index words of one field that begin with ``text`` (expanded within a budget: `kb.engine.budget`)."""

    field: str
    text: str
    boost: float = 1.0


@dataclass(frozen=True)
class And:
    """Every part."""

    parts: tuple[Node, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class Or:
    """Any of the parts, the more the better."""

    parts: tuple[Node, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class AndNot:
    """What ``kept`` matches but ``excluded`` does not."""

    kept: Node
    excluded: Node


Node = Term | Phrase | Prefix | And | Or | AndNot
"""A plan, or a part of one."""
