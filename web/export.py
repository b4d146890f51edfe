"""``rulings export``: the whole knowledge base as a static site, rendered by the app itself.

Every page is asked of the real Flask app (its test client), so the export follows the
templates: the search page, every entry, version permalink, card and document, the deck page,
the diffs between consecutive document dates, the as-of view per change date and the Atom
feed. A page ``/x`` is written as ``x.html`` beside its JSON twin ``x.json`` (``/`` is
``index.html``); ``/diff?from=A&to=B`` is ``diff/A_B.html``. Links are rewritten relative to
each page, so the folder works under any base path and from any static host. The export also
holds the browser's search index (`web.export_search`), the service worker at its root and
``offline.json`` (the build, and the files to keep offline), and ``dates.json``, the dates of
the as-of views (`change_dates`), from which the diff page compares any two dates in the browser;
``.rulings-export`` (`MARKER`) lists every file written, so that a later export replaces the
folder only while it holds nothing else (a folder of the user's is refused with one line).
Nothing depends on the clock but the knowledge base's own build: a second export of an
unchanged knowledge base is byte-identical. The export is written beside ``DIR`` and swapped in whole at the end.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from kb.errors import UnknownCard
from kb.paths import BuildError, current
from kb.query import KnowledgeBase
from web.views import json_path, page_path

STATIC = Path(__file__).resolve().parent / "static"
OFFLINE = "offline.json"
"""The build and the files to keep offline, which the service worker reads."""
MARKER = ".rulings-export"
"""The file that marks a folder as an export: JSON, `SIGNATURE` and every file the export wrote.
An export replaces a folder only when it holds this file and nothing but what the file lists."""
SIGNATURE = "rulings export"
"""The marker's ``written by``: no file of the user's holds this by chance."""
PRECACHE_LIMIT = 5000
"""Exports of at most this many files are kept offline whole on the first visit; larger ones
keep their shell and search index, and every page once it is opened."""
_LINK = re.compile(r'(\s(?:href|src|action|data-sw)=")(/[^"]*)(")')
_SAFE = "/:@-._~!$'()*+,;="
RENAMED = {"/static/app.js": "static/offline.js", "/static/sw.js": "sw.js"}
"""Files the export serves in place of the app's: search, autocomplete and the deck in the
browser instead of the server's, and the service worker at the root so it covers every page."""


class ExportError(Exception):
    """The export could not be written (one line, naming the folder or the page)."""


def page_file(path: str, query: str = "") -> str | None:
    """The export's file (without ``.html``/``.json``) for the app's URL ``path?query``, or
    None when the export has no such page. The inverse of the URLs `urls` lists."""
    if path == "/":
        return "index"
    if path in ("/deck", "/docs"):
        return path[1:]
    if path == "/diff":
        args = dict(parse_qsl(query))
        if not args:
            return "diff"
        if set(args) == {"from", "to"}:
            return f"diff/{args['from']}_{args['to']}"
        return None
    parts = path.split("/")
    if len(parts) >= 3 and parts[1] in ("entry", "version", "card", "docs", "asof") and _plain(parts[2:]):
        return path[1:]
    return None


def _plain(segments: list[str]) -> bool:
    return all(s not in ("", ".", "..") for s in segments)


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

    def resolve(self, path: str, query: str) -> str | None:
        """The export file a link to the app's ``path?query`` opens: a card by any spelling of
        its name, a diff to a date by the diff from the document before it."""
        found = page_file(path, query)
        if found in self.files:
            return found
        if path.startswith("/card/"):
            try:
                key = self.kb.find_card(path[len("/card/") :])
            except UnknownCard:
                return None
            return page_file("/card/" + (self.kb.card_row(key) or {})["name"])
        if path == "/diff":
            day = dict(parse_qsl(query)).get("to", "")
            return self.diff_to.get(day, "diff")
        return found


def urls(kb: KnowledgeBase, days: list[str]) -> Iterator[str]:
    """Every app URL the export holds (HTML; each has a ``.json`` twin), in a stable order;
    ``days``: the `change_dates` of ``kb``."""
    yield from ("/", "/deck", "/docs", "/diff")
    dates = sorted({d["date"] for d in kb.documents().values() if d["date"]})
    starts = [(dt.date.fromisoformat(dates[0]) - dt.timedelta(days=1)).isoformat(), *dates[:-1]] if dates else []
    for start, end in zip(starts, dates, strict=True):
        yield f"/diff?{urlencode({'from': start, 'to': end})}"
    for day in days:
        yield f"/asof/{day}"
    for document in sorted(kb.documents()):
        yield f"/docs/{document}"
    for topic in sorted(t["id"] for t in kb.topics()):
        yield f"/entry/{topic}"
    for key in kb.version_keys():
        yield f"/version/{key}"
    for name in sorted({c["name"] for c in kb.cards()}):
        yield f"/card/{name}"


def change_dates(kb: KnowledgeBase) -> list[str]:
    """The dates on which what is in force can change: every document's date and every
    version's first and last day in force. Between two of them the as-of view is the same, so
    the export's as-of views at these dates give the diff between any two dates."""
    days = {d["date"] for d in kb.documents().values() if d["date"]}
    return sorted(days | kb.change_days())


def relative(page: str, target: str) -> str:
    """``target`` (a file of the export) as a link from the file ``page``, percent-encoded."""
    depth = page.count("/")
    link = quote(target, safe=_SAFE)
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


def export(
    kb_root: Path, out: Path, base_url: str = "", today: dt.date | None = None, keep_whole: int = PRECACHE_LIMIT
) -> dict[str, Any]:
    """Write the static site of the knowledge base in service at ``kb_root`` into ``out``;
    the report gives the files, bytes and seconds. An export of fewer than ``keep_whole``
    files is kept offline whole on the first visit."""
    from web.app import create_app
    from web.export_search import search_files

    started = time.monotonic()
    directory = current(kb_root)
    if refused := _refusal(out):
        raise ExportError(refused)
    app = create_app({"KB": str(kb_root), "BASE_URL": ""})
    client = app.test_client()
    kb = app.extensions["knowledge_bases"].acquire()
    site = Site(kb, today or dt.date.today())
    days = change_dates(kb)
    listed = list(urls(kb, days))
    for url in listed:
        path, _, query = url.partition("?")
        found = page_file(path, query)
        if found is None:
            raise ExportError(f"{url}: the export has no file for this page")
        site.pages[url] = found
        site.files.add(found)
        if found.startswith("diff/"):
            site.diff_to[found.rsplit("_", 1)[1]] = found
    partial = out.with_name(f".{out.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    written: dict[str, None] = {}

    def write(name: str, data: bytes) -> None:
        target = partial / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if name in written:
            raise ExportError(f"{name}: two pages of the export would be written to this file")
        written[name] = None

    try:
        for url, name in site.pages.items():
            path, _, query = url.partition("?")
            twin = json_path(path) + (f"?{query}" if query else "")
            page_html = _get(client, _encoded(url))
            write(f"{name}.html", rewrite(site, f"{name}.html", page_html.decode()).encode())
            write(f"{name}.json", _get(client, _encoded(twin)))
        feed = _get(client, "/changes.atom").decode()
        base_url = base_url or os.environ.get("RULINGS_BASE_URL", "")  # the app above makes relative links
        feed = rewrite(site, "changes.atom", feed)
        if base_url:
            feed = re.sub(r'href="(?![a-z]+:)', f'href="{html.escape(base_url.rstrip("/"))}/', feed)
        write("changes.atom", feed.encode())
        for asset in sorted(p for p in STATIC.iterdir() if p.is_file()):
            write(f"static/{asset.name}", asset.read_bytes())
        write("sw.js", (STATIC / "sw.js").read_bytes())
        for name, data in search_files(site):
            write(name, _json(data))
        write("dates.json", _json(days))
        build = {"build": directory.name, "built_on": kb.built_on.isoformat()}
        whole = len(written) < keep_whole
        write(OFFLINE, _json({**build, "complete": whole, "files": sorted(written) if whole else _shell(written)}))
        (partial / MARKER).write_bytes(_json({"written by": SIGNATURE, "files": sorted(written)}))
        if refused := _refusal(out):  # the folder changed while the export was written
            raise ExportError(refused)
        _swap(partial, out)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    finally:
        app.extensions["knowledge_bases"].release(kb)
    size = sum((out / name).stat().st_size for name in written)
    return {"directory": str(out), "files": len(written), "pages": len(site.pages), "bytes": size,
            "seconds": round(time.monotonic() - started, 2), **build}  # fmt: skip


def _encoded(url: str) -> str:
    path, _, query = url.partition("?")
    return quote(path, safe=_SAFE) + (f"?{query}" if query else "")


def _get(client: Any, url: str) -> bytes:
    response = client.get(url)
    if response.status_code != 200:
        raise ExportError(f"{url}: the app answered {response.status_code}")
    data: bytes = response.get_data()
    return data


def _shell(written: dict[str, None]) -> list[str]:
    """The files kept offline from the first visit of a large export: the top pages, the
    assets and the search index; entries, versions, cards, documents, diffs and as-of views
    are kept once opened."""
    return sorted(n for n in written if "/" not in n or n.startswith("static/"))


def _json(data: Any) -> bytes:
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode()


def _refusal(out: Path) -> str | None:
    """Why the export may not replace ``out``, or None when ``out`` is new, an empty folder, or
    an earlier export holding only what it wrote (its `MARKER` lists every file)."""
    if not out.exists() and not out.is_symlink():
        return None
    stranger = f"{out}: exists and is not an export; choose an empty or new folder"
    if out.is_symlink() or not out.is_dir():
        return stranger
    if not any(out.iterdir()):
        return None
    try:
        marker = json.loads((out / MARKER).read_text(encoding="utf-8"))
        listed = set(marker["files"]) if marker["written by"] == SIGNATURE else None
    except (OSError, ValueError, TypeError, KeyError):
        listed = None
    if listed is None or (out / MARKER).is_symlink():
        return stranger
    folders = {parent.as_posix() for name in listed for parent in PurePosixPath(name).parents}
    listed.add(MARKER)
    for root, directories, names in os.walk(out):
        for name in sorted(directories + names):
            path = Path(root) / name
            relative = path.relative_to(out).as_posix()
            if not path.is_symlink() and (
                (path.is_file() and relative in listed) or (path.is_dir() and relative in folders)
            ):
                continue
            return f"{out}: holds {relative}, which no export wrote; move it away or choose another folder"
    return None


def _swap(partial: Path, out: Path) -> None:
    """Put the finished export in place of ``out`` (the old one removed after)."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(old)
    partial.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def cmd_export(args: Any) -> int:
    """``rulings export DIR``: print what was written, or one error line."""
    try:
        report = export(Path(args.kb), Path(args.directory), args.base_url or "")
    except ExportError as err:
        raise BuildError(str(err)) from None
    size = f"{report['pages']} pages ({report['files']} files, {report['bytes'] / 1e6:.1f} MB)"
    print(f"exported {size} of build {report['build']} ({report['built_on']}) to {report['directory']} "
          f"in {report['seconds']:.1f} s")  # fmt: skip
    return 0
