"""The web app against hostile requests: every URL answers 200 or 4xx, headers never carry raw
request data, the Atom feed is escaped, well-formed and independent of the Host header."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from helpers import FIXTURES, SEEDS
from kb.ingest.pipeline import build
from web.app import SECURITY_HEADERS, create_app

ATOM = "{http://www.w3.org/2005/Atom}"
SCRIPT_TITLE = '<script>alert(1)</script> & "Q\'s" ]]> <![CDATA[x'
SCRIPT_HEADWORD = "<script>alert(1)</script> & Co"


@pytest.fixture(scope="module")
def hostile_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture library with markup in a title and a headword, a control character in a
    title, and the Glossary dated 0001-01-01 (the first date there is)."""
    work = tmp_path_factory.mktemp("hostile-kb")
    library = work / "library"
    shutil.copytree(FIXTURES / "library", library)
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", library / "stccg")
    manifest = library / "library.toml"
    text = manifest.read_text(encoding="utf-8")
    glossary = 'title = "Glossary"\nversion = "1.7"\ndate = "2000-08-01"'
    update = 'title = "Current Rulings Update"\nversion = "12/18/00"'
    assert glossary in text and update in text
    text = text.replace(glossary, 'title = "Glossary\\u0001\\u000b"\nversion = "1.7"\ndate = "0001-01-01"')
    escaped = SCRIPT_TITLE.replace("\\", "\\\\").replace('"', '\\"')
    manifest.write_text(text.replace(update, f'title = "{escaped}"\nversion = "12/18/00"'), encoding="utf-8")
    source = library / "stccg" / "current-rulings-update-2000-12-18.txt"
    ruling = f"RULINGS\n\n* {SCRIPT_HEADWORD} - A new ruling.\n\n* commandeering"
    source.write_text(source.read_text(encoding="utf-8").replace("RULINGS\n\n* commandeering", ruling))
    build(library, work / "kb")
    return work / "kb"


@pytest.fixture(scope="module")
def hostile(hostile_root: Path) -> FlaskClient:
    return create_app({"KB": str(hostile_root), "TESTING": True}).test_client()


# -- the Atom feed ---------------------------------------------------------------------


def _feed(client: FlaskClient, **headers: str) -> tuple[str, ET.Element]:
    response = client.get("/changes.atom", headers=headers)
    assert response.status_code == 200 and response.content_type == "application/atom+xml; charset=utf-8"
    body = response.get_data(as_text=True)
    return body, ET.fromstring(response.data)  # raises on ill-formed XML


def test_feed_escapes_titles_and_headwords(hostile: FlaskClient) -> None:
    body, feed = _feed(hostile)
    assert "<script>" not in body
    titles = [entry.findtext(f"{ATOM}title") for entry in feed.iter(f"{ATOM}entry")]
    assert titles == [
        "Current Rulings (1/29/01): 0 added, 0 changed, 42 rescinded, 0 pending",
        f"{SCRIPT_TITLE} (12/18/00): 1 added, 5 changed, 1 rescinded, 1 pending",
        "Current Rulings Update (11/27/00): 41 added, 10 changed, 0 rescinded, 0 pending",
        "Current Rulings (10/30/00): 4 added, 0 changed, 0 rescinded, 0 pending",
        "Glossary\ufffd\ufffd (1.7): 10 added, 0 changed, 0 rescinded, 0 pending",
    ]
    summary = list(feed.iter(f"{ATOM}entry"))[1].findtext(f"{ATOM}summary") or ""
    assert summary.startswith(f"Added: {SCRIPT_HEADWORD} (original). Changed: commandeering (replace-part); ")


def test_feed_is_valid_atom_and_ignores_the_host_header(hostile: FlaskClient) -> None:
    body, feed = _feed(hostile, Host="evil.example")
    assert "evil" not in body
    ids = [feed.findtext(f"{ATOM}id")] + [e.findtext(f"{ATOM}id") for e in feed.iter(f"{ATOM}entry")]
    assert all(re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", i or "") for i in ids) and len(set(ids)) == 6
    assert feed.findtext(f"{ATOM}author/{ATOM}name") == "rulings"
    assert [link.attrib for link in feed.findall(f"{ATOM}link")] == [{"rel": "self", "href": "/changes.atom"}]
    entries = list(feed.iter(f"{ATOM}entry"))
    assert [e.find(f"{ATOM}link").attrib["href"] for e in entries] == [  # type: ignore[union-attr]
        "/docs/cr-2001-01-29", "/docs/cr-update-2000-12-18", "/docs/cr-update-2000-11-27", "/docs/cr-2000-10-30",
        "/docs/glossary-1-7",
    ]  # fmt: skip
    assert [e.findtext(f"{ATOM}updated") for e in entries][-1] == "0001-01-01T00:00:00Z"
    assert feed.findtext(f"{ATOM}updated") == "2001-01-29T00:00:00Z"


def test_feed_links_use_the_configured_base_url(hostile_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app({"KB": str(hostile_root), "TESTING": True, "BASE_URL": "https://rulings.example.org/"})
    body, feed = _feed(app.test_client(), Host="evil.example")
    assert "evil" not in body
    assert feed.find(f"{ATOM}link").attrib["href"] == "https://rulings.example.org/changes.atom"  # type: ignore[union-attr]
    entry = next(feed.iter(f"{ATOM}entry"))
    assert entry.find(f"{ATOM}link").attrib["href"] == "https://rulings.example.org/docs/cr-2001-01-29"  # type: ignore[union-attr]
    monkeypatch.setenv("RULINGS_BASE_URL", "https://other.example.org")
    _, feed = _feed(create_app({"KB": str(hostile_root), "TESTING": True}).test_client())
    assert feed.find(f"{ATOM}link").attrib["href"] == "https://other.example.org/changes.atom"  # type: ignore[union-attr]


# -- numbers and dates at their limits --------------------------------------------------


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/version/" + "9" * 5000, 404, "no version '99999999"),
        ("/version/" + "9" * 5000 + ".json", 404, "no version '99999999"),
        ("/version/%C2%B2", 404, "no version '²'"),
        ("/docs/cr-2000-10-30?lines=" + "9" * 5000, 400, "lines: expected a line number or a range such as 79-83"),
        ("/docs/cr-2000-10-30?lines=5-" + "9" * 5000, 400, "lines: expected a line number or a range such as 79-83"),
        ("/docs/cr-2000-10-30?lines=999999999-1", 400, "lines: a range ends at or after its first line"),
        ("/docs/cr-2000-10-30.json?lines=5-2", 400, "lines: a range ends at or after its first line"),
        ("/docs/cr-2000-10-30?lines=0-3", 400, "lines: lines are numbered from 1, got '0-3'"),
        ("/docs/cr-2000-10-30?lines=999999999", 400, "lines: the document has 19 lines, not 999999999"),
        ("/docs/cr-2000-10-30.json?lines=15-20", 400, "lines: the document has 19 lines, not 20"),
        ("/?q=card&limit=" + "9" * 5000, 400, "limit: expected a whole number from 1 to 100"),
        ("/index.json?q=card&limit=%C2%B2", 400, "limit: expected a whole number from 1 to 100"),
        ("/?q=card&limit=0", 400, "limit: expected a whole number from 1 to 100"),
        ("/?q=card&limit=101", 400, "limit: expected a whole number from 1 to 100"),
    ],
)
def test_huge_and_odd_numbers_are_4xx(hostile: FlaskClient, url: str, status: int, message: str) -> None:
    response = hostile.get(url)
    assert response.status_code == status, (url, response.status_code)
    assert message in response.get_data(as_text=True).replace("&#39;", "'")


def test_limit_and_lines_within_bounds_still_work(hostile: FlaskClient) -> None:
    assert len(hostile.get("/index.json?q=commandeering&limit=1").get_json()["results"]) == 1
    lines = hostile.get("/docs/cr-2000-10-30.json?lines=2-3").get_json()["lines"]
    assert [line["number"] for line in lines if line["cited"]] == [2, 3]
    lines = hostile.get("/docs/cr-2000-10-30.json?lines=19").get_json()["lines"]
    assert [line["number"] for line in lines if line["cited"]] == [19] and len(lines) == 19
    assert not any(line["cited"] for line in hostile.get("/docs/cr-2000-10-30.json?lines=").get_json()["lines"])


def test_diff_from_the_first_date_there_is(hostile: FlaskClient) -> None:
    answer = hostile.get("/diff.json?to=2000-09-01").get_json()
    assert answer["from"] == "0001-01-01" and answer["to"] == "2000-09-01"
    assert hostile.get("/diff").status_code == 200
    assert hostile.get("/diff.json?from=0001-01-01&to=9999-12-31").status_code == 200


# -- headers ----------------------------------------------------------------------------


def test_post_is_405_with_allow(hostile: FlaskClient) -> None:
    for url in ("/", "/index.json", "/entry/stccg:conundrum", "/changes.atom", "/docs"):
        response = hostile.post(url)
        assert response.status_code == 405, url
        assert sorted(response.headers["Allow"].split(", ")) == ["GET", "HEAD", "OPTIONS"]
        assert response.content_type.startswith("application/json" if url.endswith(".json") else "text/html")
        assert response.headers["X-Frame-Options"] == "DENY"


def test_options_answers_the_allowed_methods_without_a_page(hostile: FlaskClient) -> None:
    for url in ("/", "/index.json", "/entry/stccg:conundrum", "/docs"):
        response = hostile.options(url)
        assert (response.status_code, response.data) == (204, b""), url
        assert sorted(response.headers["Allow"].split(", ")) == ["GET", "HEAD", "OPTIONS"]
        assert "Content-Type" not in response.headers and response.headers["X-Frame-Options"] == "DENY"
    assert hostile.options("/no/such/page").status_code == 404


def test_a_long_query_is_not_echoed_into_the_link_header(hostile: FlaskClient) -> None:
    response = hostile.get("/?q=" + "a" * 100_000)
    assert response.status_code == 200 and "Link" not in response.headers
    assert sum(len(k) + len(v) for k, v in response.headers.items()) < 1_000
    response = hostile.get("/?q=" + "a" * 2000)  # a twin's URL within LINK_MOST is still given
    assert response.headers["Link"] == f'</index.json?q={"a" * 2000}>; rel="alternate"; type="application/json"'


def test_link_header_encodes_the_query(hostile: FlaskClient) -> None:
    response = hostile.get('/?q=a>;rel="stylesheet"&other=, x&other=2')  # an unknown kind is a 400 now
    assert response.headers["Link"] == (
        '</index.json?q=a%3E%3Brel%3D%22stylesheet%22&other=%2C+x&other=2>; rel="alternate"; type="application/json"'
    )
    response = hostile.get("/entry/a%3E%3B%22,%20%C3%A9x")
    assert response.status_code == 404 and "Link" not in response.headers
    response = hostile.get("/card/Q-Flash%22%3E,x")
    assert response.status_code == 404
    response = hostile.get("/docs/cr-2000-10-30?lines=1%3C")
    assert response.status_code == 400


def test_link_header_encodes_the_path(hostile: FlaskClient) -> None:
    response = hostile.get("/asof/2000-12-01?other=a%3Eb")  # an unknown game is a 400 now
    assert response.headers["Link"] == '</asof/2000-12-01.json?other=a%3Eb>; rel="alternate"; type="application/json"'
    response = hostile.get("/entry/stccg:q-flash")
    assert response.headers["Link"] == '</entry/stccg:q-flash.json>; rel="alternate"; type="application/json"'


def test_redirects_are_relative_and_encoded(hostile: FlaskClient) -> None:
    for path, location in [("/docs//cr-2000-10-30", "/docs/cr-2000-10-30"),
                           ("/entry//a b\"<>\\,;", "/entry/a%20b%22%3C%3E%5C%2C%3B"),
                           ("/static//x?a=<>", "/static/x?a=%3C%3E")]:  # fmt: skip
        response = hostile.get(path, headers={"Host": "evil.example"})
        assert response.status_code == 308 and response.headers["Location"] == location, path
        assert "evil" not in response.get_data(as_text=True)
    for path in ("//evil.example/docs", "//evil.example/", "///evil.example/x"):
        response = hostile.get("/", environ_overrides={"PATH_INFO": path})
        body = response.get_data(as_text=True)
        assert response.status_code == 404 and 'href="//' not in body and "Link" not in response.headers, path
    response = hostile.get("/", environ_overrides={"PATH_INFO": "/entry//a\r\nSet-Cookie: x=1"})
    assert response.status_code == 404 and "Set-Cookie" not in response.headers


# -- the sweep: every route with hostile values ------------------------------------------

HOSTILE = ["9" * 5000, "-1", "0", "1", "-0", "+1", "1e309", "NaN", "inf", "²", "٣", "1.5", "0x10", "\x00", "🖖",
           "Ω" * 1000, "x" * 10000, "../", "../../etc/passwd", "", " ", "%", "%ff", 'a>;rel="stylesheet"', "*", "t*",
           "0001-01-01", "9999-12-31", "10000-01-01", "2000-02-30", "1/1/01", "1-2", "1-99999999999", "5-1",
           "\r\nSet-Cookie: a=b", "<script>alert(1)</script>", "stccg:conundrum", "cr-2000-10-30"]  # fmt: skip
ENCODED = [quote(value, safe="") for value in HOSTILE] + ["%FF", "%C0%AF", "%ZZ", "%E2%80%AE"]
ROUTES = [  # each page (the JSON twin too), a query it is answered with, the parameters it reads
    ("/", "/index.json", "q=card&", ["q", "game", "kind", "limit", "as_of"]),
    ("/complete.json", None, "", ["q"]),
    ("/entry/stccg:conundrum", ".json", "", ["as_of", "a", "b", "game"]),
    ("/version/1", ".json", "", ["as_of"]),
    ("/card/Q-Flash", ".json", "", ["as_of", "game"]),
    ("/cards", ".json", "names=Q-Flash&", ["names", "as_of", "game"]),
    ("/deck", ".json", "list=Q-Flash&", ["list", "as_of", "game"]),
    ("/diff", ".json", "", ["from", "to", "kind", "game", "deck"]),
    ("/asof/2000-12-01", ".json", "", ["game"]),
    ("/changes.atom", None, "", ["x"]),
    ("/docs", ".json", "", ["x"]),
    ("/docs/cr-2000-10-30", ".json", "", ["lines"]),
]
PAGES = [(path, query, names) for path, _, query, names in ROUTES] + [
    (twin if twin.startswith("/") else path + twin, query, names) for path, twin, query, names in ROUTES if twin
]
PATHS = ["/entry/", "/version/", "/card/", "/asof/", "/docs/", "/", "/static/"]
PLAIN_HEADERS = {"Content-Type", "Content-Length", "Allow", "Last-Modified", "ETag", "Cache-Control", "Expires",
                 "Date", "Accept-Ranges", "Vary", *SECURITY_HEADERS}  # fmt: skip
SAFE_URL = re.compile(r"[A-Za-z0-9%/._~:@?&=+\-]*")
CHOSEN_GAME = re.compile(r"game=(?:stccg|neutral-zone|any); Expires=[^;]+; Max-Age=\d+; HttpOnly; Path=/; SameSite=Lax")
"""The one cookie: the game a search was asked for, a game of the knowledge base or ``any``."""


def _check(response: TestResponse, url: str) -> list[str]:
    """What is wrong with ``response`` to a hostile request: a status other than 200/4xx,
    an unexpected header, a header holding raw request data, the Host header echoed."""
    wrong = []
    redirect = response.status_code == 308 and "Location" in response.headers
    if not (response.status_code == 200 or 400 <= response.status_code < 500 or redirect):
        wrong.append(f"{response.status_code} {url[:120]}")
    for name, value in response.headers.items():
        link = re.fullmatch(r'<(.*)>; rel="alternate"; type="application/json"', value)
        if name == "Link" and not (link and SAFE_URL.fullmatch(link[1])):
            wrong.append(f"Link {value[:120]!r} for {url[:120]}")
        elif name == "Location" and not SAFE_URL.fullmatch(value):
            wrong.append(f"Location {value[:120]!r} for {url[:120]}")
        elif name == "Set-Cookie" and not CHOSEN_GAME.fullmatch(value):
            wrong.append(f"Set-Cookie {value[:120]!r} for {url[:120]}")
        elif name not in PLAIN_HEADERS | {"Link", "Location", "Set-Cookie"}:
            wrong.append(f"header {name} for {url[:120]}")
    if b"evil.example" in response.data or any("evil" in v for _, v in response.headers.items()):
        wrong.append(f"Host echoed for {url[:120]}")
    return wrong


@pytest.mark.parametrize(("path", "query", "names"), PAGES)
def test_every_parameter_with_hostile_values(hostile: FlaskClient, path: str, query: str, names: list[str]) -> None:
    wrong = []
    for name in names:
        for value in ENCODED:
            url = f"{path}?{query}{name}={value}"
            wrong += _check(hostile.get(url, headers={"Host": "evil.example"}), url)
    assert wrong == []


@pytest.mark.parametrize("prefix", PATHS)
def test_every_path_with_hostile_values(hostile: FlaskClient, prefix: str) -> None:
    wrong = []
    for value in ENCODED:
        for url in (prefix + value, prefix + value + ".json", prefix + value + "/x"):
            wrong += _check(hostile.get(url, headers={"Host": "evil.example"}), url)
    assert wrong == []
