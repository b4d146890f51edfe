"""Issue 36 item 1: precedence only between texts that address the same rule (a topic's series,
a text and the texts it names), never between search hits that merely rank together, and never
in a citation; through the real app, the CLI and the export's own search over the bundled library."""

from __future__ import annotations

import html as markup
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from helpers import ROOT
from web.cli.main import main
from web.export.pages import export

sys.path.insert(0, str(ROOT / "bench"))
from offline_parity import offline_answers

needs_node = pytest.mark.skipif(
    (shutil.which("node") or shutil.which("nodejs")) is None, reason="node (Debian's nodejs) is not installed"
)
UNRELATED = ["Conundrum", "mission attempt", "docking", "commandeering", "how many seed cards"]


def hits(client: FlaskClient, query: str) -> list[dict[str, Any]]:
    response = client.get(f"/index.json?q={query}&game=stccg")
    assert response.status_code == 200
    results: list[dict[str, Any]] = response.get_json()["results"]
    return results


def standing(found: list[dict[str, Any]]) -> list[tuple[str, str, str | None, str | None]]:
    return [(r["headword"][:30], r["label"][:16], r["governs"], (r["gives_way"] or {}).get("headword")) for r in found]


def test_search_hits_of_unrelated_topics_never_govern_over_each_other(client: FlaskClient) -> None:
    assert standing(hits(client, "mission attempt")[:3]) == [
        ("mission attempt", "Current Rulings", None, None),  # it "governed over" two quick-start sections
        ("Attempting Missions", "Rulebook: Star T", None, None),
        ("MISSIONS", "Rulebook: Star T", None, None),
    ]
    assert standing(hits(client, "docking")[:3]) == [
        ("docking", "Current Rulings", None, None),
        ("Mission II", "Current Rulings", None, None),
        ("LOADING AND UNLOADING SHIPS", "Rulebook: Star T", None, None),  # it "gave way" to docking
    ]
    # the ranking's own order ("how many" asks, the words are "seed cards"), no rulebook excerpt
    # pushed below a seed deck ruling by precedence
    assert standing(hits(client, "how many seed cards")[:3]) == [
        ("seed deck", "Current Rulings", None, None),
        ("Seeding The Spaceline", "Rulebook: Star T", None, None),
        ("Star Trek CCG Rulebook (excerp", "Rulebook: Star T", None, None),
    ]
    for query in UNRELATED:
        assert all(r["governs"] is None and r["gives_way"] is None for r in hits(client, query)), query


def test_a_topics_current_rulings_still_govern_over_its_glossary_text(
    client: FlaskClient, bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert standing(hits(client, "chajoh cloak")[:3]) == [
        ("Cha'Joh", "Current Rulings", "over the Glossary text of 2000-11-27", None),
        ("Cha'Joh", "Glossary", None, "Cha'Joh"),
        ("cloaking and phasing", "Current Rulings", None, None),  # ranked beside Cha'Joh, not below it
    ]
    assert hits(client, "chajoh cloak")[1]["gives_way"]["why"] == "the Current Rulings govern over the Glossary"
    assert main(["search", "chajoh cloak", "--game", "stccg", "--kb", str(bundled_root)]) == 0
    out = capsys.readouterr().out
    assert "    GOVERNS over the Glossary text of 2000-11-27." in out.splitlines()
    assert out.count("GIVES WAY") == 1


def test_a_citation_never_carries_precedence(client: FlaskClient) -> None:
    entry = client.get("/entry/stccg:chajoh").get_data(as_text=True)
    copied = [markup.unescape(c) for c in re.findall(r'data-citation="([^"]*)"', entry)]
    assert copied[1] == (
        "Cha'Joh (Glossary, version 1 of 1):  [No text of its own: it deletes the first sentence of the Glossary"
        " entry, which is not in this library.]\n— Current Rulings Update (11/27/00), 2000-11-27, line 69"
    )
    assert '<p class="gives-way"><strong>Gives way:</strong> the Current Rulings govern over the Glossary.' in entry


@needs_node
def test_the_exports_search_arranges_its_hits_as_the_server_does(
    client: FlaskClient, bundled_root: Path, tmp_path: Path
) -> None:
    export(bundled_root, tmp_path / "site")
    queries = [*UNRELATED, "chajoh cloak"]
    server = [[r["version"] for r in hits(client, q)][:3] for q in queries]
    offline = [answer[:3] for answer in offline_answers(tmp_path / "site", queries)]
    assert offline == server
    seeds = {r["version"]: r["headword"] for r in hits(client, "how many seed cards")}
    assert [seeds[v][:20] for v in offline[4]] == ["seed deck", "Seeding The Spacelin", "Star Trek CCG Rulebo"]
