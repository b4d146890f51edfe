"""Versioned entries from a fixture library: texts in force by date, history, diffs, pending.

The library is ``tests/fixtures/library`` (a Glossary 1.7, full Current Rulings of 10/30/00
and 1/29/01, an update of 12/18/00) plus the real seed update of 11/27/00 from ``data/``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kb.errors import UnknownTopic
from kb.paths import current
from kb.query import KnowledgeBase

D = dt.date.fromisoformat
ANY_1 = (
    'If a card refers to a specific Star Trek character using the word "any" (e.g., "any Miles"), it refers to any '
    "Personnel card representing the specified character (including [AU]-icon personnel, [MQ] personnel, and "
    "holograms). Impersonators are never considered true representations of the character they depict. Thus, both "
    'Chief O\'Brien and Smiley are "any Miles;" both Montgomery Scott and Mr. Scott are "any Scotty;" but Odo '
    'Founder is not "any Odo".'
)


@pytest.fixture(scope="module")
def kb(history_root: Path) -> KnowledgeBase:
    return KnowledgeBase(current(history_root))


def texts(kb: KnowledgeBase, topic: str, on: str) -> dict[str, str]:
    return {p["series"]: p["text"] for p in kb.show(topic, D(on))["parts"]}


def test_replace_first_paragraph_of_glossary_entry(kb: KnowledgeBase) -> None:
    second = 'A card that refers to "any" of a persona applies to every version of it.'
    assert texts(kb, '"any"', "2000-11-26") == {
        "glossary": 'If a card refers to a specific character using the word "any", it refers to any Personnel card '
        f"representing that character. Impersonators are not that character.\n\n{second}"
    }
    assert texts(kb, "“any”", "2000-11-27") == {"glossary": f"{ANY_1}\n\n{second}"}
    part = kb.show("any", D("2000-11-27"))["parts"][0]
    assert (part["operation"], part["note"], part["citation"]["lines"]) == ("replace-part", "", "59-61")


def test_delete_first_sentence_and_the_ruling_that_follows(kb: KnowledgeBase) -> None:
    assert texts(kb, "Cha'Joh", "2000-11-27") == {
        "glossary": "This ship is a Romulan/Klingon ship.",
        "current-rulings": "You may no longer simultaneously change the affiliations of a ship and the personnel "
        "aboard.",
    }
    assert kb.show("Cha’Joh", D("2001-02-01"))["parts"][1]["citation"]["document"] == "cr-update-2000-11-27"


def test_replace_second_then_third_paragraph(kb: KnowledgeBase) -> None:
    first = "To commandeer a ship, you need an Away Team aboard it."
    assert texts(kb, "commandeering", "2000-12-17")["glossary"].split("\n\n")[::2] == [
        first,
        "Commandeering is not capturing.",
    ]
    assert (
        texts(kb, "commandeering", "2000-12-17")["glossary"]
        .split("\n\n")[1]
        .startswith("When you commandeer a ship or facility, it comes under your control")
    )
    assert texts(kb, "commandeering", "2000-12-18")["glossary"].split("\n\n")[2] == (
        "Commandeering is a form of capturing only for the Borg."
    )
    assert [v["operation"] for v in kb.history("commandeering")["versions"]] == [
        "original",
        "replace-part",
        "replace-part",
    ]


def test_add_to_and_delete_last_sentence_of_current_rulings_entry(kb: KnowledgeBase) -> None:
    first = "If all matching personnel are removed, the mission attempt ends."
    assert texts(kb, "mission attempt", "2000-10-30") == {"current-rulings": first}
    after_add = texts(kb, "mission attempt", "2000-11-27")["current-rulings"].split("\n\n")
    assert after_add[0] == first and len(after_add) == 3
    assert after_add[2].endswith(
        "(for example, they may not wait until a mission specialist joins the Away Team or crew for bonus points)."
    )
    after_delete = texts(kb, "mission attempt", "2000-12-18")["current-rulings"].split("\n\n")
    assert (
        after_delete[2]
        == "A mission attempt may not be voluntarily aborted, either between dilemmas or before solving."
    )
    assert texts(kb, "mission attempt", "2001-01-29") == {}


def test_history_has_word_diffs(kb: KnowledgeBase) -> None:
    versions = kb.history("mission attempt")["versions"]
    assert [(v["valid_from"], v["valid_to"], v["operation"], v["status"]) for v in versions] == [
        ("2000-10-30", "2000-11-27", "original", "superseded"),
        ("2000-11-27", "2000-12-18", "add", "superseded"),
        ("2000-12-18", "2001-01-29", "delete-part", "rescinded"),
    ]
    assert versions[2]["diff"][-1] == (
        "-",
        " If you resolve all dilemmas and Q-Flashes and the remaining crew or Away Team meets the mission "
        "requirements, they must solve the mission (for example, they may not wait until a mission specialist joins "
        "the Away Team or crew for bonus points).",
    )
    assert [tuple(s) for s in kb.history("Q-Flash")["versions"][1]["diff"]] == [
        ("=", "The Q-Flash is a side deck.\n\nIt is seeded under the "),
        ("-", "Q-Continuum."),
        ("+", "Q-Continuum or Q's Tent."),
        ("=", "\n\nEncountering it triggers a Q-Flash."),
    ]


def test_update_replaces_ruling_and_restated_ruling_makes_no_version(kb: KnowledgeBase) -> None:
    versions = kb.history("Regent Worf")["versions"]
    assert [(v["valid_from"], v["operation"], v["citation"]["document"]) for v in versions] == [
        ("2000-10-30", "original", "cr-2000-10-30"),
        ("2000-11-27", "replace", "cr-update-2000-11-27"),
        ("2000-12-18", "errata", "cr-update-2000-12-18"),
    ]
    assert texts(kb, "Regent Worf", "2001-06-01") == {
        "current-rulings": 'Errata: This personnel\'s game text should read "may assign a matching commander."'
    }


def test_full_current_rulings_rescinds_what_it_omits(kb: KnowledgeBase) -> None:
    assert texts(kb, "docking", "2001-01-28") == {
        "glossary": "A ship docks at a facility by reporting there.",
        "current-rulings": "When compatibility with a facility is required to dock a ship, only the ship itself must "
        "be compatible with the facility; incompatible crew members aboard do not prevent docking. Such personnel "
        "cannot board an outpost from the ship, but they may board a Nor.",
    }
    assert texts(kb, "docking", "2001-01-29") == {"glossary": "A ship docks at a facility by reporting there."}
    assert kb.history("docking")["versions"][-1]["ended"] == "rescinded"


def test_cancel_upon_release_waits_for_the_release_date(kb: KnowledgeBase) -> None:
    assert texts(kb, "holodeck", "2000-12-24") == {"glossary": "A holodeck lets holograms exist aboard a ship."}
    assert texts(kb, "holodeck", "2000-12-25") == {}
    (version,) = kb.history("holodeck")["versions"]
    assert (version["valid_to"], version["ended"]) == ("2000-12-25", "cancelled")


def test_effective_upon_unknown_release_stays_pending(kb: KnowledgeBase) -> None:
    shown = kb.show("tribble", D("2001-06-01"))
    assert [p["series"] for p in shown["parts"]] == ["glossary"]
    (pending,) = shown["pending"]
    assert (pending["status"], pending["condition"], pending["valid_from"]) == (
        "pending",
        "upon release of Fixture Expansion B",
        None,
    )
    assert pending["text"] == "Bred tribble cards stay in play, effective upon release of Fixture Expansion B."


def test_amendment_naming_a_missing_part_is_recorded_not_applied(kb: KnowledgeBase) -> None:
    (part,) = kb.show("Conundrum", D("2000-12-18"))["parts"]
    assert part["note"] == (
        "deletes the third paragraph of the Glossary entry, but the text has 2 paragraph(s), "
        "no paragraph number 3 in the Glossary entry; not applied"
    )
    assert part["text"] == texts(kb, "Conundrum", "2000-12-17")["glossary"]


def test_diff_between_neighbouring_documents(kb: KnowledgeBase) -> None:
    diff = kb.diff(D("2000-10-30"), D("2000-11-27"))
    assert [i["headword"] for i in diff["changed"]] == [
        '"any"',
        "Cha'Joh",
        "commandeering",
        "Conundrum",
        "docking",
        "Masaka Transformations",
        "mission attempt",
        "persona",
        "Regent Worf",
        "tribble",
    ]
    assert len(diff["added"]) == 40 and diff["rescinded"] == [] and diff["pending"] == []
    assert diff["added"][0]["headword"] == "A Fast Ship Would Be Nice"


def test_diff_between_non_neighbouring_dates(kb: KnowledgeBase) -> None:
    diff = kb.diff(D("2000-08-01"), D("2001-01-29"))
    assert [i["headword"] for i in diff["added"]] == ["Regent Worf", "ship staffing", "Stop First Contact"]
    assert [i["headword"] for i in diff["changed"]] == [
        '"any"',
        "Cha'Joh",
        "commandeering",
        "Conundrum",
        "Masaka Transformations",
        "persona",
        "Q-Flash",
    ]
    assert [(i["headword"], i["ended"]) for i in diff["rescinded"]] == [("holodeck", ["cancelled"])]
    assert [(i["headword"], i["condition"]) for i in diff["pending"]] == [
        ("tribble", "upon release of Fixture Expansion B")
    ]
    only_glossary = kb.diff(D("2000-10-30"), D("2000-11-27"), kinds=["glossary"])
    assert [i["headword"] for i in only_glossary["changed"]] == [
        '"any"',
        "Cha'Joh",
        "commandeering",
        "Conundrum",
        "Masaka Transformations",
        "persona",
    ]


def test_documents_in_force(kb: KnowledgeBase) -> None:
    answer = kb.documents_in_force(D("2000-12-20"))
    assert answer["declared_by"] == "cr-update-2000-12-18"
    assert answer["complete_set"][2] == "Current Rulings (12/18/00 - full version)"
    assert [d["id"] for d in answer["documents"]] == [
        "glossary-1-7",
        "cr-2000-10-30",
        "cr-update-2000-11-27",
        "cr-update-2000-12-18",
    ]


def test_the_documents_pages_answers(kb: KnowledgeBase) -> None:
    """The documents page lists every fact of each document; a document's page cites its lines;
    the diff page's dates and the feed's newest documents are answers of their own."""
    assert kb.document_dates() == ["2000-08-01", "2000-10-30", "2000-11-27", "2000-12-18", "2001-01-29"]
    assert [d["id"] for d in kb.latest_documents(2)] == ["cr-2001-01-29", "cr-update-2000-12-18"]
    listed = kb.documents_page(D("2001-02-01"))
    assert [(d["id"], d["replaced_by"], d["line_count"]) for d in listed["replaced"]] == [
        ("cr-2000-10-30", "cr-2001-01-29", 19),
        ("cr-update-2000-11-27", "cr-2001-01-29", 187),
        ("cr-update-2000-12-18", "cr-2001-01-29", 33),
    ]
    assert [(d["id"], d["line_count"]) for d in kb.documents_page(D("2000-11-01"))["later"]] == [
        ("cr-update-2000-11-27", 187),
        ("cr-update-2000-12-18", 33),
        ("cr-2001-01-29", 15),
    ]
    page = kb.document_page("cr-update-2000-12-18", 3, 4)
    assert page is not None
    assert (page["declared_date"], page["previous_date"], page["line_count"]) == ("2000-12-18", "2000-11-27", 33)
    assert page["complete_set"][2] == "Current Rulings (12/18/00 - full version)"
    assert [line for line in page["lines"] if line["cited"]] == [
        {"number": 3, "text": "12/18/00", "cited": True},
        {"number": 4, "text": "", "cited": True},
    ]
    assert len(page["lines"]) == 33
    assert kb.document_page("no-such-document") is None


def test_unknown_topic_suggests(kb: KnowledgeBase) -> None:
    with pytest.raises(UnknownTopic) as caught:
        kb.show("conondrum")
    assert caught.value.suggestions[0] == "Conundrum"


def test_missing_base_with_only_the_bundled_seeds(bundled_root: Path) -> None:
    bundled = KnowledgeBase(current(bundled_root))
    (part,) = bundled.show("any", D("2000-11-27"))["parts"]
    assert part["text"] == ANY_1
    assert part["note"] == "replaces the first paragraph of the Glossary entry; that text is not in this knowledge base"
    (persona,) = bundled.show("persona")["parts"]
    assert persona["note"] == "adds to the Glossary entry; that text is not in this knowledge base"
    assert bundled.show("Conundrum")["parts"][0]["note"] == (
        "the source adds: this also corrects the incorrect interpretation in the 7/00 Dilemma Resolution Guide"
    )
    assert bundled.show("Conundrum", D("2000-11-26"))["parts"] == []
