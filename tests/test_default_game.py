"""Issue 36 item 3: a library has a default game (the manifest's top-level ``game``, else the game
with the most documents); searches and the Changes page answer within it unless asked otherwise
(``any``), other games' hits below a divider, the choice kept; through the real app, CLI and builds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from helpers import SEEDS
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from rulings.manifest import ManifestError
from web.app import create_app
from web.cli.main import main


def games_of(client: FlaskClient, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return [r["game"] for r in response.get_json()["results"]]


def test_a_search_answers_the_default_game_only(bundled_root: Path) -> None:
    client = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    with KnowledgeBase(current(bundled_root)) as kb:
        assert kb.default_game() == "stccg"
        assert [r["game"] for r in kb.search("ship")["results"]].count("neutral-zone") == 10  # the API: any game
    assert set(games_of(client, "/index.json?q=attack")) == {"stccg"}
    assert set(games_of(client, "/index.json?q=ship")) == {"stccg"}
    assert games_of(client, "/index.json?q=ship").count("stccg") == 20
    # other games' hits below a divider, with the way to search every game
    text = client.get("/?q=attack").get_data(as_text=True)
    results, below = text.split('<hr class="other-games-divider">')
    assert "other game:" not in results
    assert below.count('<span class="badge other-game">other game: neutral-zone</span>') == 5  # at most ELSEWHERE
    assert '<a href="/?q=attack&amp;game=any">Search every game</a>' in below
    assert client.get("/index.json?q=attack").get_json()["elsewhere"][0]["game"] == "neutral-zone"
    assert games_of(client, "/index.json?q=ship&game=any").count("neutral-zone") == 10


def test_the_choice_is_kept_and_any_is_a_choice(bundled_root: Path) -> None:
    client = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    response = client.get("/?q=ship&game=any")
    assert "game=any" in response.headers["Set-Cookie"]
    assert '<option value="any" selected>any</option>' in response.get_data(as_text=True)
    assert "neutral-zone" in games_of(client, "/index.json?q=ship")  # remembered
    client.get("/?q=ship&game=neutral-zone")
    assert set(games_of(client, "/index.json?q=ship")) == {"neutral-zone"}


def test_the_changes_page_has_a_game_control_and_opens_on_the_default_game(bundled_root: Path) -> None:
    client = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    text = client.get("/diff").get_data(as_text=True)
    assert '<label>Game <select name="game"><option value="any">any</option><option>neutral-zone</option>' in text
    assert "<option selected>stccg</option>" in text
    assert "What the latest document changed: " in text and "Current Rulings Update (11/27/00)" in text
    assert "Conflict in the Neutral Zone" not in text
    everything = client.get("/diff?game=any").get_data(as_text=True)
    assert "Star Trek: Conflict in the Neutral Zone Rulebook" in everything


def test_the_cli_searches_the_default_game_unless_asked(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "ship", "--kb", str(bundled_root)]) == 0
    out = capsys.readouterr().out
    assert "other game" not in out and out.startswith("20 result(s) for 'ship'")
    assert main(["search", "ship", "--game", "any", "--kb", str(bundled_root)]) == 0
    assert capsys.readouterr().out.count("(other game: neutral-zone)") == 10
    # a search within a game named is not "other game" to it, nor its hits
    assert main(["search", "ship", "--game", "neutral-zone", "--kb", str(bundled_root)]) == 0
    out = capsys.readouterr().out
    assert "other game" not in out and out.count("\n1. ") == 1


def test_without_the_key_the_game_with_the_most_documents_is_the_default(tmp_path: Path) -> None:
    library = tmp_path / "library"
    shutil.copytree(SEEDS, library)
    manifest = library / "library.toml"
    manifest.write_text(manifest.read_text().replace('game = "stccg"\n\n', "", 1))
    build(library, tmp_path / "kb")
    with KnowledgeBase(current(tmp_path / "kb")) as kb:
        assert kb.default_game() == "stccg"  # three documents to the Neutral Zone's one
    manifest.write_text('game = "neutral-zone"\n' + manifest.read_text())
    build(library, tmp_path / "kb")
    with KnowledgeBase(current(tmp_path / "kb")) as kb:
        assert kb.default_game() == "neutral-zone"
    manifest.write_text(manifest.read_text().replace('game = "neutral-zone"', 'game = "mtg"', 1))
    with pytest.raises(
        ManifestError, match=r"key 'game': 'mtg' is not a game of the documents \(neutral-zone, stccg\)"
    ):
        build(library, tmp_path / "kb")
