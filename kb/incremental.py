"""What a build keeps for the next one, so a build re-parses only what changed and adding a
newest document rewrites only what it touched.

Each build directory holds ``parsed/<key>.pickle``, every document's parse result keyed by
the SHA-256 of the document's manifest entry, its bytes, its game's card titles and the
code (`code_fingerprint`), and ``state.pickle`` (`State`): what applying, cataloguing and
linking every document produced. A later build reuses the parse results whose key it finds
(hard links, the files are never written again). When the manifest only gained documents
dated on or after every earlier one, `extend` applies just those to the saved state and
writes the new build from the previous one (`kb.store.extend`, `kb.index.extend_indexes`),
which is what a full build would write; anything else (an earlier date, a changed document,
catalog or card list, new code) is a full build.

The pickles are read only from this knowledge base's own build directories, which only
builds write.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import os
import pickle
import shutil
from dataclasses import dataclass
from pathlib import Path

from kb import store
from kb.catalog import Catalog, bundled_catalog
from kb.index import days, see_texts
from kb.linking import Linker, link_versions, ordinary_words
from kb.versions import Ledger, Version, apply_documents
from rulings.model import Document, ParseResult

PARSED = "parsed"
"""The folder of parse results inside a build directory."""
STATE = "state.pickle"
"""The saved `State` inside a build directory."""
_CODE: dict[tuple[str, ...], str] = {}


def code_fingerprint(*packages: str) -> str:
    """SHA-256 of the code of ``packages`` (default: the parsers and the building code), so
    that what other code saved is not reused."""
    packages = packages or ("rulings", "kb")
    if packages not in _CODE:
        root = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for path in sorted(p for package in packages for p in (root / package).glob("*.py")):
            digest.update(f"{path.parent.name}/{path.name}".encode() + b"\0" + path.read_bytes() + b"\0")
        _CODE[packages] = digest.hexdigest()
    return _CODE[packages]


def document_key(document: Document, titles: frozenset[str]) -> str:
    """The key of a document's parse result: its manifest entry, bytes, card titles and the parsers' code."""
    digest = hashlib.sha256(code_fingerprint("rulings").encode())
    digest.update(repr(document).encode() + b"\0" + Path(document.path).read_bytes() + b"\0")
    digest.update("\n".join(sorted(titles)).encode())
    return digest.hexdigest()


def reuse_parse(previous: Path | None, key: str) -> ParseResult | None:
    """The parse result saved under ``key`` by the ``previous`` build, if there is one."""
    if previous is None or not (previous / PARSED / f"{key}.pickle").is_file():
        return None
    with (previous / PARSED / f"{key}.pickle").open("rb") as file:
        result = pickle.load(file)
    return result if isinstance(result, ParseResult) else None


def save_parses(build: Path, previous: Path | None, keys: list[str], results: dict[str, ParseResult]) -> None:
    """Write ``build/parsed``: a hard link to the previous build's result of each key it has,
    else ``results[key]`` pickled."""
    (build / PARSED).mkdir()
    for key in dict.fromkeys(keys):
        old = previous / PARSED / f"{key}.pickle" if previous else None
        if old is not None and old.is_file():
            os.link(old, build / PARSED / old.name)
        else:
            with (build / PARSED / f"{key}.pickle").open("wb") as file:
                pickle.dump(results[key], file, protocol=pickle.HIGHEST_PROTOCOL)


@dataclass
class State:
    """What a build's documents produced, for continuing with newer documents."""

    code: str
    keys: list[str]
    """Each document's `document_key`, in manifest order."""
    documents: list[Document]
    releases: dict[str, dt.date]
    ledger: Ledger
    catalog: Catalog
    """The catalog from the documents (no card file imported)."""
    imported: bool
    """Whether a card file was imported (then an add is a full build)."""
    ordinary: set[str]
    links: list[tuple[int, str, str]]
    seen: dict[int, str]
    """`kb.index.see_texts` of every version."""
    report_lines: list[str]
    """Each document's report line, then each document's warnings."""


def save_state(build: Path, state: State) -> None:
    with (build / STATE).open("wb") as file:
        pickle.dump(state, file, protocol=pickle.HIGHEST_PROTOCOL)


def load_state(previous: Path | None) -> State | None:
    """The state the ``previous`` build saved, if it saved one with this code."""
    if previous is None:
        return None
    try:
        with (previous / STATE).open("rb") as file:
            state = pickle.load(file)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None
    return state if isinstance(state, State) and state.code == code_fingerprint() else None


@dataclass
class Extension:
    """What continuing a state with newer documents changed."""

    results: list[ParseResult]
    first: int
    """How many versions there were before (the new ones follow)."""
    changed: list[int]
    """Earlier versions whose dates or end changed."""
    topics: list[str]
    """Topics new or renamed."""
    links: list[tuple[int, str, str]]
    """The links of the new versions."""
    touched: set[int]
    """Versions whose index document is new or different."""
    before: dict[int, tuple[int, int]]
    """The days in force (`kb.index.days`) the ``changed`` versions had before."""


def newer_only(state: State | None, keys: list[str], documents: list[Document], releases: dict[str, dt.date],
               cards: bool) -> bool:  # fmt: skip
    """Whether the manifest only appends documents, dated on or after every earlier one and
    every deferred release, to the state's (same releases, no card file)."""
    if state is None or cards or state.imported or releases != state.releases:
        return False
    before = len(state.keys)
    if len(keys) <= before or keys[:before] != state.keys:
        return False
    latest = max([d.date or dt.date.min for d in state.documents] + [state.ledger.latest_deferred or dt.date.min])
    return all(d.date is not None and d.date >= latest for d in documents[before:])


def extend(state: State, results: list[ParseResult], documents: list[Document]) -> Extension | None:
    """Apply the new documents' ``results`` to ``state`` (changed in place), or None, leaving it
    untouched, when they change the catalog or the words that decide one-word card links."""
    catalog = bundled_catalog(results, copy.deepcopy(state.catalog))
    if catalog.cards != state.catalog.cards:
        return None
    words = ordinary_words(e.text for r in results for e in r.entries) - state.ordinary
    one_word = {
        keys[0]
        for game in catalog.games()
        for candidates in Linker([c for c in catalog.cards.values() if c.game == game], set()).titles.values()
        for keys, _, _ in candidates
        if len(keys) == 1
    }
    if words & one_word:
        return None
    ledger = state.ledger
    first = len(ledger.versions)
    ends = [_end(v) for v in ledger.versions]
    names = {t.id: (t.game, t.headword, t.kind) for t in ledger.topics.values()}
    apply_documents(results, state.releases, ledger, state.documents)
    if any(v.id != number for number, v in enumerate(ledger.versions, 1)):
        raise AssertionError("version numbers are not their places")
    changed = [n for n, end in enumerate(ends, 1) if _end(ledger.versions[n - 1]) != end]
    topics = [t.id for t in ledger.topics.values() if names.get(t.id) != (t.game, t.headword, t.kind)]
    state.ordinary |= words
    links = link_versions(ledger.versions[first:], ledger.topics, catalog, state.ordinary)
    state.links += links
    state.documents += documents
    seen = see_texts(ledger.versions, ledger.topics)
    touched = {*changed, *range(first + 1, len(ledger.versions) + 1)}
    touched |= {n for n in seen.keys() | state.seen.keys() if seen.get(n) != state.seen.get(n)}
    state.seen = seen
    before = {n: days(*ends[n - 1][:2]) for n in changed}  # type: ignore[arg-type]
    return Extension(results, first, changed, topics, links, touched, before)


def _end(version: Version) -> tuple[object, ...]:
    return version.valid_from, version.valid_to, version.end, version.supersedes, version.condition


def copy_store(previous: Path, build: Path, extension: Extension, ledger: Ledger) -> None:
    """The store of ``build``: the previous build's, extended."""
    shutil.copyfile(previous / store.DB_NAME, build / store.DB_NAME)
    store.extend(build / store.DB_NAME, extension.results, ledger, extension.first, extension.changed,
                 extension.topics, extension.links)  # fmt: skip
