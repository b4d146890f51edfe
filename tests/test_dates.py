"""Dates on every page (issue #36, item 5): a date control on the entry, card, as-of, documents,
sources and version pages
(not in the static export, which answers no other date), a later version said to be later on
the date asked, the diff page's links to what each document changed, its Changed section first
with counts that jump to their sections, and a date that is not one given back in its form with
the message beside it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from kb.paths import current
from kb.query import KnowledgeBase
from rulings.dates import title_date
from web.app import create_app
from web.export.site import Site

TODAY = dt.date.today().isoformat()
NOT_A_DATE = "is not a date (expected YYYY-MM-DD, e.g. 2000-11-27)"


def html(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_data(as_text=True)


def as_json(client: FlaskClient, url: str, status: int) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    return response.get_json()


def box(label: str, name: str, value: str, more: str = "") -> str:
    """A date box as every page writes it (macros.html ``date_box``): YYYY-MM-DD, said in its label."""
    return (
        f'<label><span>{label} <span class="format">(YYYY-MM-DD)</span></span> <input type="text" name="{name}" '
        f'value="{value}" placeholder="YYYY-MM-DD" size="10" autocomplete="off" spellcheck="false"{more}></label>'
    )


# -- a) a date control on every entry, card and as-of page ---------------------------------------


def test_an_entry_page_has_a_date_control_prefilled_with_its_date(client: FlaskClient) -> None:
    body = html(client, "/entry/stccg:commandeering")
    assert (
        '<form method="get" class="date-control" action="/entry/stccg:commandeering">\n  \n'
        "  " + box("As of", "as_of", TODAY)
    ) in body


def test_the_date_control_keeps_the_other_query_parameters(history: FlaskClient) -> None:
    versions = as_json(history, "/entry/stccg:mission-attempt.json", 200)["versions"]
    a, b = versions[0]["version"], versions[-1]["version"]
    body = html(history, f"/entry/stccg:mission-attempt?a={a}&b={b}&as_of=2000-11-01")
    control = body[body.index('class="date-control"') :].split("</form>")[0]
    assert f'<input type="hidden" name="a" value="{a}"><input type="hidden" name="b" value="{b}">' in control
    assert box("As of", "as_of", "2000-11-01") in control
    assert control.count("<input") == 3


def test_a_card_page_has_a_date_control_keeping_the_game(client: FlaskClient) -> None:
    body = html(client, "/card/Nebula?game=stccg&as_of=2000-11-27&offset=0")
    assert (
        '<form method="get" class="date-control" action="/card/Nebula">\n'
        '  <input type="hidden" name="game" value="stccg">\n'
        "  " + box("As of", "as_of", "2000-11-27")
    ) in body


def test_the_as_of_page_asks_another_date_and_lands_on_its_page(client: FlaskClient) -> None:
    body = html(client, "/asof/2000-11-27")
    assert '<form method="get" class="date-control" action="/asof">' in body
    assert box("Another date", "as_of", "2000-11-27") in body
    response = client.get("/asof?as_of=2000-11-01&game=stccg")
    assert (response.status_code, response.headers["Location"]) == (302, "/asof/2000-11-01?game=stccg")


@pytest.mark.parametrize(
    ("url", "action"),
    [
        ("/docs?as_of=2000-11-27", "/docs"),
        ("/sources/stccg:conundrum?as_of=2000-11-27", "/sources/stccg:conundrum"),
        ("/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary?as_of=2000-11-27",
         "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary"),
    ],
)  # fmt: skip
def test_the_documents_sources_and_version_pages_have_one(client: FlaskClient, url: str, action: str) -> None:
    body = html(client, url)
    control = body[body.index('<form method="get" class="date-control"') :].split("</form>")[0]
    assert control.startswith(f'<form method="get" class="date-control" action="{action}">')
    assert box("As of", "as_of", "2000-11-27") in control
    today = html(client, action)  # no date asked: the box holds the day answered, today
    assert box("As of", "as_of", TODAY) in today


def test_the_version_page_says_the_day_it_is_seen_on(client: FlaskClient) -> None:
    key = "stccg:conundrum@stccg-cr-update-2000-11-27@glossary"
    assert as_json(client, f"/version/{key}.json?as_of=2000-11-01", 200)["as_of"] == "2000-11-01"
    assert as_json(client, f"/version/{key}.json", 200)["as_of"] == TODAY


def test_the_static_export_shows_no_date_control(client: FlaskClient, bundled_root: Path) -> None:
    """The export has each entry and card as of its build day only: a date box would lead nowhere."""
    exported = create_app({"KB": str(bundled_root), "TESTING": True, "EXPORT": True, "PAGED": False}).test_client()
    pages = ("/entry/stccg:commandeering", "/card/Nebula", "/asof/2000-11-27", "/docs", "/sources/stccg:conundrum",
             "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary")  # fmt: skip
    for url in pages:
        assert 'class="date-control"' in html(client, url)
        assert "date-control" not in html(exported, url)


def test_a_later_version_is_said_to_be_later_on_the_date_asked(history: FlaskClient) -> None:
    body = html(history, "/entry/stccg:commandeering?as_of=2000-11-01")
    assert "<h2>Later versions, not yet in force on 2000-11-01</h2>" in body
    assert body.count('<span class="badge pending">later version</span>') == 2  # the history badges today's status
    assert ">pending</span>" not in body and "<h2>Pending</h2>" not in body and "Not in force:" not in body
    assert "Later version, not yet in force on 2000-11-01: in force from 2000-11-27." in body
    assert "Later version, not yet in force on 2000-11-01: in force from 2000-12-18." in body
    timeline = body[body.index('<ol class="timeline">') :].split("</ol>")[0]
    marks = [line.split('<strong class="on-date">')[1].split("</strong>")[0] for line in timeline.split("<li>")[1:]]
    assert marks == [
        "in force on 2000-11-01",
        "later version, not yet in force on 2000-11-01",
        "later version, not yet in force on 2000-11-01",
    ]

    assert 'class="on-date"' not in html(history, "/entry/stccg:commandeering")  # today: no mark


# -- d) a date that is not one: its form back, the value kept, the message beside the box -------


@pytest.mark.parametrize(
    ("url", "action", "field", "typed", "hidden"),
    [
        ("/entry/stccg:commandeering?as_of=262000-12-17", "/entry/stccg:commandeering", "as_of", "262000-12-17", []),
        ("/card/Nebula?game=stccg&as_of=2000-13-01", "/card/Nebula", "as_of", "2000-13-01", [("game", "stccg")]),
        ("/asof/2000-13-01", "/asof", "as_of", "2000-13-01", []),
        ("/?q=ship&as_of=262000-12-17", "/", "as_of", "262000-12-17", [("q", "ship")]),
    ],
)
def test_a_bad_date_gives_the_form_back_with_the_message_beside_the_box(
    client: FlaskClient, url: str, action: str, field: str, typed: str, hidden: list[tuple[str, str]]
) -> None:
    body = html(client, url, 400)
    form = body[body.index('<form method="get" class="date-control"') :].split("</form>")[0]
    assert form.startswith(f'<form method="get" class="date-control" action="{action}">')
    for name, value in hidden:
        assert f'<input type="hidden" name="{name}" value="{value}">' in form
    assert (
        f'name="{field}" value="{typed}" placeholder="YYYY-MM-DD" size="10" autocomplete="off" spellcheck="false" '
        f'aria-invalid="true" aria-describedby="{field}-error"></label>\n'
        f'  <p class="error" id="{field}-error">&#39;{typed}&#39; {NOT_A_DATE}</p>'
    ) in form
    assert "Showing the rules as they stood on" not in body  # no banner of a date that is none


def test_a_bad_diff_date_keeps_both_dates_and_the_other_filters(client: FlaskClient) -> None:
    body = html(client, "/diff?from=2000-10-30&to=262000-12-17&game=stccg&kind=glossary", 400)
    form = body[body.index('<form method="get" class="date-control" action="/diff">') :].split("</form>")[0]
    assert '<input type="hidden" name="game" value="stccg"><input type="hidden" name="kind" value="glossary">' in form
    assert box("From", "from", "2000-10-30") in form
    assert box("To", "to", "262000-12-17", ' aria-invalid="true" aria-describedby="to-error"') in form
    assert f'<p class="error" id="to-error">&#39;262000-12-17&#39; {NOT_A_DATE}</p>' in form


@pytest.mark.parametrize(
    "url", ["/entry/stccg:commandeering.json?as_of=262000-12-17", "/card/Nebula.json?as_of=2000-13-01"]
)
def test_the_json_twin_of_a_bad_date_is_a_json_error(client: FlaskClient, url: str) -> None:
    typed = url.rsplit("=", 1)[1]
    assert as_json(client, url, 400) == {
        "status": 400,
        "error": f"as_of: '{typed}' {NOT_A_DATE}",
        "field": "as_of",
        "suggestions": [],
    }


# -- b) the diff page's links open what each document changed -----------------------------------

HISTORY_DOCUMENTS = ["glossary-1-7", "cr-2000-10-30", "cr-update-2000-11-27", "cr-update-2000-12-18", "cr-2001-01-29"]


def test_each_document_links_to_what_it_changed(history: FlaskClient) -> None:
    body = html(history, "/diff?from=2000-08-01&to=2000-12-18")
    listed = body[body.index('<p class="dates">') :].split("</p>")[0]
    assert [link.split('"')[0] for link in listed.split('<a href="')[1:]] == [
        f"/diff?document={d}" for d in HISTORY_DOCUMENTS
    ]  # the dates of the range asked are not kept: the document's own are its range
    assert '<a href="/diff?document=cr-update-2000-11-27">2000-11-27 Current Rulings Update (11/27/00)</a>' in listed


def test_a_documents_link_opens_the_diff_of_its_own_day(history: FlaskClient) -> None:
    body = html(history, "/diff?document=cr-update-2000-11-27")
    assert '<h1>Changes from <span class="date">2000-11-26</span> to <span class="date">2000-11-27</span></h1>' in body
    assert (
        '<p class="banner">What the document changed: <a href="/docs/cr-update-2000-11-27">Current Rulings Update'
        ' (11/27/00)</a> of <span class="date">2000-11-27</span>.'
    ) in body
    assert '<a href="/diff?document=cr-update-2000-11-27" aria-current="page">' in body
    answer = as_json(history, "/diff.json?document=cr-update-2000-11-27", 200)
    assert answer == as_json(history, "/diff.json?from=2000-11-26&to=2000-11-27", 200) | {"latest": answer["latest"]}
    assert answer["latest"] == {
        "id": "cr-update-2000-11-27",
        "game": "stccg",
        "kind": "current-rulings-update",
        "title": "Current Rulings Update",
        "version": "11/27/00",
        "date": "2000-11-27",
    }
    assert answer["counts"] == {"added": 40, "changed": 10, "rescinded": 0, "pending": 0}


def test_a_document_changing_a_later_day_spans_to_that_day(history: FlaskClient) -> None:
    """The 12/18/00 update rescinds the holodeck Current Rulings text from 12/25/00."""
    answer = as_json(history, "/diff.json?document=cr-update-2000-12-18", 200)
    assert (answer["from"], answer["to"]) == ("2000-12-17", "2000-12-25")
    assert answer["counts"] == {"added": 0, "changed": 5, "rescinded": 1, "pending": 1}
    assert [i["topic"] for i in answer["rescinded"]] == ["stccg:holodeck"]
    body = html(history, "/diff?document=cr-update-2000-12-18")
    assert (
        'of <span class="date">2000-12-18</span>, up to <span class="date">2000-12-25</span>,'
        " when the last of its changes took effect."
    ) in body


def test_the_documents_listed_are_of_the_game_chosen(client: FlaskClient) -> None:
    default = html(client, "/diff")
    every = html(client, "/diff?game=any")
    assert "document=nz-rulebook" not in default and "document=stccg-cr-update-2000-11-27" in default
    assert "document=nz-rulebook" in every
    assert '<h1>Changes from <span class="date">2022-12-31</span> to <span class="date">2023-01-01</span></h1>' in html(
        client, "/diff?game=stccg&document=nz-rulebook"
    )


def test_an_unknown_or_undated_document_is_a_404(client: FlaskClient) -> None:
    assert "no dated document &#39;nope&#39;" in html(client, "/diff?document=nope", 404)


def test_the_export_opens_a_documents_link_on_the_diff_to_its_date(bundled_root: Path) -> None:
    site = Site(KnowledgeBase(current(bundled_root)), dt.date(2026, 1, 1))
    site.diff_to = {"2000-11-27": "diff/1996-12-01_2000-11-27", "2023-01-01": "diff/2000-11-27_2023-01-01"}
    assert site.resolve("/diff", "document=stccg-cr-update-2000-11-27") == "diff/1996-12-01_2000-11-27"
    assert site.resolve("/diff", "game=any&document=nz-rulebook") == "diff/2000-11-27_2023-01-01"


# -- c) Changed first, each count a jump to its section ---------------------------------------


def test_the_diff_puts_changed_first_and_its_counts_jump_to_their_sections(history: FlaskClient) -> None:
    body = html(history, "/diff?from=2000-10-30&to=2000-11-27")
    assert (
        '<p class="count"><a href="#changed">10 changed</a>, <a href="#added">40 added</a>, 0 rescinded, 0 pending</p>'
    ) in body
    headings = [h.split("</h2>")[0] for h in body.split("<h2")[1:]]
    assert headings == [f' id="{k.lower()}">{k}' for k in ("Changed", "Added", "Rescinded", "Pending")]
    assert body.index('<section class="change">') < body.index('<h2 id="added">')


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("First Edition Current Rulings Document (11 June 2010) Current Rulings are ...", dt.date(2010, 6, 11)),
        ("Star Trek Glossary (2 March 2015)", dt.date(2015, 3, 2)),
        ("First Edition Current Rulings Document (31 June 2010)", None),  # no such day
        ("Current Rulings (June 2010)", None),  # no day: not a date the title states
        (
            "A ruling far into a page of text, past where any title stands, cites Current Rulings (11 June 2010)",
            None,
        ),
    ],
)
def test_a_title_states_its_day_in_words(text: str, day: dt.date | None) -> None:
    assert title_date(text) == day
