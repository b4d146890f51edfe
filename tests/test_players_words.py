"""Players' words (`kb.search.players`): a word a player brings from another game, or a judge's
shorthand, searched with the words the game's rules use for it. The files of ``kb/search/words``
are read whole; the searches run on one real release of Lorcana's Comprehensive Rules
(``../shared/lorcana-cr``, skipped without it): server, JSON, page and command line."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from helpers import NEEDS_LORCANA, ROOT
from kb.engine.planning import engine_query
from kb.query import KnowledgeBase
from kb.search import players
from kb.search.plans import _either
from kb.search.questions import read_query
from web.app import create_app
from web.cli.main import main
from web.export.pages import export

sys.path.insert(0, str(ROOT / "bench"))
from offline_parity import NODE, compare

QUESTIONS = [
    "how do mulligans work",
    "can I untap a creature",
    "what happens when a creature dies",
    "can I attack the turn a character is played",
    "ready exerted character",
]
"""Questions in a Magic player's words (and one in Lorcana's), each answered alike by the server and
the export ("can I attack ...": the server's second and first when it left out the weight of "challenge")."""


def test_each_games_file_reads_whole() -> None:
    assert players.games() == ["lorcana", "mtg"]
    lorcana, magic = players.table("lorcana"), players.table("mtg")
    assert lorcana["tap"] == ("exert",) and lorcana["untap"] == ("ready",) and lorcana["mulligan"] == ("alter",)
    assert magic["cmc"] == ("mana value", "converted mana cost")
    assert len(lorcana) == 40 and len(magic) == 22  # a key per word of the files, keyed by its stem
    assert players.table("chess") == {} and players.table("../mtg") == {}


def test_an_alternative_weighs_half_of_the_word_typed() -> None:
    typed = read_query("attack")
    typed.players = players.alternatives("lorcana", typed.words)
    built = engine_query(_either("attack", typed))  # Whoosh drops the boost of an Or of one part: put on each word
    assert {(t.text, t.boost) for t in built.leaves()} == {("attack", 1.0), ("challenge", 0.5), ("challeng", 0.5)}


def test_a_word_gets_its_games_alternatives_inflected_and_only_in_that_game() -> None:
    typed = ["Tapped", "character", "mulligans", "ship"]
    assert players.alternatives("lorcana", typed) == {"Tapped": ["exert"], "mulligans": ["alter"]}
    assert players.alternatives("mtg", typed) == {}
    assert players.alternatives(None, typed) == {}  # every game: no game's words given to the others


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[words\n", "lorcana.toml: Expected ']' at the end of a table declaration (at line 1, column 7)"),
        ('game = "lorcana"\n', "lorcana.toml: no [words] table"),
        ('[words]\n"tap out" = ["exert"]\n', "lorcana.toml: 'tap out' is not one word in lower case"),
        ('[words]\nTap = ["exert"]\n', "lorcana.toml: 'Tap' is not one word in lower case"),
        ('[words]\ntap = "exert"\n', "lorcana.toml: tap = must be a list of words"),
        ("[words]\ntap = []\n", "lorcana.toml: tap = must be a list of words"),
    ],
)
def test_a_malformed_file_is_one_line_naming_it(text: str, said: str) -> None:
    with pytest.raises(ValueError) as raised:
        players.read("lorcana.toml", text)
    assert str(raised.value) == said


def topics(answer: dict[str, object]) -> list[str]:
    return [hit["topic"] for hit in answer["results"]]  # type: ignore[attr-defined]


@NEEDS_LORCANA
def test_a_magic_players_word_finds_lorcanas_rule(lorcana: KnowledgeBase) -> None:
    # 2.2.2 "... they each may alter their hands ...": Lorcana never says "mulligan"; this library
    # holds no word near it, so nothing was found before
    answer = lorcana.search("how do mulligans work", game="lorcana", limit=3)
    assert topics(answer)[0] == "lorcana:2-2-2"
    every = lorcana.search("how do mulligans work", game="lorcana", limit=3, every_version=True)
    assert topics(every)[0] == "lorcana:2-2-2"  # the history index, planned alike
    assert answer["also_searched"] == {"mulligans": ["alter"]}
    assert answer["unmatched"] == ["work"] and answer["corrected"] is None  # "mulligans" matched, not mended
    # words in a row: 1.10.1.1 "... can't contain more than 4 cards with the same full name"
    copies = lorcana.search("how many copies of the same card can I run", game="lorcana")
    assert "lorcana:1-10-1-1" in topics(copies)[:3]


@NEEDS_LORCANA
def test_the_typed_word_is_kept_and_no_game_or_exact_gives_none(lorcana: KnowledgeBase) -> None:
    # "exert" typed with "tap": the rule holding both words is found as for "exert" alone
    assert lorcana.search("tap exert", game="lorcana")["also_searched"] == {"tap": ["exert"]}
    assert lorcana.search("how do mulligans work", limit=3)["also_searched"] == {}
    assert lorcana.search("how do mulligans work", game="lorcana", exact=True)["also_searched"] == {}


@NEEDS_LORCANA
def test_the_page_and_the_command_line_say_what_was_also_searched(lorcana_root: Path) -> None:
    client = create_app({"KB": str(lorcana_root), "TESTING": True}).test_client()
    page = client.get("/?q=can+I+untap+a+creature&game=lorcana").get_data(as_text=True)
    assert (
        '<p class="also-searched">Also searched, in the game\'s own words: <strong>untap</strong> as '
        "<strong>ready</strong>; <strong>creature</strong> as <strong>character</strong>.</p>"
    ) in page
    found = client.get("/index.json?q=can+I+untap+a+creature&game=lorcana").get_json()
    assert found["also_searched"] == {"untap": ["ready"], "creature": ["character"]}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["search", "can I untap a creature", "--kb", str(lorcana_root), "--game", "lorcana", "--limit", "1"])
    said = "Also searched, in the game's own words: untap as ready; creature as character."
    assert out.getvalue().splitlines()[0] == said
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["search", "mulligan", "--kb", str(lorcana_root), "--game", "lorcana", "--json"])
    assert json.loads(out.getvalue())["also_searched"] == {"mulligan": ["alter"]}


@NEEDS_LORCANA
@pytest.mark.skipif(NODE is None, reason="node (Debian's nodejs) is not installed")
def test_the_export_searches_the_players_words_as_the_server_does(lorcana_root: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    export(lorcana_root, site)
    index = json.loads((site / "search-index.json").read_text(encoding="utf-8"))
    assert index["players"]["lorcana"]["tap"] == ["exert"] and list(index["players"]) == ["lorcana"]
    assert index["players_weight"] == players.WEIGHT
    compared = compare(lorcana_root, site, QUESTIONS, game="lorcana")
    assert [c.query for c in compared if not c.same_top3] == []
    assert compared[0].offline[:1] == compared[0].server[:1] and compared[0].server  # mulligans: found at all
