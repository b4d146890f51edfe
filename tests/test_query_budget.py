"""The query budget, through the real Whoosh index of the bundled knowledge base: hostile
queries and decks do bounded work (terms expanded, parts built, documents examined, names
compared), normal queries are unchanged."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh import query

from kb.engine import budget
from kb.engine.planning import engine_query
from kb.paths import current
from kb.query import KnowledgeBase
from kb.read.cards import DECK_LINES, SUGGESTED
from kb.search import history as history_search
from kb.search.in_force import run
from kb.search.plans import WORD_FIELDS, built_query, word_query
from kb.search.questions import MAX_QUERY, read_query


@pytest.fixture(scope="module")
def bundled(bundled_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(bundled_root))


def expanded(kb: KnowledgeBase, text: str) -> tuple[query.Query | None, budget.Work]:
    searcher, _ = kb.searchers.searcher(None)
    work = budget.Work()
    return built_query(searcher, read_query(text), work), work


def headwords(answer: dict[str, object]) -> list[str]:
    return [hit["headword"] for hit in answer["results"]]  # type: ignore[attr-defined, index]


def test_stop_words_alone_are_searched_once_each(bundled: KnowledgeBase) -> None:
    assert read_query("the a of and the a of").words == ["the", "a", "of", "and"]
    repeated, once = bundled.search("the a of and the a of"), bundled.search("the a of and")
    assert headwords(repeated) == headwords(once) and len(headwords(once)) == 20
    assert (repeated["partial"], repeated["left_out"]) == (False, [])
    _, work = expanded(bundled, "the a of and the a of")
    assert work.terms == 4 * len(WORD_FIELDS) == 24


def test_a_judges_question_words_are_not_searched() -> None:
    # "how many", "how much", "just", "but", "still" ask; the rest is what is asked about
    assert read_query("how much lore does questing give me").words == ["lore", "questing", "give"]
    assert read_query("can an exerted item still use abilities").words == ["exerted", "item", "use", "abilities"]
    assert read_query("can a character I just played sing").words == ["character", "played", "sing"]
    assert read_query("how many seed cards").words == ["seed", "cards"]


def test_a_repeated_word_is_the_word(bundled: KnowledgeBase) -> None:
    assert read_query("ship ship ship").words == read_query("ship SHIP Ship, ship").words == ["ship"]
    assert read_query("ship " * 100).words == ["ship"]
    assert headwords(bundled.search("ship ship ship")) == headwords(bundled.search("ship"))
    built, work = expanded(bundled, "ship " * 100)
    assert built == engine_query(word_query("ship")) and work.terms == len(WORD_FIELDS) == 6


def test_one_letter_prefixes_are_words(bundled: KnowledgeBase) -> None:
    assert read_query("a* b* c*").prefixes == ["b", "c"]  # "a" is a filler word
    built, work = expanded(bundled, "a* b* c*")
    assert built == query.And([engine_query(word_query("b")), engine_query(word_query("c"))])
    assert work.terms == 12 and not work.capped


def test_a_prefix_expands_to_its_most_frequent_terms(bundled: KnowledgeBase) -> None:
    searcher, _ = bundled.searchers.searcher(None)
    reader = searcher.reader()
    completions = [t.decode() for t in reader.expand_prefix("text", "co")]
    assert len(completions) == 53 > budget.EXPANSIONS  # stems of inflections only: collection, collector...
    frequent = sorted(completions, key=lambda t: (-reader.doc_frequency("text", t), t))[: budget.EXPANSIONS]
    built, work = expanded(bundled, "co*")
    assert isinstance(built, query.Or)
    headword_part, cards_part, text_part = built.subqueries
    assert [t for _, t in text_part.iter_all_terms()] == sorted(frequent)
    assert (len(headword_part.subqueries), len(cards_part.subqueries)) == (12, 4)
    assert work.capped and work.terms == 12 + 4 + budget.EXPANSIONS == 32
    assert bundled.search("co*")["partial"] is True
    assert bundled.search("tribb*")["partial"] is False


def test_many_prefixes_stay_within_the_terms(bundled: KnowledgeBase) -> None:
    typed = " ".join(f"{a}{b}*" for a in "cdrs" for b in "aeiou")
    parts = [p for p in typed.split() if p not in ("do*", "so*")]  # "do" and "so" are filler words
    assert read_query(typed).left_out == parts[budget.PARTS :]
    kept = budget.TERMS // (3 * budget.EXPANSIONS)
    built, work = expanded(bundled, typed)
    assert built is not None and budget.leaf_terms(built) == work.terms <= budget.TERMS
    assert bundled.search(typed)["left_out"] == parts[budget.PARTS :] + parts[kept : budget.PARTS]


def test_exclusions_do_not_crowd_out_the_words_searched(bundled: KnowledgeBase) -> None:
    text = " ".join(f"-{c}{c}*" for c in string.ascii_lowercase) + " conundrum"
    assert read_query(text).words == ["conundrum"]
    assert headwords(bundled.search(text))[0] == "Conundrum"


def test_parts_over_the_budget_are_left_out(bundled: KnowledgeBase) -> None:
    words = [f"word{n}" for n in range(30)]
    typed = read_query(" ".join(words))
    assert typed.words == words[: budget.PARTS] and typed.left_out == words[budget.PARTS :]


def test_collection_stops_at_the_deadline_with_the_hits_so_far(bundled: KnowledgeBase) -> None:
    searcher, allowed = bundled.searchers.searcher(bundled.built_on)  # the in-force index: one document per version
    ship = read_query("ship")
    whole = run(searcher, ship, allowed, None, None, 5, work=budget.Work())
    late = budget.Work(deadline=0.0)
    assert run(searcher, ship, allowed, None, None, 5, work=late) == [] and late.stopped
    assert len(whole) == 5 and late.examined == 0
    few = budget.Work(documents=3)
    assert len(run(searcher, ship, allowed, None, None, 5, work=few)) == 3
    assert (few.examined, few.stopped) == (3, True)


HOSTILE = st.one_of(
    st.text(max_size=600),
    st.lists(st.sampled_from(["the", "a", "of", "and", "ship", "Ship", "conundrum", "is", "to"]), max_size=200).map(
        " ".join
    ),
    st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=4).map(lambda w: w + "*"), max_size=150).map(
        " ".join
    ),
    st.lists(
        st.sampled_from(["conondrum", "dilema", "spacelin", "persnnel", "artefact", "shipp", "tribbel"]), max_size=80
    ).map(" ".join),
    st.lists(st.sampled_from([*"!@#$%^&*()[]{};:'\",.<>/?\\|`~-_=+", "-", "card:", "kind:", '"']), max_size=500).map(
        "".join
    ),
    st.text(string.ascii_letters, min_size=400, max_size=600),
    st.lists(
        st.sampled_from(["-ship", '"away team"', "card:Runabout", "co*", "-re*", 'headword:"x y z"']), max_size=100
    ).map(" ".join),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HOSTILE)
def test_hostile_queries_do_bounded_work(bundled: KnowledgeBase, text: str) -> None:
    typed = read_query(text)
    assert len(typed.clauses) + len(typed.prefixes) + len(typed.words) <= budget.PARTS
    assert len(typed.words) == len(set(typed.words))
    built, work = expanded(bundled, text)
    assert work.terms <= budget.TERMS
    assert built is None or budget.leaf_terms(built) == work.terms
    assert built is None or not any(isinstance(q, (query.Prefix, query.FuzzyTerm)) for q in built.leaves())
    searchers = bundled.searchers
    for searcher, every in ((searchers.searcher(bundled.built_on)[0], False), (searchers.history_searcher(None), True)):
        work = budget.Work()
        if every:
            assert searcher is not None
            history_search.run(searcher, typed, None, None, None, 20, work=work)
        else:
            run(searcher, typed, None, None, None, 20, work=work)
        assert work.examined <= 2 * budget.DOCUMENTS and work.terms <= 2 * budget.TERMS  # all words, then most
    answer = bundled.search(text)
    assert len(answer["query"]) <= MAX_QUERY and set(typed.left_out) <= set(answer["left_out"])


def test_a_deck_of_unknown_names_is_read_within_the_budget(bundled: KnowledgeBase) -> None:
    names = [f"Nonexistent Card Number {n}" for n in range(2500)]
    answer = bundled.deck("\n".join(names))
    assert answer["skipped"] == 2500 - DECK_LINES == 2000
    assert [u["name"] for u in answer["unknown"]] == names[:DECK_LINES]
    assert sum(1 for u in answer["unknown"] if u["suggestions"]) <= SUGGESTED
    assert all(u["suggestions"] == [] for u in answer["unknown"][SUGGESTED:])
    assert answer["total"] == DECK_LINES and answer["cards"] == []


def test_a_deck_names_a_repeated_unknown_card_once(bundled: KnowledgeBase) -> None:
    answer = bundled.deck("2x Conondrum\nConondrum\nConundrum\n")
    assert answer["unknown"] == [{"name": "Conondrum", "count": 3, "suggestions": ["Conundrum"]}]
    assert answer["skipped"] == 0 and answer["total"] == 4
