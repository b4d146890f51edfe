"""``rulings export``: the whole knowledge base as a static site, rendered by the app itself.

Every page is asked of the real Flask app (its test client), so the export follows the
templates: the search page, every entry, version permalink, card and document, the deck page,
the diffs between consecutive document dates, the as-of view per change date and the Atom
feed. A page ``/x`` is written as ``x.html`` beside its JSON twin ``x.json`` (``/`` is
``index.html``); ``/diff?from=A&to=B`` is ``diff/A_B.html``. Links are rewritten relative to
each page, so the folder works under any base path and from any static host. The export also
holds the browser's search index (`web.export.search_index`), the service worker at its root and
``offline.json`` (the build, and the files to keep offline), and ``dates.json``, the dates of
the as-of views (the ``days`` of `KnowledgeBase.site_pages`), from which the diff page compares
any two dates in the browser;
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
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from kb.paths import current
from web.app import SECURITY_HEADERS
from web.errors import ExportError
from web.export.site import MARKER, OFFLINE, SAFE, SIGNATURE, Site, page_file, rewrite, split_url, urls
from web.views import json_path

STATIC = Path(__file__).resolve().parent.parent / "static"
PRECACHE_LIMIT = 5000
"""Exports of at most this many files are kept offline whole on the first visit; larger ones
keep their shell and search index, and every page once it is opened."""


def export(
    kb_root: Path, out: Path, base_url: str = "", today: dt.date | None = None, keep_whole: int = PRECACHE_LIMIT
) -> dict[str, Any]:
    """Write the static site of the knowledge base in service at ``kb_root`` into ``out``;
    the report gives the files, bytes and seconds. An export of fewer than ``keep_whole``
    files is kept offline whole on the first visit."""
    from web.app import create_app
    from web.export.search_index import search_files

    started = time.monotonic()
    directory = current(kb_root)
    if refused := _refusal(out):
        raise ExportError(refused)
    # EXPORT: no form needing the server; PAGED False: whole answers, not pages
    app = create_app({"KB": str(kb_root), "BASE_URL": "", "EXPORT": True, "PAGED": False})
    client = app.test_client()
    kb = app.extensions["knowledge_bases"].acquire()
    site = Site(kb, today or dt.date.today())
    days = site.listed["days"]
    listed = list(urls(site.listed))
    for url in listed:
        path, query = split_url(url)
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
            path, query = split_url(url)
            twin = json_path(path) + (f"?{query}" if query else "")
            page_html = _get(client, _encoded(url))
            write(f"{name}.html", with_policy(rewrite(site, f"{name}.html", page_html.decode())).encode())
            write(f"{name}.json", _get(client, _encoded(twin)))
        write(NOT_FOUND, with_policy(rewrite(site, NOT_FOUND, _not_found(app))).encode())
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
    return {
        "directory": str(out),
        "files": len(written),
        "pages": len(site.pages),
        "bytes": size,
        "seconds": round(time.monotonic() - started, 2),
        **build,
    }


POLICY = "; ".join(
    rule for rule in SECURITY_HEADERS["Content-Security-Policy"].split("; ") if not rule.startswith("frame-ancestors")
)
"""The app's Content-Security-Policy as the export's pages carry it, in a ``<meta>`` (a static
host sends no header of ours): only the export's own scripts, styles, pictures, worker and JSON.
``frame-ancestors`` is left out: a browser ignores it in a ``<meta>``."""


def with_policy(page: str) -> str:
    """An exported HTML page with `POLICY` first in its ``<head>``."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(POLICY)}">'
    return page.replace("<head>", f"<head>\n{meta}", 1)


NOT_FOUND = "404.html"
"""The export's page for a page it does not have (static hosts serve it; so does the service worker)."""


def _not_found(app: Any) -> str:
    """The app's error page for a page the export does not hold."""
    from web.views import error_page

    message = "This page is not in this export (a mistyped address, or a page newer than the export). Search for it:"
    with app.test_request_context("/404.html"):
        page: str = error_page(404, message, [{"url": "/", "name": "Search the rulings"}])[0]
    return re.sub(r'<a href="[^"]*\.json">JSON</a> · ', "", page)  # it has no JSON twin


def _encoded(url: str) -> str:
    path, query = split_url(url)
    return quote(path, safe=SAFE) + (f"?{query}" if query else "")


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
    here = Path.cwd().resolve()
    if out.name in ("", ".", "..") or out.resolve() in (here, *here.parents):
        return (
            f"{out}: is the current folder or holds it; the export replaces its folder whole, "
            "so name the folder it writes (e.g. 'site'), not the one you are in"
        )
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
