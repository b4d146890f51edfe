"""A query plan of our own (`kb.plan`, issue 53): the planner (`kb.search.plans`) makes its nodes
from the words typed, and the engine (`kb.engine.planning`) alone makes Whoosh's queries of
them, node for node (the answers byte-identical: `bench/dump_answers.py`, `bench/answers.py`)."""

from __future__ import annotations

from whoosh import query

from kb.engine import budget
from kb.engine.planning import engine_query
from kb.plan import And, AndNot, Or, Phrase, Prefix, Term
from kb.search.plans import plan, prefix_query, word_query
from kb.search.questions import read_query

FIELDS = ("headword", "headstem", "cards", "cardstem", "text", "extra")


def test_a_word_is_planned_in_every_searched_field() -> None:
    # the names' fields take the word as typed, the others its stem; a compound needs both parts
    assert word_query("ships") == Or(tuple(Term(f, "ships" if f in ("headword", "cards") else "ship") for f in FIELDS))
    assert word_query("bio-ship") == Or(tuple(And((Term(f, "bio"), Term(f, "ship"))) for f in FIELDS))
    assert prefix_query("mis") == Or((Prefix("headword", "mis"), Prefix("cards", "mis"), Prefix("text", "mis")))


def test_a_query_is_planned_in_parts_of_our_own() -> None:
    planned = plan(read_query('"seed phase" -dilemma mis* ship'), "stccg", None, budget.Work())
    phrase = Or(tuple(Phrase(f, ("seed", "phase")) for f in ("headword", "cards", "text", "extra")))
    assert planned.required == [phrase, prefix_query("mis"), Term("game", "stccg")]
    assert planned.words == [("ship", word_query("ship"))]
    assert planned.excluded == [word_query("dilemma")]


def test_the_engine_makes_whooshs_query_node_for_node() -> None:
    planned = AndNot(
        And((Term("text", "seed"), Phrase("text", ("seed", "phase")), Term("headword", "seed", boost=2.0))),
        Or((Prefix("headword", "mi"),)),
    )
    assert engine_query(planned) == query.AndNot(
        query.And([query.Term("text", "seed"), query.Phrase("text", ["seed", "phase"]),
                   query.Term("headword", "seed", boost=2.0)]),
        query.Or([query.Prefix("headword", "mi")]),
    )  # fmt: skip
    assert engine_query(planned) != engine_query(AndNot(planned.kept, Or((Prefix("headword", "mis"),))))
