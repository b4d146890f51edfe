"""A fused analyser (`kb.engine.fused`) yields exactly the tokens of the schema's chain it stands for.

For every word field of every document the indexes are written from (the in-force index's
one document per version, the history index's one per topic), on the bundled library, the
history fixture library and five months of the stress benchmark library, the token streams
of the schema's analyser and of the fused analyser the writer uses instead must be equal:
text, position, characters, boost, one token after another; and so must what each field
gives the writer (terms, frequencies, weights, encoded positions). And a build writes the
same index as one written with the schema's chains.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from whoosh import highlight, index

from kb import layout
from kb.engine import fused
from kb.engine.fused import FusedAnalyzer
from kb.engine.highlighting import PASSAGES, EarlierOnTies
from kb.engine.indexes import fused_analysers, schema_of
from kb.engine.writing import fused_writing
from kb.index import history
from kb.index import writer as kb_index
from kb.ingest import incremental
from kb.ingest.pipeline import build as build_kb
from kb.ingest.pipeline import card_names_of
from kb.paths import CURRENT
from kb.search import history as history_search
from kb.search.plans import TEXT

ROOT = Path(__file__).resolve().parent.parent
TRICKY = [
    "Cha'Joh, Cha\u2019Joh and chajoh; U.S.S. Enterprise, I.K.S. Koraga, Mr. Quark [MQ] 2E.",
    "Bio-ship multi-affiliation non-Borg Borg-only-ish x-'y U.S.S.-Bozeman Cha\u2019Joh-class",
    "Stemmed: running runs ran ... \u0130stanbul \u00c9TAT caf\u00e9s na\u00efve \u212b strasse stra\u00dfe __init__",
    "first \u241e second version \u241e \u241e third-part words \u241e",
    "",
    "\u241e",
    "- -- ' . [] [x] a-b-c-d-e-f",
]


def tokens(analyser: Any, text: str) -> list[tuple[Any, ...]]:
    """Every token as the writer reads it (`whoosh.formats.Positions.word_values`), with its characters."""
    return [
        (t.text, t.pos, t.startchar, t.endchar, t.boost, t.stopped)
        for t in analyser(text, positions=True, chars=True, boosts=True, mode="index")
    ]


def compare(schema: Any, fused: dict[str, FusedAnalyzer], documents: list[dict[str, Any]]) -> int:
    """Compare the chains of ``schema`` with ``fused`` on each field of ``documents``; the tokens compared."""
    count = 0
    for document in documents:
        for name, analyser in fused.items():
            value, field = str(document[name]), schema[name]
            chain = tokens(field.analyzer, value)
            assert tokens(analyser, value) == chain, (name, value)
            assert list(analyser.index(field, value)) == list(field.index(value)), (name, value)
            count += len(chain)
    return count


def documents_of(directory: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The in-force index's documents (of every version) and the history index's, of a build."""
    state = incremental.load_state(directory)
    assert state is not None
    names = card_names_of(state.links, state.catalog)
    ledger = state.ledger
    per_version = [kb_index.version_document(v, ledger.topics, names, state.seen) for v in ledger.versions]
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for document in per_version:
        by_topic.setdefault(document["topic"], []).append(document)
    return per_version, [history.topic_document(group) for group in by_topic.values()]


@pytest.fixture(scope="module")
def stress_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five months of the stress benchmark library (as `tests/test_history_search.py` builds it)."""
    root = tmp_path_factory.mktemp("fused")
    spec = importlib.util.spec_from_file_location("generate", ROOT / "bench" / "generate.py")
    assert spec and spec.loader
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    generate.generate(root / "library", profile="stress", share=0.04)
    build_kb(root / "library", root / "kb")
    return root / "kb"


def test_tricky_words_give_the_chains_tokens() -> None:
    documents = [dict.fromkeys(history.TEXT_FIELDS, text) for text in TRICKY]
    assert compare(schema_of(kb_index.FIELDS), fused_analysers(kb_index.FIELDS), documents) > 100
    assert compare(schema_of(history.FIELDS), fused_analysers(history.FIELDS), documents) > 100


@pytest.mark.parametrize("kb", ["bundled_root", "history_root", "stress_root"])
def test_every_field_of_every_document_gives_the_chains_tokens(kb: str, request: pytest.FixtureRequest) -> None:
    directory = (request.getfixturevalue(kb) / CURRENT).resolve()
    per_version, per_topic = documents_of(directory)
    assert per_version and per_topic
    assert compare(schema_of(kb_index.FIELDS), fused_analysers(kb_index.FIELDS), per_version) > 1000
    assert compare(schema_of(history.FIELDS), fused_analysers(history.FIELDS), per_topic) > 1000


def postings(directory: Path) -> tuple[list[Any], list[Any], Any]:
    """Every term's postings (document, weight, encoded positions), every stored document, and the schema."""
    ix = index.open_dir(str(directory))
    with ix.reader() as reader:
        terms = []
        for fieldname, text in reader.all_terms():
            matcher = reader.postings(fieldname, text)
            found = []
            while matcher.is_active():
                found.append((matcher.id(), matcher.weight(), matcher.value()))
                matcher.next()
            terms.append((fieldname, text, found))
        stored = [dict(reader.stored_fields(n)) for n in range(reader.doc_count_all())]
        lengths = [[reader.doc_field_length(n, f) for f in ix.schema.scorable_names()] for n in range(len(stored))]
    return terms, [stored, lengths], ix.schema


def test_a_build_writes_the_index_the_chains_write(history_root: Path, tmp_path: Path) -> None:
    """The history index of a build, and one written by the schema's chains from the same state."""
    directory = (history_root / CURRENT).resolve()
    _, per_topic = documents_of(directory)
    writer = index.create_in(str(tmp_path), schema_of(history.FIELDS)).writer()
    for document in per_topic:
        writer.add_document(**document)
    writer.commit()
    built, by_chain = postings(directory / "index"), postings(tmp_path)
    assert built[0] == by_chain[0] and built[1] == by_chain[1]
    assert [type(f.analyzer).__name__ for _, f in built[2].items()] == [
        type(f.analyzer).__name__ for _, f in by_chain[2].items()
    ]


def test_fused_writing_gives_the_schema_back_on_failure(tmp_path: Path) -> None:
    writer = index.create_in(str(tmp_path), schema_of(history.FIELDS)).writer()
    with pytest.raises(ValueError, match="stop"), fused_writing(writer, fused_analysers(history.FIELDS)):
        assert writer.schema["text"].index.func.__self__.mark == layout.MARK
        writer.add_document(topic="x", text="a \u241e b", versions=())
        raise ValueError("stop")
    writer.cancel()
    assert "index" not in vars(writer.schema["text"]) and writer.schema == schema_of(history.FIELDS)


@pytest.mark.parametrize("kb", ["bundled_root", "history_root"])
def test_a_snippet_marked_by_the_fused_analyser_is_the_chains(kb: str, request: pytest.FixtureRequest) -> None:
    """A search over every version marks its snippets with `history_search.MARKING`: the
    very snippets the query's text analyser (`kb.search.plans.TEXT`) gives, for every version's text."""
    per_version, _ = documents_of((request.getfixturevalue(kb) / CURRENT).resolve())
    texts = [str(d["text"]) for d in per_version] + TRICKY
    marked = 0
    for terms in ({"ship", "dilemma"}, {"mission", "attempt"}, {"bio", "ship", "multi", "affili"}, {"seed", "card"}):
        for text in texts:
            with_chain = highlight.highlight(text, terms, TEXT, *snippet_parts(), top=PASSAGES, scorer=EarlierOnTies())
            assert history_search.mark(text, terms) == with_chain, (terms, text)
            marked += "<mark" in with_chain
    assert marked > 20
    assert isinstance(history_search.MARKING, FusedAnalyzer) and history_search.MARKING.terms


def snippet_parts() -> tuple[Any, Any]:
    return highlight.ContextFragmenter(maxchars=240, surround=60), highlight.HtmlFormatter(
        tagname="mark", between=" … "
    )


def test_an_analysers_table_of_words_is_bounded_in_bytes_however_many_new_words_it_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each new word a server is asked adds to what an analyser keeps: `kb.engine.fused.TERMS` bounds it
    (it grew without end), and a word analysed after the table started afresh gets the same terms."""
    monkeypatch.setattr(fused, "TERMS", 64 << 10)
    analyzer = FusedAnalyzer(stemmed=True)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [f"zork{letters[n // 676]}{letters[n // 26 % 26]}{letters[n % 26]}ing" for n in range(3_000)]
    words += ["missions", "Bio-ship"]
    found = [analyzer.term(word) for word in words]
    assert 0 < analyzer.weighs <= 64 << 10 and 0 < len(analyzer.terms) < 1_000
    assert found[-2:] == ["mission", None] and analyzer.term("missions") == "mission"
    fresh = FusedAnalyzer(stemmed=True)
    asked = "zorkabcing Missions zorkdefing"
    assert [t.text for t in analyzer(asked)] == [t.text for t in fresh(asked)] == ["zorkabc", "mission", "zorkdef"]
