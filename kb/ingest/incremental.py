"""What a build keeps for the next one, so a build re-parses only what changed and adding a
newest document rewrites only what it touched.

Each build directory holds ``parsed/<key>.pickle``, every document's parse result keyed by
the SHA-256 of the document's manifest entry, its bytes, its game's card titles and the
code (`code_fingerprint`), and ``state.pickle`` (`State`): what applying, cataloguing and
linking every document produced. A later build reuses the parse results whose key it finds
(hard links, the files are never written again). When the manifest only gained documents
dated on or after every earlier one, `extend` applies just those to the saved state and
writes the new build from the previous one (`kb.ingest.store.extend`, `kb.index.writer.extend_indexes`),
which is what a full build would write; anything else (an earlier date, a changed document,
a card file, new code, a catalog change that could change an earlier version's links) is a
full build, and `extend` or `newer_only` says why.

A catalog change is safe when it cannot change what any earlier version links
(`catalog_risk`): no card leaves or is renamed, every new spelling (a new card's title or
alias, a new alias of a card) heads no earlier version and is never written, word after
word, in an earlier version's text or "See" references, and no persona an earlier "any X"
names gains or loses a card. Then only the card tables are rewritten; a card's type, sets,
affiliation... may change, and new cards named only by the new documents may come.
The state keeps the words of every text and what finds each card (`written_words`,
`card_words`) to tell, and the new versions are linked with only the cards they can link.

The pickles are read only from this knowledge base's own build directories, which only
builds write, each sealed with its digest (`kb.ingest.sealed`): one that does not load is
discarded and what it held made anew.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from kb import checksums
from kb.errors import Damaged, DamagedCache
from kb.ingest import sealed, store
from kb.ingest.catalog import Card, Catalog, bundled_catalog, headword_titles
from kb.ingest.ledger import apply_documents
from kb.ingest.linking import ANY_PERSONA, MAX_TITLE_WORDS, TEXT_WORD, link_versions, ordinary_words, persona_names
from kb.ingest.state import Extension, State
from kb.ingest.versioning import Ledger
from kb.layout import days
from kb.model import Version
from kb.texts import see_texts
from rulings.model import Document, ParseResult
from rulings.normalize import fold_quotes, title_key

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
        root = Path(__file__).resolve().parents[2]
        digest = hashlib.sha256()
        for path in sorted(p for package in packages for p in (root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _CODE[packages] = digest.hexdigest()
    return _CODE[packages]


def document_key(document: Document, titles: frozenset[str]) -> str:
    """The key of a document's parse result: its manifest entry (not where the file lies: a
    library copied elsewhere keeps its keys), bytes, card titles and the parsers' code."""
    digest = hashlib.sha256(code_fingerprint("rulings").encode())
    digest.update(repr(dataclasses.replace(document, path="")).encode() + b"\0")
    digest.update(Path(document.path).read_bytes() + b"\0")
    digest.update("\n".join(sorted(titles)).encode())
    return digest.hexdigest()


def reuse_parse(
    previous: Path | None, key: str, document: Document, damaged: dict[str, str] | None = None
) -> ParseResult | None:
    """The parse result saved under ``key`` by the ``previous`` build, if there is one, naming
    ``document``'s file where it lies now; one that does not load is recorded in ``damaged``
    (key: why) and not reused."""
    if previous is None or not (previous / PARSED / f"{key}.pickle").is_file():
        return None
    try:
        result = sealed.load(previous / PARSED / f"{key}.pickle")
    except DamagedCache as err:
        if damaged is not None:
            damaged[key] = str(err)
        return None
    if not isinstance(result, ParseResult):
        return None
    moved = {result.document.path: document.path}
    result.document = dataclasses.replace(result.document, path=document.path)
    result.warnings = _moved(result.warnings, moved)
    return result


def relocate(state: State, keys: list[str], documents: list[Document]) -> dict[str, str]:
    """Make ``state`` name the files of its documents where they lie now (the library was
    copied or mounted elsewhere): each unchanged document's path, and the report lines and
    warnings naming it. The documents moved: id -> path now."""
    moved: dict[str, str] = {}
    for number, (saved, now) in enumerate(zip(state.documents, documents, strict=False)):
        if state.keys[number] == keys[number] and saved.id == now.id and saved.path != now.path:
            moved[saved.path] = now.path
            state.documents[number] = dataclasses.replace(saved, path=now.path)
    if moved:
        state.report_lines = _moved(state.report_lines, moved)
        state.ledger.warnings = _moved(state.ledger.warnings, moved)
    return {d.id: d.path for d in state.documents if d.path in moved.values()}


def _moved(lines: list[str], moved: dict[str, str]) -> list[str]:
    """``lines`` (``file:line: message``) naming each file of ``moved`` by its new path."""
    out = []
    for line in lines:
        file, colon, rest = line.partition(":")
        while colon and file not in moved and rest:  # a path may hold a colon
            more, colon, rest = rest.partition(":")
            file = f"{file}:{more}"
        out.append(f"{moved[file]}:{rest}" if colon and file in moved else line)
    return out


def save_parses(
    build: Path, previous: Path | None, keys: list[str], results: dict[str, ParseResult], damaged: Iterable[str] = ()
) -> None:
    """Write ``build/parsed``: a hard link to the previous build's result of each key it has
    (unless ``damaged``), else ``results[key]`` pickled."""
    (build / PARSED).mkdir()
    fresh = set(damaged)
    for key in dict.fromkeys(keys):
        old = previous / PARSED / f"{key}.pickle" if previous else None
        if old is not None and old.is_file() and key not in fresh:
            os.link(old, build / PARSED / old.name)
        else:
            sealed.dump(results[key], build / PARSED / f"{key}.pickle")


def remember_words(state: State) -> None:
    """Fill a full build's ``state`` with what `extend` looks words up in."""
    state.written, state.after_any = written_words(state.ledger.versions)
    state.findable = {} if state.imported else card_words(state.catalog.cards.values())


def written_words(versions: Iterable[Version]) -> tuple[dict[str, str], set[str]]:
    """`State.written` and `State.after_any` of ``versions``."""
    texts = "\n".join(t for v in versions for t in (v.text, *v.references))
    after_any = {title_key(w) for w in ANY_PERSONA.findall(fold_quotes(texts))}
    return {w: title_key(w) for w in set(TEXT_WORD.findall(texts))}, after_any


def card_words(cards: Iterable[Card]) -> dict[str, list[str]]:
    """What can make a text link each of ``cards`` (`kb.ingest.linking`), to the cards' keys: ``f:`` and
    the key of a spelling's first word, ``t:`` and a spelling's `title_key` (as a headword), ``p:``
    and a word of a personnel's persona; and ``1:`` and the key of a one-word spelling."""
    found: dict[str, list[str]] = {}
    for card in cards:
        words = {f"p:{word}" for word in _persona_words(card)}
        for spelling in card.spellings():
            keys = _title_keys(spelling)
            words.add(f"t:{title_key(spelling)}")
            if keys:
                words.add(f"f:{keys[0]}")
            if len(keys) == 1:
                words.add(f"1:{keys[0]}")
        for word in words:
            found.setdefault(word, []).append(card.key)
    return found


def _linkable(
    state: State, catalog: Catalog, versions: list[Version], written: dict[str, str], after_any: set[str]
) -> Catalog:
    """The cards of ``catalog`` that ``versions`` (whose `written_words` are ``written`` and
    ``after_any``) can link: those of every title whose first word they write, of their
    headwords, of the personas they name "any"; linking with these alone links as with all."""
    words = [f"f:{key}" for key in set(written.values())] + [f"p:{word}" for word in after_any]
    words += [f"t:{title_key(t)}" for h in {v.headword for v in versions} for t in headword_titles(h)]
    wanted = {key for word in words for key in state.findable.get(word, ())}
    return Catalog({key: card for key, card in catalog.cards.items() if key in wanted})


def save_state(build: Path, state: State) -> None:
    sealed.dump(state, build / STATE)


def load_state(previous: Path | None, damaged: dict[str, str] | None = None) -> State | None:
    """The state the ``previous`` build saved, if it saved one with this code and its files are
    what it wrote (`kb.checksums`); one that does not load, or a damaged build, is recorded in
    ``damaged`` (why), and the build is a full one."""
    if previous is None or not (previous / STATE).is_file():
        return None
    try:  # an add extends the store and indexes in service: never damaged ones (`kb.checksums`)
        checksums.check(previous)
    except Damaged as err:
        if damaged is not None:
            damaged[checksums.CHECKSUMS] = str(err).removesuffix("; run 'rulings build'")
        return None
    try:
        state = sealed.load(previous / STATE)
    except DamagedCache as err:
        if damaged is not None:
            damaged[STATE] = str(err)
        return None
    return state if isinstance(state, State) and state.code == code_fingerprint() else None


def newer_only(
    state: State | None, keys: list[str], documents: list[Document], releases: dict[str, dt.date], cards: bool
) -> str | None:
    """None when the manifest only appends documents, dated on or after every earlier one and
    every deferred release, to the state's (same releases, no card file); else why not."""
    if state is None:
        return "no build in service saved its state with this code"
    if cards or state.imported:
        return "a card file is imported"
    if releases != state.releases:
        return "the releases changed"
    before = len(state.keys)
    if len(keys) <= before:
        return "no document was added"
    if keys[:before] != state.keys:
        number = next(n for n, key in enumerate(state.keys) if keys[n] != key)
        saved, now = state.documents[number], documents[number]
        if saved.id != now.id:
            return f"the manifest lists {now.id} where {saved.id} was"
        return f"{now.id} changed (its file, its manifest entry or its game's card titles)"
    latest = max([d.date or dt.date.min for d in state.documents] + [state.ledger.latest_deferred or dt.date.min])
    older = [d.id for d in documents[before:] if d.date is None or d.date < latest]
    return f"{older[0]} is not dated on or after every earlier document" if older else None


def extend(state: State, results: list[ParseResult], documents: list[Document]) -> Extension | str:
    """Apply the new documents' ``results`` to ``state`` (changed in place), or say why not,
    leaving it untouched, when they change the catalog unsafely (`catalog_risk`) or the words
    that decide one-word card links."""
    catalog = bundled_catalog(results, state.catalog.copy())
    cards = [c for key, c in catalog.cards.items() if state.catalog.cards.get(key) != c]
    risk = catalog_risk(state, catalog) if cards or len(catalog.cards) != len(state.catalog.cards) else None
    if risk:
        return risk
    words = ordinary_words(e.text for r in results for e in r.entries) - state.ordinary
    findable = card_words(cards)
    titled = sorted(w for w in words if f"1:{w}" in state.findable or f"1:{w}" in findable)
    if titled:
        return f"the card title {titled[0]!r} is now also an ordinary word"
    ledger = state.ledger
    first = len(ledger.versions)
    ends = [_end(v) for v in ledger.versions]
    names = {t.id: (t.game, t.headword, t.kind) for t in ledger.topics.values()}
    apply_documents(results, state.releases, ledger, state.documents)
    if any(v.id != number for number, v in enumerate(ledger.versions, 1)):
        raise AssertionError("version numbers are not their places")
    changed = [n for n, end in enumerate(ends, 1) if _end(ledger.versions[n - 1]) != end]
    dated = [n for n in changed if _end(ledger.versions[n - 1])[:-1] != ends[n - 1][:-1]]  # not restated alone
    topics = [t.id for t in ledger.topics.values() if names.get(t.id) != (t.game, t.headword, t.kind)]
    state.ordinary |= words
    state.catalog = catalog
    for word, keys in findable.items():
        known = state.findable.setdefault(word, [])
        known += [key for key in keys if key not in known]
    written, after_any = written_words(ledger.versions[first:])
    state.written.update(written)
    state.after_any |= after_any
    linkable = _linkable(state, catalog, ledger.versions[first:], written, after_any)
    links = link_versions(ledger.versions[first:], ledger.topics, linkable, state.ordinary)
    state.links += links
    state.documents += documents
    referring = any(v.references for v in ledger.versions)  # else no "See" text, and no headword keys to compute
    seen = see_texts(ledger.versions, ledger.topics) if referring else {}
    touched = {*dated, *range(first + 1, len(ledger.versions) + 1)}  # a restatement leaves the index as it was
    touched |= {n for n in seen.keys() | state.seen.keys() if seen.get(n) != state.seen.get(n)}
    state.seen = seen
    before = {n: days(*ends[n - 1][:2]) for n in dated}
    return Extension(
        results=results,
        first=first,
        changed=changed,
        topics=topics,
        links=links,
        touched=touched,
        before=before,
        cards=cards,
    )


def catalog_risk(state: State, catalog: Catalog) -> str | None:
    """Why ``catalog`` (the state's, with the new documents' cards) could link an earlier
    version otherwise than the state's catalog did, or None when it cannot (see the module)."""
    old = state.catalog.cards
    for key, card in old.items():
        if key not in catalog.cards:
            return f"the card {card.name!r} left the catalog"
    spellings: dict[str, str] = {}
    """New spelling -> the card's name."""
    personas: dict[str, str] = {}
    """`title_key` of a persona word that gained or lost a card -> the card's name."""
    for key, card in catalog.cards.items():
        before = old.get(key)
        if before == card:
            continue
        if before is None:
            spellings.update(dict.fromkeys(card.spellings(), card.name))
        elif card.name != before.name or card.aliases[: len(before.aliases)] != before.aliases:
            return f"the card {before.name!r} changed its name or spellings"
        else:
            known_forms = {_linked_form(s) for s in before.spellings()}
            fresh = [s for s in card.spellings() if _linked_form(s) not in known_forms]
            spellings.update(dict.fromkeys(fresh, card.name))
        words = _persona_words(card) ^ (_persona_words(before) if before else set())
        personas.update(dict.fromkeys(words, card.name))
    named = sorted(personas.keys() & state.after_any)
    if named:
        return f'the card {personas[named[0]]!r} changes what "any {named[0]}" names in an earlier version'
    if not spellings:
        return None
    headed = {title_key(t) for h in {v.headword for v in state.ledger.versions} for t in headword_titles(h)}
    known = set(state.written.values())
    for spelling, name in spellings.items():
        if title_key(spelling) in headed:
            return f"{spelling!r}, a new spelling of the card {name!r}, heads an earlier version"
        keys = _title_keys(spelling)
        if keys and len(keys) <= MAX_TITLE_WORDS and set(keys) <= known and _written_in(state, keys):
            return f"{spelling!r}, a new spelling of the card {name!r}, is written in an earlier version"
    return None


def _persona_words(card: Card) -> set[str]:
    """The words whose "any" names ``card`` (`kb.ingest.linking.Linker`)."""
    if card.type != "Personnel":
        return set()
    return {title_key(word) for persona in persona_names(card) for word in persona.split()}


def _linked_form(spelling: str) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """What `kb.ingest.linking.Linker` matches of a spelling: its words' keys and which are
    capitalised. A new spelling of a card with the form of one it had (``Kle’eg``, ``KLE'EG``,
    ``Klé'eg`` beside ``Kle'eg``: quotes, apostrophes, dashes, case and accents folded by `title_key`)
    links nothing new, and its `title_key`, as a headword, names the card it named."""
    words = [(title_key(w), w) for w in TEXT_WORD.findall(fold_quotes(spelling))]
    return tuple(k for k, _ in words if k), tuple(w[:1].isupper() for k, w in words if k)


def _title_keys(spelling: str) -> tuple[str, ...]:
    """The words' keys of a card's spelling, as `kb.ingest.linking.Linker` matches them."""
    return tuple(k for k in (title_key(w) for w in TEXT_WORD.findall(fold_quotes(spelling))) if k)


def _written_in(state: State, keys: tuple[str, ...]) -> bool:
    """Whether some earlier version's text or "See" reference has words with ``keys``, in a row."""
    spelled: dict[str, list[str]] = {key: [] for key in keys}
    for word, key in state.written.items():
        if key in spelled:
            spelled[key].append(word)
    for version in state.ledger.versions:
        for text in (version.text, *version.references):
            if all(any(word in text for word in words) for words in spelled.values()):
                found = [state.written.get(w) or title_key(w) for w in TEXT_WORD.findall(text)]
                if any(tuple(found[i : i + len(keys)]) == keys for i in range(len(found))):
                    return True
    return False


def _end(version: Version) -> tuple[dt.date | None, dt.date | None, str | None, int | None, str | None, int]:
    """What a later document can change of an earlier version: its dates, end, predecessor,
    condition, and the releases restating it (`kb.model.Version.restated`, counted: it grows in place)."""
    v = version
    return (v.valid_from, v.valid_to, v.end, v.supersedes, v.condition, len(v.restated))


"""What applying a later document may change of a version (its dates and end)."""


def copy_store(previous: Path, build: Path, extension: Extension, ledger: Ledger, moved: dict[str, str]) -> None:
    """The store of ``build``: the previous build's, extended, naming the ``moved`` documents' files
    (`relocate`) where they lie now."""
    shutil.copyfile(previous / store.DB_NAME, build / store.DB_NAME)
    store.extend(build / store.DB_NAME, ledger, extension, moved=moved)
