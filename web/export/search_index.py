"""The browser's search files of an export: ``search-index.json``, the inverted index of the
versions in force on the export's day that the knowledge base makes (`KnowledgeBase.offline_index`,
`kb.search.offline`: its documents, lengths, postings and card lists), written as it answers;
``cards.json``, each card's folded title and aliases -> its page, for the deck page in the
browser; ``files.json``, the topics, versions and documents whose page is not named by their id
-> their page (`renamed`). What they list comes from `KnowledgeBase.site_pages` (`Site.listed`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rulings.normalize import title_key
from web.export.site import page_file

if TYPE_CHECKING:
    from web.export.site import Site


def cards(site: Site) -> dict[str, list[str]]:
    """Folded card title (and alias) -> [name, page file] for the deck page."""
    found: dict[str, list[str]] = {}
    for card in site.listed["cards"]:
        page = page_file(f"/card/{card['name']}")
        if page is None or page not in site.files:
            continue
        for name in [card["name"], *card["aliases"]]:
            found.setdefault(title_key(name), [card["name"], page])
    return found


def renamed(site: Site) -> dict[str, str]:
    """``entry/ID``, ``version/KEY`` or ``docs/ID`` -> its page file, for each topic, version or
    document whose file is not named by its id (`web.export.site.file_name`: too long, or not
    safe as a file name); the browser's pages link by ids, and look these up first."""
    found: dict[str, str] = {}
    listed = site.listed
    ids = [("entry", t) for t in listed["topics"]] + [("docs", d) for d in listed["documents"]]
    ids += [("version", key) for key in listed["versions"]]
    for folder, ident in sorted(ids):
        page = page_file(f"/{folder}/{ident}")
        if page is not None and page != f"{folder}/{ident}":
            found[f"{folder}/{ident}"] = page
    return found


def search_files(site: Site) -> Iterator[tuple[str, Any]]:
    """The JSON files of the browser's search: (name in the export, what it holds)."""
    yield "search-index.json", site.kb.offline_index(site.today)
    yield "cards.json", cards(site)
    yield "files.json", renamed(site)
