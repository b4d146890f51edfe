"""What an export holds and where each page goes: the app URLs it exports (`urls`, of what the
knowledge base lists, `KnowledgeBase.site_pages`), the file of each (`page_file`), links rewritten
relative to each page (`rewrite`). `web.export.pages` writes the files; `web.export.search_index`
reads the `Site` for the browser's search index."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from kb.answers import SitePages
from kb.errors import UnknownCard
from kb.query import KnowledgeBase
from web.views import page_path

OFFLINE = "offline.json"
"""The build and the files to keep offline, which the service worker reads."""
MARKER = ".rulings-export"
"""The file that marks a folder as an export: JSON, `SIGNATURE` and every file the export wrote.
An export replaces a folder only when it holds this file and nothing but what the file lists."""
SIGNATURE = "rulings export"
"""The marker's ``written by``: no file of the user's holds this by chance."""
_LINK = re.compile(r'(\s(?:href|src|action|data-sw|data-permalink)=")(/[^"]*)(")')
SAFE = "/:@-._~!$'()*+,;="
RENAMED = {"/static/app.js": "static/offline.js", "/static/sw.js": "sw.js"}
"""Files the export serves in place of the app's: search, autocomplete and the deck in the
browser instead of the server's, and the service worker at the root so it covers every page."""


NAME_BYTES = 200
"""Longest file name (without ``.html``/``.json``) of a page, in bytes of UTF-8: with its
extension and a temporary suffix it stays well under the 255 bytes file systems allow."""
_UNSAFE = re.compile("[/\\\\%?#\x00-\x1f\x7f\ud800-\udfff]")
_MADE = re.compile(r"~[0-9a-f]{16}$")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def page_file(path: str, query: str = "") -> str | None:
    """The export's file (without ``.html``/``.json``) for the app's URL ``path?query``, or
    None when the export has no such page. The inverse of the URLs `urls` lists: a page of an
    entry, version, card, document or as-of date is one file in that folder, named by
    `file_name` (a card ``X/../../../tmp/escape`` is one file of ``card/``, never a path)."""
    if path == "/":
        return "index"
    if path in ("/deck", "/docs"):
        return path[1:]
    if path == "/diff":
        args = dict(parse_qsl(query))
        if not args:
            return "diff"
        if set(args) == {"from", "to"} and all(_DATE.fullmatch(v) for v in args.values()):
            return f"diff/{args['from']}_{args['to']}"
        return None
    folder, _, name = path[1:].partition("/")
    if folder in ("entry", "version", "card", "docs", "asof") and name:
        return f"{folder}/{file_name(name)}"
    return None


def split_url(url: str) -> tuple[str, str]:
    """(path, query) of an app URL `urls` lists (or its JSON twin): only a diff has a query; a ``?``
    in the name of a card, topic or version (``Guess Who's Coming to Dinner?``) is part of its path."""
    path, _, query = url.partition("?")
    return (path, query) if path in ("/diff", "/diff.json") else (url, "")


def file_name(name: str) -> str:
    """The name of the file (without extension) of the page of ``name`` (a card, topic id,
    version key, document id, date): ``name`` itself when it is a safe file name on every
    system and link (no ``/``, ``\\``, ``%``, ``?``, ``#`` or control character, not starting
    with a dot, at most `NAME_BYTES` bytes of UTF-8, not ending like a made name); else those
    characters made ``_``, cut to `NAME_BYTES` less the suffix, and ``~`` with 16 hex digits of
    the SHA-256 of ``name`` after it, so two names never share a file."""
    encoded = name.encode("utf-8", "surrogatepass")
    safe = name and not _UNSAFE.search(name) and not name.startswith(".") and not _MADE.search(name)
    if safe and len(encoded) <= NAME_BYTES:
        return name
    digest = hashlib.sha256(encoded).hexdigest()[:16]
    plain = _UNSAFE.sub("_", name).lstrip(".") or "_"
    cut = plain.encode("utf-8", "surrogatepass")[: NAME_BYTES - 17].decode("utf-8", "ignore")
    return f"{cut}~{digest}"


@dataclass
class Site:
    """What is being exported: the knowledge base, its pages by URL, and the files written."""

    kb: KnowledgeBase
    today: dt.date
    pages: dict[str, str] = field(default_factory=dict)
    """App URL (path?query, unencoded) -> export file without extension."""

    files: set[str] = field(default_factory=set)
    """The values of ``pages``."""
    diff_to: dict[str, str] = field(default_factory=dict)
    """Date -> the diff file from the document before it to that date."""
    listed: SitePages = field(init=False)
    """What the knowledge base has a page of (`KnowledgeBase.site_pages`)."""
    card_name: dict[str, str] = field(init=False)
    """Card key -> its name."""

    def __post_init__(self) -> None:
        self.listed = self.kb.site_pages()
        self.card_name = {card["key"]: card["name"] for card in self.listed["cards"]}

    def resolve(self, path: str, query: str) -> str | None:
        """The export file a link to the app's ``path?query`` opens: a card by any spelling of
        its name, a diff to a date (or of a document, ``?document=``) by the diff from the document before it."""
        found = page_file(path, query)
        if found in self.files:
            return found
        if path.startswith("/card/"):
            try:
                key = self.kb.find_card(path[len("/card/") :])
            except UnknownCard:
                return None
            return page_file("/card/" + self.card_name[key])
        if path == "/diff":
            args = dict(parse_qsl(query))
            day = args.get("to", "")
            if "document" in args:  # what a document changed: the diff to its date
                spanned = self.kb.document_range(args["document"])
                day = (spanned[2]["date"] or "") if spanned else ""
            return self.diff_to.get(day, "diff")
        return found


def urls(listed: SitePages) -> Iterator[str]:
    """Every app URL the export holds (HTML; each has a ``.json`` twin), in a stable order, of
    what the knowledge base lists (`KnowledgeBase.site_pages`): an as-of view at each of its
    ``days`` (between two of them the as-of view is the same), a diff to each document's date."""
    yield from ("/", "/deck", "/docs", "/diff")
    dates = listed["dates"]
    starts = [(dt.date.fromisoformat(dates[0]) - dt.timedelta(days=1)).isoformat(), *dates[:-1]] if dates else []
    for start, end in zip(starts, dates, strict=True):
        yield f"/diff?{urlencode({'from': start, 'to': end})}"
    for day in listed["days"]:
        yield f"/asof/{day}"
    for document in listed["documents"]:
        yield f"/docs/{document}"
    for topic in listed["topics"]:
        yield f"/entry/{topic}"
    for key in listed["versions"]:
        yield f"/version/{key}"
    for name in sorted({card["name"] for card in listed["cards"]}):
        yield f"/card/{name}"


def relative(page: str, target: str) -> str:
    """``target`` (a file of the export) as a link from the file ``page``, percent-encoded."""
    depth = page.count("/")
    link = quote(target, safe=SAFE)
    if depth:
        return "../" * depth + link
    return link if ":" not in link.split("/")[0] else "./" + link


def rewrite(site: Site, page: str, body: str) -> str:
    """``body`` (HTML or Atom) with each root-relative link made relative to ``page``."""

    def one(match: re.Match[str]) -> str:
        url = urlsplit(html.unescape(match[2]))
        path = unquote(url.path)
        suffix = ("?" + url.query if url.query else "") + ("#" + url.fragment if url.fragment else "")
        if path in RENAMED or path.startswith("/static/") or path == "/changes.atom":
            target = RENAMED.get(path, path[1:])
        else:
            json_twin = path.endswith(".json")
            base = page_path(path) if json_twin else path
            found = site.resolve(base, url.query)
            if found is None:
                return match[0]
            target = found + (".json" if json_twin else ".html")
            if base == "/diff":
                suffix = "#" + url.fragment if url.fragment else ""
        return match[1] + html.escape(relative(page, target) + suffix) + match[3]

    return _LINK.sub(one, body)
