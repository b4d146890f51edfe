"""The web app through Flask's test client: every route in HTML and JSON, errors, safety."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from web.app import create_app


def get_json(client: FlaskClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    assert response.content_type.startswith("application/json")
    return response.get_json()


def get_html(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.data[:300])
    assert response.content_type.startswith("text/html")
    return response.get_data(as_text=True)


def test_search_page_html_and_json(client: FlaskClient) -> None:
    html = get_html(client, "/?q=conundrum+target")
    assert 'href="/entry/stccg:conundrum"' in html and " results for “conundrum target”" in html
    response = client.get("/?q=conundrum+target")
    assert response.headers["Link"] == '</index.json?q=conundrum+target>; rel="alternate"; type="application/json"'
    data = get_json(client, "/index.json?q=conondrum")
    assert data["corrected"] == "conundrum" and data["results"][0]["headword"] == "Conundrum"
    assert "Showing results for <strong>conundrum</strong>" in get_html(client, "/?q=conondrum")
    assert get_json(client, "/index.json?q=conondrum&exact=1")["results"] == []
    assert "Did you mean <a" in get_html(client, "/?q=chajoh")


def test_autocomplete(client: FlaskClient) -> None:
    assert get_json(client, "/complete.json?q=con")["completions"][0] == {
        "name": "Conundrum",
        "kind": "entry",
        "game": "stccg",
        "target": "stccg:conundrum",
        "url": "/entry/stccg:conundrum",
    }
    assert get_json(client, "/complete.json?q=kreet")["completions"] == [
        {"name": "Kreetchta", "kind": "card", "game": "neutral-zone", "target": "Kreetchta", "url": "/card/Kreetchta"}
    ]


def test_entry_page(client: FlaskClient) -> None:
    html = get_html(client, "/entry/stccg:conundrum")
    assert "<h1>Conundrum</h1>" in html and '<span class="badge active">active</span>' in html
    assert 'href="/docs/stccg-cr-update-2000-11-27?lines=79-83#L79"' in html
    data = get_json(client, "/entry/stccg:conundrum.json")
    assert data["headword"] == "Conundrum" and data["parts"][0]["citation"]["lines"] == "79-83"
    icons = get_html(client, "/entry/stccg:mirror-universe")
    assert '<span class="icon" title="MQ icon">MQ</span><span class="icon" title="Baj icon">Baj</span>' in icons
    backrefs = get_html(client, "/entry/stccg:commandeering")
    assert 'Referred to by: <a href="/entry/stccg:a-fast-ship-would-be-nice">' in backrefs


def test_reference_and_suggestion_links_lead_somewhere(client: FlaskClient) -> None:
    html = get_html(client, "/entry/stccg:a-fast-ship-would-be-nice")
    assert 'See: <a href="/?q=commandeering">commandeering</a>' in html
    assert 'href="/entry/stccg:commandeering"' in get_html(client, "/?q=commandeering")
    missing = get_html(client, "/entry/conondrum", 404)
    assert 'Did you mean: <a href="/?q=Conundrum">Conundrum</a>, <a href="/?q=Q-CONTINUUM">Q-CONTINUUM</a>?' in missing
    assert "1 result for “Conundrum”" in get_html(client, "/?q=Conundrum")


def test_entry_history_and_version_diff(history: FlaskClient) -> None:
    data = get_json(history, "/entry/stccg:mission-attempt.json")
    ids = [v["version"] for v in data["versions"]]
    assert len(ids) == 3
    html = get_html(history, f"/entry/stccg:mission-attempt?a={ids[1]}&b={ids[2]}")
    assert "<del> If you resolve all dilemmas and Q-Flashes" in html
    compare = get_json(history, f"/entry/stccg:mission-attempt.json?a={ids[0]}&b={ids[1]}")["compare"]
    assert compare["diff"][0] == ["=", "If all matching personnel are removed, the mission attempt ends."]
    keys = [v["key"] for v in data["versions"]]
    assert keys[0] == "stccg:mission-attempt@cr-2000-10-30@current-rulings"
    version = get_json(history, f"/version/{keys[0]}.json")
    assert get_json(history, f"/version/{ids[0]}.json") == version
    assert (version["valid_from"], version["status"], version["topic"]) == ("2000-10-30", "superseded",
                                                                           "stccg:mission-attempt")  # fmt: skip
    assert "permalink" in get_html(history, f"/version/{ids[0]}")


def test_entry_as_of(history: FlaskClient) -> None:
    html = get_html(history, "/entry/stccg:q-flash?as_of=2000-12-01")
    assert "Showing the rules as they stood on <strong>2000-12-01</strong>" in html
    assert "It is seeded under the Q-Continuum." in html
    data = get_json(history, "/entry/stccg:q-flash.json?as_of=2000-12-18")
    assert "Q&#39;s Tent" not in data["text"] and "Q's Tent" in data["text"]


def test_card_and_deck(client: FlaskClient) -> None:
    data = get_json(client, "/card/Conundrum.json")
    assert data["name"] == "Conundrum" and [e["headword"] for e in data["entries"]] == ["Conundrum"]
    assert "<h1>Conundrum</h1>" in get_html(client, "/card/Conundrum")
    deck = get_json(client, "/deck.json?list=" + quote("2x Conundrum\nMontgomery Scott\nConondrum"))
    assert [(c["name"], c["count"]) for c in deck["cards"]] == [("Conundrum", 2), ("Montgomery Scott", 1)]
    assert deck["unknown"] == [{"name": "Conondrum", "count": 1, "suggestions": ["Conundrum"]}]
    assert "Unknown card: Conondrum" in get_html(client, "/deck?list=Conondrum")
    assert "<textarea" in get_html(client, "/deck")


def test_diff_pages(history: FlaskClient) -> None:
    data = get_json(history, "/diff.json?from=2000-10-30&to=2000-11-27")
    assert len(data["added"]) == 40 and len(data["changed"]) == 10
    html = get_html(history, "/diff?from=2000-08-01&to=2001-01-29&kind=glossary")
    assert "3 added" not in html and "holodeck" in html
    deck = get_json(history, "/diff.json?from=2000-10-30&to=2000-11-27&deck=" + quote("Conundrum"))
    assert [i["headword"] for i in deck["changed"]] == ["Conundrum"]
    pending = get_json(history, "/diff.json?from=2000-12-01&to=2000-12-31")["pending"]
    assert [(p["headword"], p["condition"]) for p in pending] == [("tribble", "upon release of Fixture Expansion B")]


def test_entry_before_the_library_says_so(client: FlaskClient) -> None:
    """Issue 52 item 5a: "nothing in force" before the library's first document of the game was misleading."""
    page = client.get("/entry/stccg:conundrum?as_of=1990-01-01").get_data(as_text=True)
    said = "The library holds no document of stccg before 1994-11-01: it cannot say what was in force on 1990-01-01."
    assert said in page
    page = client.get("/entry/stccg:conundrum?as_of=1999-01-01").get_data(as_text=True)
    assert (
        "Nothing on this topic is in force on 1999-01-01: its first text in the library comes into force on 2000-11-27."
        in page
    )
    answer = client.get("/entry/stccg:conundrum.json?as_of=1990-01-01").get_json()
    assert answer["library_starts"] == "1994-11-01"


def test_as_of_and_documents(client: FlaskClient) -> None:
    data = get_json(client, "/asof/2000-11-27.json")
    assert data["as_of"] == "2000-11-27" and len(data["topics"]) == 98
    assert "The knowledge base as it stood on <strong>2000-11-27</strong>" in get_html(client, "/asof/2000-11-27")
    docs = get_json(client, "/docs.json")["documents"]
    assert [d["id"] for d in docs] == ["stccg-rulebook-excerpt", "stccg-quick-start", "stccg-cr-update-2000-11-27",
                                       "nz-rulebook"]  # fmt: skip
    page = get_html(client, "/docs/stccg-cr-update-2000-11-27?lines=79-80")
    assert '<span id="L79" class="line cited"><a href="#L79" class="n">79</a>* Conundrum - Replace' in page
    assert '<span id="L81" class="line">' in page
    source = get_json(client, "/docs/stccg-cr-update-2000-11-27.json")
    assert source["lines"][54]["text"] == "* A Fast Ship Would Be Nice - See commandeering."


def test_atom_feed(client: FlaskClient) -> None:
    response = client.get("/changes.atom")
    assert response.status_code == 200 and response.content_type == "application/atom+xml; charset=utf-8"
    body = response.get_data(as_text=True)
    assert body.startswith('<?xml version="1.0" encoding="utf-8"?>')
    assert "<title>Current Rulings Update (11/27/00): " in body


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/entry/stccg:conondrum", 404, "no entry 'stccg:conondrum'"),
        ("/entry/stccg:conondrum.json", 404, "no entry"),
        ("/card/Conondrum", 404, "no card 'Conondrum'"),
        ("/card/Conondrum.json", 404, "no card"),
        ("/version/99999", 404, "no version '99999'"),
        ("/docs/nope", 404, "no document 'nope'"),
        ("/nowhere", 404, "The requested URL was not found on the server."),
        ("/asof/2000-13-01", 400, "'2000-13-01' is not a date"),
        ("/diff?from=yesterday", 400, "'yesterday' is not a date"),
        ("/?q=x&as_of=30/30/30", 400, "is not a date"),
        ("/entry/stccg:any?a=1&b=99999", 400, "choose two versions"),
    ],
)
def test_errors_are_pages_not_tracebacks(client: FlaskClient, url: str, status: int, message: str) -> None:
    response = client.get(url)
    body = response.get_data(as_text=True)
    assert response.status_code == status and str(escape(message)) in body
    assert "Traceback" not in body


def test_security_headers_and_escaping(client: FlaskClient) -> None:
    response = client.get("/?q=%3Cscript%3Ealert(1)%3C/script%3E")
    body = response.get_data(as_text=True)
    assert "<script>alert(1)" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert 'src="/static/app.js"' in body and "http" not in body.split("<main>")[0].replace("http-equiv", "")


@pytest.mark.parametrize(
    "url",
    ["/?q=%22", "/?q=AND+OR", "/?q=" + "x" * 3000, "/?q=%F0%9F%96%96", "/?limit=-1&q=a", "/?kind=zzz&q=a",
     "/entry/", "/entry/%00", "/card/%2e%2e%2fetc", "/deck?list=" + "%0A" * 500, "/diff?kind=&deck=%22",
     "/docs/..%2fkb.sqlite", "/complete.json?q=%5B", "/version/abc", "/asof/", "/index.json?q=card:"],
)  # fmt: skip
def test_odd_urls_never_500(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (200, 400, 404), (url, response.status_code)


def test_rebuilt_knowledge_base_is_picked_up_without_restart(tmp_path: Path) -> None:
    import shutil

    from helpers import SEEDS
    from kb.ingest.pipeline import build

    library = tmp_path / "library"
    shutil.copytree(SEEDS, library)
    build(library, tmp_path / "kb")
    app = create_app({"KB": str(tmp_path / "kb")}).test_client()
    assert get_json(app, "/index.json?q=tent")["results"] == []
    (library / "stccg" / "extra.txt").write_text(
        "STAR TREK CUSTOMIZABLE CARD GAME\nCURRENT RULINGS UPDATE\n12/18/00\n\nRULINGS\n\n"
        "* Q-Flash - It is seeded under the Q's Tent.\n"
    )
    with (library / "library.toml").open("a") as manifest:
        manifest.write(
            '\n[[document]]\nid = "extra"\nfile = "stccg/extra.txt"\ngame = "stccg"\n'
            'kind = "current-rulings-update"\ntitle = "Update"\nversion = "12/18/00"\n'
            'date = "2000-12-18"\n'
        )
    build(library, tmp_path / "kb")
    assert [h["headword"] for h in get_json(app, "/index.json?q=tent")["results"]] == ["Q-Flash"]
