"""``rulings update``: bring every new release a library's sources publish into the library.

A source (``[[source]]`` in the manifest, `rulings.manifest.Source`) is a publisher's page that
links its documents (``links``: a regular expression over the link targets) or a document
itself. `update` reads each source in turn:

1. the page, conditionally (the validators it last answered are kept in the knowledge base's
   `STATE` file): "not modified" is nothing new, without a download;
2. each linked document the library does not hold by address (``url`` of its ``[[document]]``)
   nor by text (`kb.ingest.copies.text_fingerprint`: the same text under a new name is not new)
   is downloaded into a temporary folder, read for its date (`stated_date`) and checked as
   `kb.ingest.library.checked` checks an added file (its kind confirmed by its text, no line
   lost) — every document of the source before any is added, so that a source that cannot be
   read changes nothing;
3. the documents are added oldest first, each as ``rulings add`` adds a file (the manifest
   entry records its ``url``), the knowledge base in service switched only once built.

A source's failure (`FetchError`, `BuildError`) is its outcome's ``error``; the others go on.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from kb import files
from kb.errors import BuildError, FetchError
from kb.ingest.copies import text_fingerprint
from kb.ingest.fetching import TIMEOUT, Fetched, fetch, links_of
from kb.ingest.library import add_document, checked
from kb.paths import WAIT
from rulings.manifest import MANIFEST, Source, load_manifest, load_sources, load_titles
from rulings.model import Document
from rulings.parse import parse_document
from rulings.reading import detect
from rulings.source import read_source

STATE = "sources.json"
"""In a knowledge-base directory: for each address read, the validators it answered last
(``etag``, ``last_modified``) and, for a document the library already held under another address,
the text's fingerprint (``same_text``), so that it is not downloaded again."""
_NAMED_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")
_HTML = re.compile(rb"^\s*(<!doctype html|<html|<head|<body)", re.IGNORECASE)
_DOCUMENT_SUFFIXES = (".txt", ".pdf", ".yaml", ".yml", ".csv", ".text")


@dataclass(frozen=True)
class Added:
    """A document an update added."""

    id: str
    date: dt.date
    title: str
    url: str


@dataclass
class Outcome:
    """What an update did with one source."""

    source: Source
    added: list[Added] = field(default_factory=list)
    error: str = ""


def update(
    library: Path,
    kb: Path,
    game: str | None = None,
    timeout: float = TIMEOUT,
    wait: float = WAIT,
    notify: Callable[[str], None] | None = None,
) -> list[Outcome]:
    """Read every source of the library (of ``game``), adding what each publishes that is new; each
    download bounded by ``timeout`` seconds."""
    sources = [s for s in load_sources(library) if game in (None, s.game)]
    if not sources:
        which = f" for the game {game!r}" if game else ""
        raise BuildError(f"{library / MANIFEST}: no [[source]] tables{which}; 'rulings follow GAME' adds them")
    state = _load_state(kb)
    outcomes = []
    for source in sources:
        seen: dict[str, dict[str, str]] = {}
        outcome = Outcome(source)
        try:
            outcome.added = _follow(source, library, kb, state, seen, timeout, wait, notify)
            state.update(seen)  # validators kept only once the source was read whole
        except BuildError as err:
            outcome.error = str(err)
        outcomes.append(outcome)
        kb.mkdir(parents=True, exist_ok=True)
        files.write_atomic(kb / STATE, json.dumps(state, indent=1, sort_keys=True).encode("utf-8"))
    return outcomes


def _follow(
    source: Source,
    library: Path,
    kb: Path,
    state: dict[str, dict[str, str]],
    seen: dict[str, dict[str, str]],
    timeout: float,
    wait: float,
    notify: Callable[[str], None] | None,
) -> list[Added]:
    held = load_manifest(library)
    known = state.get(source.url, {})
    page = fetch(source.url, known.get("etag", ""), known.get("last_modified", ""), timeout)
    if page.unchanged:
        return []
    seen[source.url] = _validators(page)
    if source.links:
        pattern = re.compile(source.links)
        targets = [link for link in links_of(page) if pattern.search(link)]
    else:
        targets = [page.url]
    addresses = {d.url for d in held if d.url}
    prints = {text_fingerprint(d.path) for d in held}
    titles = load_titles(library, source.game)
    with tempfile.TemporaryDirectory(prefix="rulings-update-") as folder:
        found: list[tuple[dt.date, Path, str]] = []
        for target in targets:
            if target in addresses or (source.links and state.get(target, {}).get("same_text")):
                continue
            document = page if not source.links else fetch(target, timeout=timeout)
            path = _saved(document, target, Path(folder) / str(len(found)))
            fingerprint = text_fingerprint(path)
            if fingerprint in prints:
                seen[target] = {"same_text": fingerprint}
                continue
            date = stated_date(path, source, titles, document)
            _refuse_other_kind(path, source, titles, target)
            if not source.links:  # one address, a new text each release: the file named by its date
                path = path.rename(path.with_name(f"{path.stem}-{date.isoformat()}{path.suffix}"))
            checked(path, kind=source.kind, date=date, game=source.game, titles=titles)
            prints.add(fingerprint)
            found.append((date, path, target))
        added = []
        for date, path, target in sorted(found):
            title = source.title or path.stem
            report = add_document(
                path, kind=source.kind, date=date, library=library, kb=kb, game=source.game, title=title,
                url=target, wait=wait, notify=notify,
            )  # fmt: skip
            ident = report.documents[-1].id if report.documents else path.stem
            added.append(Added(ident, date, title, target))
        return added


def _validators(answer: Fetched) -> dict[str, str]:
    return {k: v for k, v in (("etag", answer.etag), ("last_modified", answer.last_modified)) if v}


def _saved(document: Fetched, url: str, folder: Path) -> Path:
    """``document`` written to ``folder`` under the last part of its address; an HTML page where a
    document (``.txt``, ``.pdf``...) was linked is a `FetchError`."""
    name = unquote(PurePosixPath(urlsplit(url).path).name)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-") or "document.txt"
    suffix = PurePosixPath(name).suffix.lower()
    if suffix in _DOCUMENT_SUFFIXES and (_HTML.match(document.body) or "text/html" in document.content_type):
        raise FetchError(f"{url}: an HTML page came where a {suffix} document was linked (an error page?)")
    if suffix not in (*_DOCUMENT_SUFFIXES, ".html", ".htm"):  # ruleChanges.php: named by what it is
        name += ".html" if "html" in document.content_type or _HTML.match(document.body) else ".txt"
    folder.mkdir()
    path = folder / name
    path.write_bytes(document.body)
    return path


def stated_date(path: Path, source: Source, titles: frozenset[str], answer: Fetched | None = None) -> dt.date:
    """The date a downloaded document took effect: the one its text states (as its kind's parser
    reads it: "effective as of June 1, 2020", "Rulings Updated: 03/26/01"), else a date in its file
    name (``MagicCompRules-20200601.txt``), else the server's ``Last-Modified``; a `BuildError` when
    none tells."""
    document = Document(id="update", path=str(path), game=source.game, kind=source.kind, title=path.stem)
    declared = parse_document(document, titles).document.declared_date
    if declared:
        return declared
    named = _NAMED_DATE.search(path.name)
    if named:
        try:
            return dt.date(int(named[1]), int(named[2]), int(named[3]))
        except ValueError:
            pass
    if answer is not None and answer.last_modified:
        try:
            return parsedate_to_datetime(answer.last_modified).date()
        except (TypeError, ValueError):
            pass
    raise BuildError(f"{path.name}: states no date, its name holds none, and the server gave no Last-Modified")


def _refuse_other_kind(path: Path, source: Source, titles: frozenset[str], url: str) -> None:
    """A `BuildError` when the detectors confidently read ``path`` as another kind than the source's."""
    document = Document(id="update", path=str(path), game=source.game, kind="", title=path.stem)
    kind = detect(document, read_source(path), titles).kind
    if kind is not None and kind != source.kind:
        raise BuildError(f"{url}: its text reads as {kind}, not {source.kind} as the [[source]] says; not added")


def _load_state(kb: Path) -> dict[str, dict[str, str]]:
    try:
        kept = json.loads((kb / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, dict)}
