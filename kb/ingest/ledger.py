"""Apply parsed documents, in date order, into versioned topics.

A topic is game + normalised headword. Each topic keeps one version history per series:
``glossary``, ``current-rulings``, and ``rulebook:<id>`` for each rulebook lineage. The
rules (see DESIGN.md): a ruling replaces the earlier ruling on its topic unless it adds
to it; a ruling restated unchanged makes no new version; a full Current Rulings that
omits a ruling rescinds it (a part of an edition, ``part`` in the manifest, never does); a
new Glossary consolidates the rulings before it; an amendment of a Glossary entry applies
to that entry's text, or, when that text is not in the library, is recorded with a note
saying so; "upon release of X" waits for X's release date in the manifest, and stays
pending while it has none; when it stands on a later paragraph of a ruling, the
paragraphs before it are in force from the document's date.

How a document's entries become versions is its kind's declared policy
(`rulings.kinds.Versions`: a restatement, rulings that may amend, or dated rulings; its
series; when it rescinds what it omits; what it consolidates): this module holds no list of kinds.
Dated entries that add up (a rulings database) are restated by a later document of their series:
what it adds after the text in force comes from its own date, anything else it changes (a ruling
dropped or reworded) makes one version from the document's date (`_restated_dated`).
The ledger the versions are written into is `kb.ingest.versioning`.
"""

from __future__ import annotations

import datetime as dt

from kb.ingest import sources, textops
from kb.ingest.restatement import restate
from kb.ingest.versioning import Ledger, release_key, topic_id
from kb.model import Version, lines
from kb.sentences import sentence_grid
from kb.vocabulary import reference_keys
from rulings import kinds
from rulings.amendments import Amendment, effective_release
from rulings.kinds import ALWAYS, DATED, RESTATEMENT, RULINGS, SUPERSEDING, Versions
from rulings.model import Document, Entry, ParseResult
from rulings.normalize import headword_key
from rulings.reading import note as reading_note


def dangling_references(ledger: Ledger, paths: dict[str, str]) -> list[str]:
    """ "See X" references whose X is no topic of the knowledge base (the Glossary may be
    missing), one line each: ``file:line: headword: See X: ...``. ``paths``: document id -> file."""
    known = {(t.game, headword_key(t.headword)) for t in ledger.topics.values()}
    found: dict[tuple[str, str, str], str] = {}
    for version in ledger.versions:
        game = ledger.topics[version.topic].game
        for target in version.references:
            if not any((game, key) in known for key in reference_keys(target)):
                where = f"{paths[version.document_id]}:{version.line_start}"
                found.setdefault((where, version.headword, target), "")
    return [
        f"{where}: {headword}: 'See {target}' names no entry in this knowledge base"
        for where, headword, target in found
    ]


def apply_documents(
    results: list[ParseResult],
    releases: dict[str, dt.date],
    ledger: Ledger | None = None,
    earlier: list[Document] | None = None,
) -> Ledger:
    """Apply every parsed document, oldest first (manifest order breaks ties).

    With ``ledger``: continue it, holding the ``earlier`` documents (the manifest before
    ``results``), all dated on or before each of ``results``; the ledger is then the one
    that applying every document would give."""
    earlier = earlier or []
    ledger = Ledger(releases) if ledger is None else ledger
    ordered = sorted(enumerate(results, len(earlier)), key=lambda pair: (pair[1].document.date or dt.date.min, pair[0]))
    lineage = _lineages([*earlier, *(r.document for r in results)])
    applied = list(earlier)
    for order, result in ordered:
        document = result.document
        on = document.date or dt.date.min
        ledger.catch_up(on)
        policy = kinds.kind(document.kind).versions
        topics = [e for e in result.entries if _is_topic(policy, e)]
        series = f"{policy.series}:{lineage[document.id]}" if policy.lineage else policy.series
        if policy.how == DATED:
            again = _held_before(ledger, policy, document, topics, series)
            for entry in sorted(topics, key=lambda e: e.date or on):
                if topic_id(document.game, entry) in again:
                    continue
                version = _dated(ledger, policy, document, entry, series)
                ledger.start(version, entry.date or on)
                if entry.until:  # the document says when it ended
                    by = {"document": document.id, "lines": lines(entry.span.start, entry.span.end)}
                    ledger.stop((version.topic, series), entry.until, entry.ended or "superseded", by)
            for entries in again.values():
                _restated_dated(ledger, policy, document, sorted(entries, key=lambda e: e.date or on), series)
        elif policy.how == RULINGS:
            for seq, entry in enumerate(topics):
                _ruling(ledger, result, entry, order * 10_000 + seq, series)
        # a part of an edition never ends what it does not hold, nor a document read as one (`_whole`)
        whole = not document.part and _whole(ledger, document, series, topics, applied)
        applied.append(document)
        rescinding = whole and (
            policy.rescinds == ALWAYS or (policy.rescinds == SUPERSEDING and bool(document.supersedes))
        )
        if policy.how == RESTATEMENT:
            restated = [
                (series, topics),
                *((o, [e for e in result.entries if e.kind in k]) for k, o in policy.restates),
            ]
            for own, entries in restated:
                _restated(ledger, result, own, entries, rescinding, policy.moves)
        elif rescinding:
            _omitted(ledger, result, series, topics, "rescinded")
        if rescinding:
            for other in policy.consolidates:
                _omitted(ledger, result, other, [], "consolidated", topics)
        for entry_kind, other in policy.also:
            for entry in [e for e in result.entries if e.kind == entry_kind]:
                ledger.start(ledger.new(entry, document.game, other, document.id), on)
    ledger.catch_up(None)
    _note_unread(ledger, results)
    _note_cut(ledger, results)
    return ledger


def _restated(
    ledger: Ledger, result: ParseResult, series: str, entries: list[Entry], rescinding: bool, moves: bool
) -> None:
    """Start a version of ``series`` for each of ``entries`` (a restatement), end what they omit
    when ``rescinding``, and with ``moves`` record the texts that changed number (`kb.ingest.restatement`)."""

    def omitted(result: ParseResult, series: str, kept: list[Entry]) -> None:
        if rescinding:
            _omitted(ledger, result, series, kept, "rescinded")

    if moves:
        restate(ledger, result, series, entries, omitted)
        return
    for entry in entries:
        ledger.start(
            ledger.new(entry, result.document.game, series, result.document.id), result.document.date or dt.date.min
        )
    omitted(result, series, entries)


def _whole(ledger: Ledger, document: Document, series: str, topics: list[Entry], applied: list[Document]) -> bool:
    """Whether ``document`` (no declared `part`) is the whole of its edition, so that it rescinds what it omits.

    It is not, warned naming both, when it holds no topic (an introduction alone restates nothing), or when a
    document of the same game, kind and day applied before it (``applied``) shares no topic with it: the two are
    parts of one edition (a site's rulings split A-G and H-Z, a FAQ split by subject), and rescinding what this
    one omits would rescind every topic of the other."""
    if not topics:
        ledger.warnings.append(
            f"{document.path}: {document.id} holds no topic: read as a part of its edition, it rescinds nothing"
        )
        return False
    present = {topic_id(document.game, e) for e in topics}
    for other in applied:
        if (other.game, other.kind, other.date) != (document.game, document.kind, document.date):
            continue
        theirs = {v.topic for v in ledger.versions if v.document_id == other.id and v.series == series}
        if theirs and not theirs & present:
            ledger.warnings.append(
                f"{document.path}: {document.id} is declared whole but shares no topic with {other.id} "
                f"({other.path}), of the same kind and day: read as parts of one edition, {document.id} "
                f"rescinds nothing (not the {len(theirs)} topic(s) of {other.id})"
            )
            return False
    return True


def _note_unread(ledger: Ledger, results: list[ParseResult]) -> None:
    """Every version of a document kept unread (`rulings.model.Document.unread`) says so in its note."""
    unread = {r.document.id: reading_note(r.document.kind) for r in results if r.document.unread}
    for version in ledger.versions:
        said = unread.get(version.document_id)
        if said and said not in version.note:
            version.note = "; ".join(n for n in (said, version.note) if n)


CUT = "cut off where its source ends: the rest of this text is not in the document"
"""The note of a version made from an entry cut off mid-text (`rulings.model.Entry.partial`; `kb.read.standing`
reads it)."""


def _note_cut(ledger: Ledger, results: list[ParseResult]) -> None:
    """Every version made from an entry cut off where its file or page ends (`rulings.entries.partial`) says so
    in its note; so does one whose words interleave two PDF columns (its entry's field ``columns``)."""
    cut = {(r.document.id, topic_id(r.document.game, e)): e.span.end for r in results for e in r.entries if e.partial}
    for version in ledger.versions if cut else []:
        if cut.get((version.document_id, version.topic)) == version.line_end and CUT not in version.note:
            version.note = "; ".join(n for n in (version.note, CUT) if n)
    for version in ledger.versions:  # a text read from two PDF columns on one line (`rulings.lines.flowed`)
        said = version.fields.get("columns", "")
        if said and said not in version.note:
            version.note = "; ".join(n for n in (version.note, said) if n)


def _dated(ledger: Ledger, policy: Versions, document: Document, entry: Entry, series: str) -> Version:
    """The version of a dated entry: with the text of its topic's earlier entries of the document
    before it when they add up (`Versions.accumulates`), its note from `Versions.note_field`."""
    version = ledger.new(entry, document.game, series, document.id)
    previous = ledger.in_force.get((version.topic, series))
    if policy.accumulates and previous and previous.document_id == document.id:
        _added(version, previous)
    version.note = entry.fields.get(policy.note_field, "") if policy.note_field else ""
    return version


def _added(version: Version, previous: Version) -> None:
    """``version`` holds ``previous``'s text, then its own (an entry that adds up), and its references;
    each sentence keeps the lines that wrote it (`kb.ingest.sources`)."""
    version.text = f"{previous.text}\n\n{version.text}"
    version.sources = sources.carried(previous, version)
    version.line_start = min(version.line_start, previous.line_start)
    version.references = list(dict.fromkeys(previous.references + version.references))


def _held_before(
    ledger: Ledger, policy: Versions, document: Document, topics: list[Entry], series: str
) -> dict[str, list[Entry]]:
    """For a kind whose entries add up (`Versions.accumulates`): the entries of each topic that a
    version of another document holds in force, by topic: the document restates that topic."""
    again: dict[str, list[Entry]] = {}
    for entry in topics if policy.accumulates else []:
        ident = topic_id(document.game, entry)
        previous = ledger.in_force.get((ident, series))
        if previous and previous.document_id != document.id:
            again.setdefault(ident, []).append(entry)
    return again


def _restated_dated(ledger: Ledger, policy: Versions, document: Document, entries: list[Entry], series: str) -> None:
    """A later document restates a topic whose entries add up (a later snapshot of a rulings
    database), ``entries`` oldest first. When it keeps the text in force and adds entries dated
    after it, each is added from its own date; else (an entry dropped, edited, or new but dated
    before the text in force) its whole text is a version from the document's date, which says
    how many entries it no longer holds (rescinded)."""
    on = document.date or dt.date.min
    key = (topic_id(document.game, entries[0]), series)
    previous = ledger.in_force[key]
    held = previous.text.split("\n\n")
    kept = [e for e in entries if e.text in held]
    added = [e for e in entries if e.text not in held]
    since = previous.valid_from or dt.date.min
    if "\n\n".join(e.text for e in kept) == previous.text and all((e.date or on) > since for e in added):
        for entry in added:
            version = ledger.new(entry, document.game, series, document.id)
            _added(version, ledger.in_force[key])
            version.note = entry.fields.get(policy.note_field, "")
            ledger.start(version, entry.date or on)
        return
    texts = [e.text for e in entries]
    version = ledger.new(entries[-1], document.game, series, document.id, text="\n\n".join(texts))
    version.line_start = min(e.span.start for e in entries)
    version.line_end = max(e.span.end for e in entries)
    version.references = list(dict.fromkeys(r for e in entries for r in e.references))
    grid = sentence_grid(version.text)
    if len(grid) == len(entries):  # each paragraph cites its entry's lines
        cited = [[document.id, lines(e.span.start, e.span.end)] for e in entries]
        version.sources = [[list(c) for _ in p] for c, p in zip(cited, grid, strict=True)]
    dropped = len([t for t in held if t not in texts])
    said = f"this document drops or rewords {dropped} ruling(s) of the version before" if dropped else ""
    version.note = "; ".join(n for n in (said, entries[-1].fields.get(policy.note_field, "")) if n)
    ledger.start(version, on)


def _is_topic(policy: Versions, entry: Entry) -> bool:
    """Whether ``entry`` is a topic under its kind's policy (not a part of its document)."""
    return entry.kind in policy.topics if policy.topics is not None else entry.kind not in policy.not_topics


def _lineages(documents: list[Document]) -> dict[str, str]:
    parent = {d.id: d.supersedes for d in documents}
    roots: dict[str, str] = {}
    for ident in parent:
        root, seen = ident, {ident}
        while parent.get(root) and parent[root] not in seen:
            root = parent[root]  # type: ignore[assignment]
            seen.add(root)
        roots[ident] = root
    return roots


def _omitted(
    ledger: Ledger, result: ParseResult, series: str, kept: list[Entry], reason: str, into: list[Entry] | None = None
) -> None:
    """End every version of ``series`` in force that ``kept`` (the document's entries) leaves out,
    citing the document's entries (``into``: the entry on the same topic, when it has one)."""
    game, on = result.document.game, result.document.date or dt.date.min
    present = {topic_id(game, e) for e in kept}
    same = {topic_id(game, e): e for e in into or []}
    listed = kept or into or []
    span = lines(min(e.span.start for e in listed), max(e.span.end for e in listed)) if listed else ""
    for key in [k for k in ledger.in_force if k[1] == series and k[0].startswith(f"{game}:")]:
        if key[0] not in present:
            here = same.get(key[0])
            cited = lines(here.span.start, here.span.end) if here else span
            ledger.stop(key, on, reason, {"document": result.document.id, "lines": cited})


def _ruling(ledger: Ledger, result: ParseResult, entry: Entry, order: int, own: str) -> None:
    """Apply one ruling: to its own series (``own``), or as an amendment of another entry."""
    document = result.document
    on = document.date or dt.date.min
    amendment = entry.amendment
    release = amendment.release if amendment else entry.effective_release

    def run(date: dt.date) -> None:
        if amendment and amendment.action in ("replace", "delete", "add", "cancel"):
            _amend(ledger, result, entry, amendment, date)
        else:
            operation = "errata" if amendment or entry.fields.get("erratum") else "original"
            version = ledger.new(entry, document.game, own, document.id, operation=operation)
            version.note = _aside(amendment)
            ledger.start(version, date)

    released = ledger.releases.get(release_key(release)) if release else None
    held = _held_back(entry) if amendment is None and release and not (released and released <= on) else 0
    if held:
        now = ledger.new(entry, document.game, own, document.id, text="\n\n".join(entry.text.split("\n\n")[:held]))
        now.note = f"the rest of this ruling takes effect upon release of {release}"
        ledger.start(now, on)
    condition = ledger.when(release, on, order, run)
    if condition:
        series = _series(amendment) if amendment else own
        operation = amendment.action if amendment else "original"
        text = amendment.text if amendment else entry.text
        ledger.pending(ledger.new(entry, document.game, series, document.id, operation=operation, text=text), condition)


def _held_back(entry: Entry) -> int:
    """The first paragraph "effective upon release of X" holds back, when it is not the first:
    the paragraphs before it are in force from the document's date (0: the whole ruling waits)."""
    paragraphs = entry.text.split("\n\n")
    return next((k for k, paragraph in enumerate(paragraphs) if effective_release(paragraph)), 0)


def _series(amendment: Amendment) -> str:
    return "current-rulings" if amendment.target == "current-rulings" else "glossary"


def _amend(ledger: Ledger, result: ParseResult, entry: Entry, amendment: Amendment, on: dt.date) -> None:
    document = result.document
    series = _series(amendment)
    key = (topic_id(document.game, entry), series)
    base = ledger.in_force.get(key)
    make = ledger.new
    if amendment.action == "cancel":
        by = {"document": document.id, "lines": lines(entry.span.start, entry.span.end)}
        ledger.stop(key, on, "cancelled", {**by, "release": amendment.release} if amendment.release else by)
    elif amendment.action == "replace" and amendment.unit == "entry":
        version = make(entry, document.game, series, document.id, operation="replace", text=amendment.text)
        version.note = _aside(amendment)
        ledger.start(version, on)
    else:
        operation = {"replace": "replace-part", "delete": "delete-part", "add": "add"}[amendment.action]
        text, note = _edited(base, amendment)
        if note:
            ledger.warnings.append(f"{document.path}:{entry.span.start}: {entry.headword}: {note}")
        rest_here = amendment.action == "delete" and series == "current-rulings" and amendment.text
        if rest_here:
            text = "\n\n".join(t for t in (text, amendment.text) if t)
        note = "; ".join(n for n in (note, _aside(amendment)) if n)
        version = make(entry, document.game, series, document.id, operation=operation, text=text, note=note)
        version.sources = sources.carried(base, version)
        inherited = base.references if base else []
        own = entry.references if amendment.action != "delete" or rest_here else []
        version.references = list(dict.fromkeys(inherited + own))
        ledger.start(version, on)
        if rest_here:
            return
    if amendment.action in ("delete", "cancel") and amendment.text:
        rest = make(entry, document.game, "current-rulings", document.id, text=amendment.text)
        ledger.start(rest, on)


def _aside(amendment: Amendment | None) -> str:
    """The source's own remark on an instruction ("this also corrects ..."), as a note."""
    return f"the source adds: {amendment.aside}" if amendment and amendment.aside else ""


def _edited(base: Version | None, amendment: Amendment) -> tuple[str, str]:
    """The amended text, and a note when the base text is absent or lacks the part."""
    where = "the Glossary entry" if _series(amendment) == "glossary" else "the Current Rulings entry"
    absent = f"{amendment.describe()}; that text is not in this knowledge base"
    new = amendment.text if amendment.action != "delete" else None
    if base is None or not base.text:
        return (new or "", absent)
    try:
        if amendment.action == "add":
            if amendment.text in base.text:
                return base.text, ""
            return f"{base.text}\n\n{amendment.text}", ""
        if amendment.ordinal is None:
            raise textops.MissingPart(f"no {amendment.unit} is named")
        return textops.edit(base.text, amendment.unit, amendment.ordinal, new, amendment.section), ""
    except textops.MissingPart as err:
        return base.text, f"{amendment.describe()}, but {err} in {where}; not applied"
