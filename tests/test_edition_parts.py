"""Editions published in parts and texts cut off, built for real from ``tests/fixtures/parts``.

A full Current Rulings of 1/15/01, then an edition of 6/4/01 published as two halves (A-G, H-Z),
each declared whole: the second shares no topic with the first, so it is a part of the edition
and rescinds none of the first's rulings (warned, naming both). Its last ruling is cut off
mid-word (``... if its condit``): its version is partial, and ``show`` says so.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES
from kb.ingest.pipeline import BuildReport, build
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app
from web.cli.main import main

PARTS = FIXTURES / "parts"
JUNE = dt.date(2001, 6, 4)
CUT = "Partial text: its source is cut off here, mid-text; the rest of this entry is not in this library."


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildReport]:
    root = tmp_path_factory.mktemp("parts")
    shutil.copytree(PARTS, root / "library")
    return root / "kb", build(root / "library", root / "kb")


def standing(kb: Path, topic: str) -> tuple[str, str, str]:
    part = KnowledgeBase(current(kb)).show(topic, JUNE)["parts"][0]
    return part["status"], part["citation"]["document"], part["text"]


def test_the_second_half_of_one_day_rescinds_nothing_of_the_first(built: tuple[Path, BuildReport]) -> None:
    kb, report = built
    assert standing(kb, "artifact") == (
        "active",
        "cr-2001-06-04-ag",
        "An artifact earned at a mission goes to its player's hand.",
    )
    assert standing(kb, "battle") == (
        "active",
        "cr-2001-06-04-ag",
        "Each player's ships in a battle fire at once; damage is applied after both have fired.",
    )
    assert standing(kb, "Hunter Gangs")[:2] == ("active", "cr-2001-06-04-hz")
    ended = KnowledgeBase(current(kb)).history("zero point")["versions"][-1]
    assert (ended["ended"], ended["valid_to"]) == ("rescinded", "2001-06-04")  # the A-G half is whole: it omits it
    assert [w.replace(f"{kb.parent / 'library'}/", "") for w in report.warnings if "shares no topic" in w] == [
        "stccg/current-rulings-2001-06-04-hz.txt: cr-2001-06-04-hz is declared whole but shares no topic with "
        "cr-2001-06-04-ag (stccg/current-rulings-2001-06-04-ag.txt), of the same kind and day: read as parts of "
        "one edition, cr-2001-06-04-hz rescinds nothing (not the 2 topic(s) of cr-2001-06-04-ag)"
    ]


def test_a_ruling_cut_off_mid_word_is_shown_partial(
    built: tuple[Path, BuildReport], capsys: pytest.CaptureFixture[str]
) -> None:
    kb, _ = built
    capsys.readouterr()
    assert main(["show", "--kb", str(kb), "--json", "--as-of", "2001-06-04", "tribble"]) == 0
    part = json.loads(capsys.readouterr().out)["parts"][0]
    assert (
        part["text"] == "A tribble card stays in play when bred, unless its player chooses to discard it if its condit"
    )
    assert (part["partial"], part["note"]) == (
        CUT,
        "cut off where its source ends: the rest of this text is not in the document",
    )
    assert main(["show", "--kb", str(kb), "--as-of", "2001-06-04", "Hunter Gangs"]) == 0
    assert "Partial" not in capsys.readouterr().out
    assert main(["show", "--kb", str(kb), "--as-of", "2001-06-04", "tribble"]) == 0
    assert capsys.readouterr().out.splitlines()[2:6] == [
        "    PARTIAL TEXT: its source is cut off here, mid-text; the rest of this entry is not in",
        "    this library.",
        "    A tribble card stays in play when bred, unless its player chooses to discard it if its",
        "    condit",
    ]
    page = create_app({"KB": str(kb)}).test_client().get("/entry/stccg:tribble?as_of=2001-06-04")
    assert page.status_code == 200
    assert (
        '<p class="partial"><strong>Partial text:</strong> its source is cut off here, mid-text; the rest of this'
        " entry is not in this library.</p>"
    ) in page.get_data(as_text=True)
