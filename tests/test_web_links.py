"""How the pages link: every link built by ``url_for``, every page's JSON twin registered by one
mechanism (`web.views.route`), and every link a page renders leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.app import create_app
from web.views import json_path, page_path

TEMPLATES = Path(__file__).resolve().parent.parent / "web" / "templates"
HAND_WRITTEN = re.compile(r"""(?:\s[\w-]+=["'](?:\{\{\s*root\s*\}\})?/(?!/))""")
"""An attribute whose value starts with a path written by hand (``href="/..."``, ``{{ root }}/...``)."""
NOT_PAGES = {"static", "search.completions", "changes.feed", "offline", "changes.as_of_form"}
"""Endpoints that are not pages (and so have no JSON twin); ``/asof?as_of=D`` redirects to ``/asof/D``."""
PAGES = {
    "search.index": "/?q=conundrum",
    "cards.deck_page": "/deck?list=1+Conundrum",
    "changes.diff": "/diff?from=2000-10-30&to=2000-11-27",
    "changes.as_of_page": "/asof/2000-11-27",
    "documents.documents": "/docs",
    "documents.document": "/docs/stccg-cr-update-2000-11-27?lines=79-83",
    "entries.entry": "/entry/stccg:conundrum",
    "entries.version": "/version/stccg:conundrum@stccg-cr-update-2000-11-27@glossary",
    "entries.sources": "/sources/stccg:conundrum",
    "cards.card_page": "/card/Conundrum",
    "cards.pair_page": "/cards?names=Stop+First+Contact%2CHero+of+the+Empire",
}
"""One page of each kind of the bundled knowledge base."""


@pytest.fixture(scope="module")
def app(bundled_root: Path) -> Flask:
    return create_app({"KB": str(bundled_root), "TESTING": True})


def test_no_template_writes_a_path_by_hand() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}: {match.group().strip()}"
        for path in sorted(TEMPLATES.rglob("*.*"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in HAND_WRITTEN.finditer(line)
    ]
    assert found == []


def test_every_page_has_its_json_twin_from_the_one_route(app: Flask) -> None:
    rules = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    pages = {e for e in rules if e not in NOT_PAGES and not e.endswith("_json")}
    assert pages == set(PAGES)
    for endpoint in pages:
        page, twin = rules[endpoint], rules[f"{endpoint}_json"]
        assert (twin.rule, page.defaults, twin.defaults) == (json_path(page.rule), {"json_wanted": False},
                                                             {"json_wanted": True})  # fmt: skip
    assert set(rules) == pages | {f"{e}_json" for e in pages} | NOT_PAGES
    assert (json_path("/"), json_path("/docs"), json_path("/card/<path:name>")) == (
        "/index.json", "/docs.json", "/card/<path:name>.json"
    )  # fmt: skip
    assert [page_path(json_path(p)) for p in ("/", "/docs", "/card/a/b.json")] == ["/", "/docs", "/card/a/b.json"]


@pytest.mark.parametrize("endpoint", sorted(PAGES))
def test_each_page_and_its_twin_are_served_and_its_links_lead_somewhere(app: Flask, endpoint: str) -> None:
    client = app.test_client()
    url = PAGES[endpoint]
    response = client.get(url)
    assert (response.status_code, response.content_type) == (200, "text/html; charset=utf-8")
    path, _, query = url.partition("?")
    twin = json_path(path) + (f"?{query}" if query else "")
    assert response.headers["Link"] == f'<{twin}>; rel="alternate"; type="application/json"'
    assert app.url_map.bind("localhost").match(json_path(path))[0] == f"{endpoint}_json"
    data = client.get(twin)
    assert (data.status_code, data.content_type) == (200, "application/json")
    body = response.get_data(as_text=True)
    links = set(re.findall(r'\s(?:href|src|action|data-sw|data-permalink)="(/[^"]*)"', body))
    assert links, url
    for link in sorted(links):
        assert " " not in link and "#" not in urlsplit(link).path, link
        _leads_somewhere(client, link.replace("&amp;", "&").replace("&#39;", "'"))


def _leads_somewhere(client: FlaskClient, link: str) -> None:
    parts = urlsplit(link)
    args = dict(parse_qsl(parts.query))
    expected = 400 if parts.path == "/diff" and args.get("to", "~") < args.get("from", "") else 200
    if parts.path == "/asof":  # the as-of page's date control: it redirects to the page of the date asked
        expected = 302
    with client.get(link) as answer:  # (the diff page links to the earlier dates too: a reversed range is a 400)
        assert answer.status_code == expected, (link, answer.status_code)
        if parts.path.startswith("/docs/") and parts.fragment:  # a citation lands on its line
            assert f'id="{parts.fragment}"' in answer.get_data(as_text=True), link


def test_links_to_names_with_spaces_and_hashes_are_encoded(app: Flask) -> None:
    with app.test_request_context("/"):
        template = app.jinja_env.from_string(
            '{% from "macros.html" import doc_link, part_view %}'
            '{{ doc_link("a b#c", "79-83", "x") }}|{{ part_view(part) }}'
        )
        html = template.render(
            part={"label": "L", "status": "active", "references": ["mirror universe"], "key": "t@d@s",
                  "cards": ["Rule Of Acquisition #102"],
                  "citation": {"document": "d", "lines": "5", "title": "T", "version": "V", "date": "D"}}
        )  # fmt: skip
    assert html.startswith('<a class="cite" href="/docs/a%20b%23c?lines=79-83#L79">x</a>|')
    assert 'href="/card/Rule%20Of%20Acquisition%20%23102"' in html
    assert 'href="/?q=mirror+universe"' in html
    assert 'href="/docs/d?lines=5#L5"' in html
    assert 'href="/version/t@d@s"' in html
