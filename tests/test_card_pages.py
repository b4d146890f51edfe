"""Issue 36 item 6, through the real app over the bundled library: the deck page opens on a
summary table (card, copies, rulings, a link to each card's rulings) and prints a ruling that
bears on two of its cards once; a card's page puts its rulings above the catalog details; the
two-card view is in the menu."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

DECK = "Stop First Contact\n2x Hero of the Empire\nNebula\nI.K.C. K'Vort"


def test_the_deck_page_opens_on_a_summary_and_prints_a_shared_ruling_once(client: FlaskClient) -> None:
    page = client.get("/deck", query_string={"list": DECK}).get_data(as_text=True)
    table = page[page.index("<table") : page.index("</table>")]
    rows = re.findall(r'<tr><th scope="row"><a href="([^"]*)">([^<]*)</a></th><td>(\d+)</td><td>(\w+)</td></tr>', table)
    assert rows == [
        ("#card-1", "Stop First Contact", "1", "2"),
        ("#card-2", "Hero of the Empire", "2", "2"),
        ("#card-3", "Nebula", "1", "2"),
        ("/card/I.K.C.%20K&#39;Vort?game=stccg", "I.K.C. K&#39;Vort", "1", "none"),
    ]
    assert page.index("<table") < page.index('<section class="deckcard"')
    assert re.findall(r'<h3 id="ruling-([^"]*)"', page) == [
        "stccg:stop-first-contact",
        "stccg:mirror-universe",
        "stccg:hero-of-the-empire",
        "stccg:nebula",
        "stccg:movement",
    ]  # mirror universe names both Stop First Contact and Hero of the Empire: printed once
    assert re.findall(r'<p class="shared">.*?</p>', page) == [
        '<p class="shared">Also bears on it: <a href="#ruling-stccg:mirror-universe">mirror universe</a>, '
        "shown under Stop First Contact.</p>"
    ]
    assert 'id="card-2"' in page and "No rulings on" not in page


def test_a_card_page_shows_its_rulings_before_the_catalog(client: FlaskClient) -> None:
    page = client.get("/card/Nebula").get_data(as_text=True)
    assert re.findall(r"<h2>(.*?)</h2>", page) == [
        "Rulings headed by it",
        "Other entries naming it",
        "The card",
        "Earlier and pending versions",
    ]


def test_the_two_card_view_is_in_the_menu(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    menu = page[page.index('<nav aria-label="Main">') :].split("</nav>")[0]
    assert re.findall(r">([^<]+)</a>", menu) == ["Search", "Changes", "Deck", "Two cards", "Documents"]
    assert '<a href="/cards">Two cards</a>' in menu
