"""How a query as read (`kb.search.questions.Typed`) becomes a plan of our own (`kb.plan`): the
fields a plain word may match, phrases and field restrictions, prefixes, exclusions, all within
the budget of leaf terms (`kb.engine.budget`). Both the search of the versions in force
(`kb.search.in_force`) and the search of history (`kb.search.history`) run these plans, as the
engine's queries (`kb.engine.planning.engine_query`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from kb.engine import budget
from kb.engine.analysers import name_analyzer, text_analyzer
from kb.engine.handles import Built, Index
from kb.engine.hits import counted
from kb.engine.planning import engine_query
from kb.kept import Kept, sized
from kb.plan import And, AndNot, Node, Or, Phrase, Prefix, Term
from kb.search import players
from kb.search.questions import Clause, Typed
from kb.vocabulary import series_kind

NAMES = name_analyzer(joined=False)
TEXT = text_analyzer(joined=False)
WORD_FIELDS = (
    ("headword", NAMES),
    ("headstem", TEXT),
    ("cards", NAMES),
    ("cardstem", TEXT),
    ("text", TEXT),
    ("extra", TEXT),
)
"""Where a plain word may match, with the analyser that reads it."""
RERANK = 100
"""Versions matching only some of the words that are ranked by how many they match."""


def analysed(analyzer: Any, text: str) -> list[str]:
    """The terms ``analyzer`` makes of ``text``; `NAMES` and `TEXT` make them once per text
    (`ANALYSED`): each search analyses its words a dozen times, through Whoosh's chains."""
    if analyzer is not NAMES and analyzer is not TEXT:
        return [t.text for t in analyzer(text)]
    key = (analyzer is NAMES, text)
    found = _ANALYSED.get(key)
    if found is None:
        found = _ANALYSED.put(key, (text, *(t.text for t in analyzer(text))))
    return list(found[1:])


ANALYSED = 8 << 20
"""What the texts whose terms are kept weigh at most, in bytes (the least recently asked
dropped first); threads share them."""
_ANALYSED: Kept[tuple[str, ...]] = Kept(ANALYSED, sized)
"""(names?, text) -> the text and its terms."""


def forget() -> None:
    """Empty `ANALYSED`'s table (a benchmark's first search: `bench/first_search.py`)."""
    _ANALYSED.empty()


def word_query(word: str, inflections: list[str] | None = None) -> Node | None:
    """One plain word in any searchable field (a compound must match all its parts); in the
    headword and card-name fields, also as any of its ``inflections`` (a headword matched by
    its inflection ranks as if typed)."""
    options: list[Node] = []
    for name, analyzer in WORD_FIELDS:
        terms = analysed(analyzer, word)
        if terms:
            found: Node = And(tuple(Term(name, t) for t in terms)) if len(terms) > 1 else Term(name, terms[0])
            if inflections and analyzer is NAMES and len(terms) == 1:
                found = Or((found, *(Term(name, other) for other in inflections)))
            options.append(found)
    return Or(tuple(options)) if options else None


def _either(word: str, typed: Typed) -> Node | None:
    """A word (or its inflections in names), or the compound it makes with its neighbour, or its
    negation by ``un-`` (`kb.search.questions.Typed.opposite`), or its other spelling as a number
    (``zero``: 0, `kb.search.questions.Typed.numeral`), or another spelling as likely of a
    corrected word; and, at a lower weight, the words its game's rules use for it (`kb.search.players`)."""
    alone = word_query(word, typed.inflected.get(word))
    others = [
        word_query(w, typed.inflected.get(w))
        for w in [
            typed.joined.get(word, ""),
            typed.opposite.get(word, ""),
            typed.numeral.get(word, ""),
            *typed.also.get(word, []),
        ]
        if w
    ]
    others += [weighted(q, players.WEIGHT) for q in map(said_query, typed.players.get(word, [])) if q is not None]
    found = [q for q in [alone, *others] if q is not None]
    return (Or(tuple(found)) if len(found) > 1 else found[0]) if alone is not None else None


def weighted(node: Node, weight: float) -> Node:
    """``node`` with each of its words' scores times ``weight``: the boost is put on the leaves,
    as Whoosh leaves out the boost of an ``Or`` or ``And`` of one part."""
    if isinstance(node, Term | Phrase | Prefix):
        return dataclasses.replace(node, boost=node.boost * weight)
    if isinstance(node, And | Or):
        return dataclasses.replace(node, parts=tuple(weighted(part, weight) for part in node.parts))
    return AndNot(weighted(node.kept, weight), node.excluded)


def said_query(words: str) -> Node | None:
    """One of a word's alternatives in its game's rules (`kb.search.players`): a word as a plain word
    is searched, words in a row as a phrase."""
    if len(analysed(TEXT, words)) > 1:
        return clause_query(Clause(words, None, True, False))
    return word_query(words)


def together(searcher: Index, word: str, others: list[str], most: int = 50) -> int:
    """How many documents (up to ``most``) hold ``word`` and one of the ``others`` (as typed,
    in any searchable field): how well a candidate spelling fits the rest of a query. Counted
    from the postings the searches read whole (`kb.engine.bulk`, kept for the searcher's index,
    the deleted documents masked out as they are read), not by Whoosh's matchers, which step
    over an add's deleted documents one posting at a time."""
    wanted = word_query(word)
    rest = [q for q in (word_query(w) for w in others) if q is not None]
    if wanted is None or not rest:
        return 0
    return counted(searcher, engine_query(And((wanted, Or(tuple(rest))))), most)


def prefix_query(stem: str) -> Node | None:
    """A word typed with ``*``: any headword, card-name or text word starting with it (a
    prefix shorter than `budget.MIN_PREFIX` is the word itself)."""
    terms = analysed(NAMES, stem)
    if len(terms) != 1 or len(terms[0]) < budget.MIN_PREFIX:
        return word_query(stem)
    return Or(tuple(Prefix(f, terms[0]) for f in ("headword", "cards", "text")))


def clause_query(clause: Clause) -> Node | None:
    """A phrase, a field restriction, or an excluded word."""
    if clause.field in ("kind", "doc", "game"):
        value = clause.text.strip().lower()
        return Term(clause.field, series_kind(value) if clause.field == "kind" else value) if value else None
    if not clause.phrase and clause.field is None:
        return word_query(clause.text)
    fields = [clause.field] if clause.field else ["headword", "cards", "text", "extra"]
    options: list[Node] = []
    for name in fields:
        terms = analysed(TEXT if name in ("text", "extra") else NAMES, clause.text)
        if terms:
            options.append(Phrase(name, tuple(terms)) if len(terms) > 1 else Term(name, terms[0]))
    return Or(tuple(options)) if options else None


@dataclass
class Plan:
    """A query as it will run: the parts every hit needs, the words ranked by how many match,
    the exclusions; parts over the budget are left out (``work.left_out``)."""

    required: list[Node] = field(default_factory=list)
    words: list[tuple[str, Node]] = field(default_factory=list)
    excluded: list[Node] = field(default_factory=list)


def plan(typed: Typed, game: str | None, kind: str | None, work: budget.Work) -> Plan:
    """Build ``typed`` into a plan, explicit parts first and exclusions last, while the leaf
    terms stay within `budget.TERMS`."""
    planned = Plan()
    spent = 0

    def afford(label: str, built: Node) -> bool:
        nonlocal spent
        cost = budget.leaf_terms(engine_query(built))
        if spent + cost > budget.TERMS:
            work.left_out.append(label)
            return False
        spent += cost
        return True

    for clause in typed.clauses:
        if not clause.negated and (built := clause_query(clause)) is not None and afford(clause.text, built):
            planned.required.append(built)
    for stem in typed.prefixes:
        if (built := prefix_query(stem)) is not None and afford(f"{stem}*", built):
            planned.required.append(built)
    for word in typed.words:
        if (built := _either(word, typed)) is not None and afford(word, built):
            planned.words.append((word, built))
    for clause in typed.clauses:
        if clause.negated and (built := clause_query(clause)) is not None and afford(f"-{clause.text}", built):
            planned.excluded.append(built)
    if game:
        planned.required.append(Term("game", game))
    if kind:
        planned.required.append(Term("kind", series_kind(kind)))
    return planned


def whole_query(plan: Plan, parts: list[Node], index: Index, work: budget.Work) -> Built:
    """``parts`` together, less the plan's exclusions, as the engine's query, prefixes
    expanded over ``index`` within the budget."""
    both: Node = And(tuple(parts)) if len(parts) > 1 else parts[0]
    if plan.excluded:
        both = AndNot(both, Or(tuple(plan.excluded)))
    return budget.expanded(both, index, work)


def prepared(
    typed: Typed, game: str | None, kind: str | None, limit: int, work: budget.Work
) -> tuple[Plan, list[Node], int] | None:
    """The plan of ``typed``, the parts every hit needs, and ``limit`` kept within 1 to `budget.RESULTS`;
    None when there is nothing to search."""
    planned = plan(typed, game, kind, work)
    every = planned.required + [q for _, q in planned.words]
    if not (planned.words or typed.clauses or typed.prefixes) or not every:
        return None
    return planned, every, max(1, min(limit, budget.RESULTS))


def most_words_query(planned: Plan, index: Index, work: budget.Work) -> Built:
    """The query of the second pass: the required parts and any one of the words."""
    return whole_query(planned, [*planned.required, Or(tuple(q for _, q in planned.words))], index, work)


def built_query(searcher: Index, typed: Typed, work: budget.Work) -> Built | None:
    """The query every word of ``typed`` must match, prefixes expanded within the budget
    (None: nothing to search); ``work`` gets the terms it holds."""
    planned = plan(typed, None, None, work)
    every = planned.required + [q for _, q in planned.words]
    return whole_query(planned, every, searcher, work) if every else None
