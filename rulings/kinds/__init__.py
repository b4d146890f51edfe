r"""The registry of document kinds: each kind is one module or package of this package that registers itself.

A kind module ``rulings/kinds/<name>.py``, or a kind package ``rulings/kinds/<name>/`` whose
``__init__.py`` is that module and whose other modules are the kind's parser (the kind
``comprehensive-rules`` is ``comprehensive_rules/``), calls `register` once, at import, with a `Kind`::

    from rulings.kinds import ALWAYS, RESTATEMENT, Kind, Versions, register

    register(Kind(
        name="comprehensive-rules",          # the module's name, dashes for underscores
        parse=parse,                          # (document, source, titles) -> ParseResult
        versions=Versions(RESTATEMENT, series="comprehensive-rules", rescinds=ALWAYS),
        rank=2, called="the Comprehensive Rules",  # how its series ranks, and is named
        shaped=shaped,                        # (entry) -> whether it has the shape expected
        itself=r"\bcomprehensive rules\b",   # how its text names itself (detection, front matter)
        starts=r"^\d{3}\.\d+[a-z]?\s",         # where one of its entries starts (detection)
        entries="Comprehensive Rules rules",  # in "only 2 of 61 lines look like ..."
    ))

Nothing else needs editing: `names` lists the modules of this package (without importing them,
so a command that only reads loads no parser), `kind` imports the one asked for, `every`
imports them all. The kinds that were here first keep their order (`FIRST`); the others follow
in the order of their names. A kind module keeps its imports light (`rulings.model`,
`rulings.source`, `rulings.normalize`, `rulings.entries.topics`...) and imports a parser that lives
elsewhere inside its ``parse`` function: `kb.read.standing` reads the ranks when a knowledge
base answers.

This side only declares: how a kind's entries become versions (`Versions`) is read by
`kb.ingest.ledger`, how its series ranks by `kb.read.standing`; nothing here imports `kb`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass

from rulings.model import Document, Entry, ParseResult
from rulings.source import SourceText

RESTATEMENT = "restatement"
"""Each entry a version of the kind's series from the document's date (a Glossary, a rulebook, an FAQ)."""
RULINGS = "rulings"
"""Each entry a ruling from the document's date that may instead amend another entry (replace a
paragraph of a Glossary entry, cancel a ruling), or wait for a release ("upon release of X")."""
DATED = "dated"
"""Each entry a version from its own date (`rulings.model.Entry.date`), applied oldest first."""
HOWS = (RESTATEMENT, RULINGS, DATED)

ALWAYS = "always"
"""A whole document (not a ``part``) rescinds the versions of its series that it omits."""
SUPERSEDING = "superseding"
"""Only a whole document that supersedes another (``supersedes`` in the manifest) rescinds what it omits."""
NEVER = "never"
"""The document adds to its series and never rescinds (an update, a dated list)."""
RESCINDS = (ALWAYS, SUPERSEDING, NEVER)

FIRST = ("rulebook", "glossary", "current-rulings", "current-rulings-update", "faq", "dated-rulings")
"""The kinds that were here first, in the order the messages name them."""

Parser = Callable[[Document, SourceText, frozenset[str]], ParseResult]
"""A kind's parser: the document, its decoded text (cleaned of forum noise when the kind asks)
and the game's card titles, to every entry and remainder of the text."""


@dataclass(frozen=True)
class Versions:
    """How a kind's entries become versions: the policy `kb.ingest.ledger` applies."""

    how: str
    """One of `HOWS`."""
    series: str
    """The series its versions belong to (``glossary``, ``current-rulings``...)."""
    rescinds: str = NEVER
    """One of `RESCINDS`: when the document ends the versions of its series it omits."""
    topics: tuple[str, ...] | None = None
    """The entry kinds that are topics; None: every entry kind but `not_topics`."""
    not_topics: tuple[str, ...] = ()
    """With ``topics`` None: the entry kinds that belong to the document, not to a topic."""
    lineage: bool = False
    """Each lineage of documents (one superseding another) its own series, ``<series>:<first id>``."""
    consolidates: tuple[str, ...] = ()
    """Series whose versions a whole document ends as consolidated (a Glossary ends the rulings
    before it: those it holds now stand in it)."""
    accumulates: bool = False
    """With `DATED`: the entries of a topic add up, each version holding the topic's entries of the
    document up to its date (a list of rulings that all stand), not replacing the one before."""
    note_field: str = ""
    """The entry field (`rulings.model.Entry.fields`) whose text becomes the version's note (the ruler)."""
    also: tuple[tuple[str, str], ...] = ()
    """(entry kind, series): entries of that kind that start versions of another series, after
    the rest (a Glossary's temporary rulings are Current Rulings)."""
    restates: tuple[tuple[tuple[str, ...], str], ...] = ()
    """(entry kinds, series): for a restatement, further series it restates from its entries of
    those kinds, under the same ``rescinds`` and ``moves`` (the Comprehensive Rules' Glossary is
    the game's Glossary)."""
    moves: bool = False
    """For a restatement: a new or changed text that stood, once, at another topic of the series
    before is recorded as moved from there (a rule renumbered; `kb.ingest.restatement`)."""

    def __post_init__(self) -> None:
        if self.how not in HOWS or self.rescinds not in RESCINDS:
            raise ValueError(f"versions: how {self.how!r} of {HOWS}, rescinds {self.rescinds!r} of {RESCINDS}")


_SENTENCE = re.compile(r"[a-z]{2}[.?]\s+[A-Z]|[a-z]{2}[.;]$")


def term(headword: str, words: int = 8) -> bool:
    """Whether ``headword`` reads as a heading or a term (at most ``words`` words, not a
    sentence: no word ending a sentence inside it or at its end; ``SHIP VS. SHIP`` is a term),
    as a kind's entries' headwords must."""
    return 0 < len(headword.split()) <= words and not _SENTENCE.search(headword.strip())


def _term_headed(entry: Entry) -> bool:
    return term(entry.headword)


def share(pattern: re.Pattern[str], source: SourceText, per: int = 1) -> float:
    """How many of ``source``'s non-blank lines match ``pattern`` (``per`` matches counting as
    a line, for a text whose line breaks were lost), as a share from 0.0 to 1.0."""
    text = [line for line in source.lines if line.strip()]
    if not text:
        return 0.0
    found = sum(len(pattern.findall(line)) for line in text)
    return min(1.0, found / per / len(text))


@dataclass(frozen=True)
class Kind:
    """One document kind: its name, parser, detector, versions policy and rank."""

    name: str
    """As a manifest and ``--kind`` name it; the module's name with dashes for underscores."""
    parse: Parser
    """Reads a document of this kind."""
    versions: Versions
    """How its entries become versions."""
    rank: int
    """How its series governs over the others' (higher over lower; an FAQ is 1, the Current Rulings 4)."""
    called: str
    """Its series as a sentence names it: "the Glossary" (in "the Current Rulings govern over the Glossary")."""
    detect: Callable[[SourceText], float] | None = None
    """How sure, from 0.0 to 1.0, that a text is of this kind; None: as sure as the share of it
    the kind's parser reads as the kind expects, and more when the text names itself so
    (`rulings.reading.detect`)."""
    cleaned: bool = True
    """Whether the text is cleaned of forum and web-archive noise (`rulings.lines.noise`) before parsing."""
    shaped: Callable[[Entry], bool] = _term_headed
    """Whether an entry has the shape the kind expects (default: its headword is a term, not a
    sentence); the lines of the others are accounted for but not read (`rulings.reading`)."""
    itself: str = ""
    """A pattern (case-insensitive) by which a text names itself of this kind: an introduction
    that matches is read as the kind expects (front matter), any other is not."""
    starts: str = ""
    """A pattern matching where an entry of this kind starts (``Q: ``, ``Headword – ``), searched
    in every line (a line whose breaks were lost holds several): its share of the lines is one of
    the detector's signals."""
    entries: str = ""
    """What its entries are called in a sentence ("Glossary entries"); default: "<name> entries"."""


_REGISTRY: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add ``kind`` to the registry (a kind module calls it once, at import); returns it."""
    module = kind.name.replace("-", "_")
    if kind.name in _REGISTRY and _REGISTRY[kind.name] != kind:
        raise ValueError(f"kind {kind.name!r} registered twice")
    if f"{__name__}.{module}" not in _modules():
        raise ValueError(f"kind {kind.name!r} must be registered by the module {__name__}.{module}")
    _REGISTRY[kind.name] = kind
    return kind


@functools.cache
def _modules() -> tuple[str, ...]:
    """The kinds' modules, read once a process (a scan of the package's folder costs milliseconds)."""
    found = sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    first = [f"{__name__}.{k.replace('-', '_')}" for k in FIRST]
    return (*[m for m in first if m in found], *[m for m in found if m not in first])


def names() -> tuple[str, ...]:
    """Every kind's name (the first kinds first, then the others by name), without importing them."""
    return tuple(m.rsplit(".", 1)[1].replace("_", "-") for m in _modules())


def kind(name: str) -> Kind:
    """The kind named ``name`` (`KeyError` when there is none)."""
    if name not in names():
        raise KeyError(name)
    if name not in _REGISTRY:
        importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
        if name not in _REGISTRY:
            raise ValueError(f"the module of kind {name!r} registers no kind of that name")
    return _REGISTRY[name]


def every() -> list[Kind]:
    """Every kind, in the order of `names`."""
    return [kind(name) for name in names()]


def ranks() -> dict[str, int]:
    """Series -> rank, from every kind (kinds sharing a series must agree)."""
    return {series: rank for series, (rank, _) in _series().items()}


def called() -> dict[str, str]:
    """Series -> how a sentence names it."""
    return {series: name for series, (_, name) in _series().items()}


def labels() -> dict[str, str]:
    """Series -> its label on a page ("Current Rulings", "Glossary", "FAQ"): how a sentence names it,
    without its article, capitalised."""
    return {series: _label(name) for series, name in called().items()}


def _label(name: str) -> str:
    bare = re.sub(r"^(?:the|an|a)\s+", "", name)
    return bare[:1].upper() + bare[1:]


def _series() -> dict[str, tuple[int, str]]:
    found: dict[str, tuple[int, str]] = {}
    for each in every():
        declared = (each.rank, each.called)
        if found.setdefault(each.versions.series, declared) != declared:
            raise ValueError(f"kind {each.name!r}: series {each.versions.series!r} ranked or named differently")
    return found
