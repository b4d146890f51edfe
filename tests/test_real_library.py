"""A library holding every file of ../shared/real, built through the command line, answers with the files' text.

The manifest is written here, one document per file: its kind as ``tests/fixtures/real_counts.toml``
reads it, its date from SOURCES.md (the file's name, or its source's version). Where a source gives
no date the document is ``date_approximate``: the yumpu pages and the HTML copy of the Glossary are
dated as Glossary 1.8 (August 2002, SOURCES.md: "1.8 probable"), the two FAQ pages of Klauser's
archive, which carry no date, on 1 January 1997 (an assumption, before the dated Q&A of 9/25/97).
The build imports the card files of ../shared/cards when present (the catalog in use, whose titles the
parse weighs too). Every page is read as its kind (the two one-line copies of interleaved PDF columns since issue 50);
the 2010 Current Rulings, an excerpt that stops at Khan, is ``part = "A-K"``: it rescinds none of the rulings before
it that it does not reach.

Several documents of one kind share a day (the Glossary 1.8's introduction and its yumpu pages,
the two FAQ pages, the introduction and M-N-O page of 8/30/99): each after the first shares no
topic with it, so it is read as a part of that edition and rescinds nothing (`kb.ingest.ledger`).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from helpers import FIXTURES, SHARED
from web.cli.main import main

REAL = SHARED / "real"
pytestmark = pytest.mark.skipif(
    not REAL.is_dir(), reason="../shared/real (excerpts of real published pages) is absent (only beside the project)"
)
COUNTS = FIXTURES / "real_counts.toml"
PARTS = {"1e-crd-2010-06-11.txt": "A-K"}
"""Excerpts of a whole document declared the part they hold (the 2010 rulings run from 22nd century icon to Khan)."""
DATES = {
    "1e-cr-1997-09-25.txt": ("9/25/97", "1997-09-25"),
    "1e-cr-1998-02-13-groups-repost.txt": ("2/13/98", "1998-02-13"),
    "1e-cr-1998-10-19-web-archive.txt": ("10/19/98", "1998-10-19"),
    "1e-cr-1999-08-30-intro.txt": ("8/30/99", "1999-08-30"),
    "1e-cr-1999-08-30-mno.txt": ("8/30/99", "1999-08-30"),
    "1e-cr-2000-07-31.txt": ("7/31/00", "2000-07-31"),
    "1e-cr-2001-03-26-hz.txt": ("3/26/01", "2001-03-26"),
    "1e-cr-2001-09-24-ag.txt": ("9/24/01", "2001-09-24"),
    "1e-cr-update-2001-12-05-forum-repost.txt": ("12/5/01", "2001-12-05"),
    "1e-crd-2010-06-11.txt": ("11 June 2010", "2010-06-11"),
    "1e-faq-dilemmas.txt": ("FAQ 11", "1997-01-01~"),
    "1e-faq-missions.txt": ("FAQ 10", "1997-01-01~"),
    "1e-glossary-1.6-intro.txt": ("1.6", "1999-10-01~"),
    "1e-glossary-1.6-intro-2col.txt": ("1.6", "1999-10-01~"),
    "1e-glossary-1.8-intro.txt": ("1.8", "2002-08-01~"),
    "1e-glossary-1.9.1-intro.txt": ("1.9.1", "2013-05-01~"),
    "1e-glossary-2014-12-intro.txt": ("December 2014", "2014-12-01~"),
    "1e-glossary-stccgfaq-BQT.txt": ("1.8", "2002-08-01~"),
    "2e-cr-2007-09-21.txt": ("9/21/07", "2007-09-21"),
    "1e-rules-update-2020-03-02-trekcc.txt": ("March 2020", "2020-03-02"),
    "1e-rules-update-2021-10-04-trekcc.txt": ("October 2021", "2021-10-04"),
    "2e-official-rulings.txt": ("trekcc.org", "2017-06-06"),
    "2e-rulebook-1.1.txt": ("1.1", "2003-08-19"),
    "2e-rulebook-glossary-d.txt": ("1.1", "2003-08-19~"),
}
"""Each file's version and date (``~``: approximate); the yumpu pages are Glossary 1.8's."""


def manifest() -> str:
    """A manifest listing every file of ../shared/real, oldest first (the file's name breaks ties)."""
    counts = tomllib.loads(COUNTS.read_text(encoding="utf-8"))
    names = sorted((p.name for p in REAL.glob("*.txt")), key=lambda n: (DATES.get(n, ("1.8", "2002-08-01~"))[1], n))
    tables = []
    for name in names:
        version, date = DATES.get(name, ("1.8", "2002-08-01~"))
        game = "stccg-2e" if name.startswith("2e-") else "stccg"
        kind = counts[name]["kind"]
        lines = [
            "[[document]]",
            f'id = "{name.removesuffix(".txt").replace(".", "-").lower()}"',
            f'file = "{game}/{name}"',
            f'game = "{game}"',
            f'kind = "{kind}"',
            f'title = "{kind} {name}"',
            f'version = "{version}"',
            f'date = "{date.rstrip("~")}"',
        ]
        lines += ["date_approximate = true"] if date.endswith("~") else []
        lines += [f'part = "{PARTS[name]}"'] if name in PARTS else []
        lines += ['part = "introduction"'] if "-intro" in name and kind == "glossary" else []
        tables.append("\n".join(lines))
    return "\n\n".join(tables) + "\n"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("real-library")
    library = root / "library"
    for game in ("stccg", "stccg-2e"):
        (library / game).mkdir(parents=True)
    for path in REAL.glob("*.txt"):
        game = "stccg-2e" if path.name.startswith("2e-") else "stccg"
        (library / game / path.name).write_bytes(path.read_bytes())
    (library / "library.toml").write_text(manifest(), encoding="utf-8")
    cards = [arg for path in sorted((SHARED / "cards").glob("*.csv")) for arg in ("--cards", str(path))]
    assert main(["build", "--library", str(library), "--kb", str(root / "kb"), *cards]) == 0
    return root / "kb"


TOPICS = [
    # (game, topic, search query, the query's hit holding it, its text: exactly the file's words, its file)
    (
        "stccg",
        "Tama",
        "Tama lore",
        0,
        'The lore on this ship is written in Tamarian. The phrase "Dathon, speaking first" means that Dathon is its '
        "captain and thus its matching commander.",
        "1e-glossary-stccgfaq-BQT.txt",
    ),
    (
        "stccg",
        "Homefront",
        "Ketracel-White",
        0,
        "This incident has no effect on headquarters game text allowing seeding or playing of the headquarters or "
        "co-existence with another facility, or on normal reporting to the headquarters. A player without 4 SECURITY "
        "on the planet is prevented only from using text allowing free card plays and The Great Link's text keeping "
        "Ketracel-White from counting down.\n\nA SECURITY personnel downloaded with this incident may not report for "
        "free using the text of a headquarters or other card. Your normal card play is an explicit cost of the "
        "download.",
        "1e-cr-2001-03-26-hz.txt",
    ),
    (
        "stccg-2e",
        "Naming a Number",
        "positive integer",
        0,
        "When a player names a number, he or she must choose zero or a positive integer.",
        "2e-official-rulings.txt",
    ),
    (
        "stccg",
        'What "turns" does the Time Travel Pod refer to?',
        "Time Travel Pod turns",
        0,  # the Glossary's Fractal Encryption Code mentions the Pod but points to no text of it: no precedence
        'It should refer to "full turns (of the player the Pod is played on)." As with all cards that don\'t specify '
        "otherwise, it refers to the full turns of the player the card is played upon.",
        "1e-cr-1997-09-25.txt",
    ),
    (
        "stccg-2e",
        "A Klingon Matter",
        "dies requirements stopped",
        0,
        "Whether someone dies or not, if you do not meet the requirements, all your other personnel are stopped.",
        "2e-cr-2007-09-21.txt",
    ),
    (
        "stccg",
        "Rules Update, October 2021, ruling 2",
        "repeatedly download outpost",
        0,
        "Over the course of a game, using multiple copies of Consume: Outpost, you may repeatedly download the exact "
        "same outpost from outside the game, even after that outpost has been placed out-of-play.",
        "1e-rules-update-2021-10-04-trekcc.txt",
    ),
]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("game", "topic", "query", "place", "text", "name"), TOPICS, ids=[t[1] for t in TOPICS])
def test_show_and_search_give_the_files_text(
    kb: Path, capsys: pytest.CaptureFixture[str], game: str, topic: str, query: str, place: int, text: str, name: str
) -> None:
    """``show`` of the topic and ``search`` of words of its text give its file's text, cited from that file."""
    source = words((REAL / name).read_text(encoding="utf-8"))
    assert all(words(paragraph) in source for paragraph in text.split("\n\n"))
    document = name.removesuffix(".txt").replace(".", "-").lower()
    parts = run_json(capsys, "show", "--kb", str(kb), "--game", game, "--json", topic)["parts"]
    assert [(p["text"], p["status"], p["citation"]["document"]) for p in parts] == [(text, "active", document)]
    hits = run_json(capsys, "search", "--kb", str(kb), "--game", game, "--json", "--limit", "3", query)["results"]
    assert (hits[place]["headword"], hits[place]["text"], hits[place]["citation"]["document"]) == (
        topic,
        text,
        document,
    )


def test_a_cut_off_introduction_is_shown_partial(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Glossary's "How to use the Glossary" in force is the December 2014 text, which the excerpt cuts off (the
    fifth version: 1.6 read twice, its one-line copy of two columns read since issue 50)."""
    part = run_json(capsys, "show", "--kb", str(kb), "--json", "How to use the Glossary")["parts"][0]
    assert (part["citation"]["document"], part["number"], part["of"]) == ("1e-glossary-2014-12-intro", 5, 5)
    assert part["text"].endswith(
        "versions with new lore and images) to use the revised wordings. Other cards will use the ne"
    )
    assert part["partial"] == (
        "Partial text: its source is cut off here, mid-text; the rest of this entry is not in this library."
    )


def test_documents_of_one_day_rescind_nothing_of_each_other(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The FAQ pages of one day are parts of one FAQ: the second (missions) keeps the first's DILEMMAS, until
    the Q&A of 9/25/97, a whole FAQ, ends both; the M-N-O page of 8/30/99 is not ended by the introduction of
    the same day, nor by the 7/31/00 page, whose excerpt holds no ruling."""
    on = {"--as-of": "1997-09-24"}
    dilemmas = run_json(capsys, "show", "--kb", str(kb), "--json", *on.popitem(), "DILEMMAS")["parts"]
    assert [(p["status"], p["citation"]["document"]) for p in dilemmas] == [("active", "1e-faq-dilemmas")]
    martok = run_json(capsys, "history", "--kb", str(kb), "--json", "MARTOK")["versions"]
    assert [(v["valid_from"], v["valid_to"], v["citation"]["document"]) for v in martok] == [
        ("1999-08-30", None, "1e-cr-1999-08-30-mno")
    ]
