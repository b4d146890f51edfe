"""What changed: between two dates (`diff`), in each document (`by_document`, the Atom feed's
entries: the topics it added, changed, rescinded or left pending), and how each version
ended (`ending`: when, by which document and lines, and why)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from kb.answers import Added, Changed, DiffAnswer, DocumentFacts, Ending, Pending, Rescinded, Typography
from kb.model import Version, status
from kb.paging import FIRST, Paging, page_of, pause
from kb.read import periods, sources
from kb.read.documents import document_day
from kb.read.rules import listing_order
from kb.read.worddiff import word_diff
from kb.vocabulary import CHANGE_KINDS, kind_filter, moved_from, series_of_kind

if TYPE_CHECKING:
    from kb.read.parts import Parts
    from kb.read.reader import Reader

SHOWN = ("changed", "added", "rescinded", "pending")
"""The order a diff lists and pages its kinds of change: changed first, what a judge already relies on."""
MAX_STEPS = 50
"""How many superseded versions a diff reads back to find where a text moved from."""


def by_document(parts: Parts, limit: int = 200, only: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Document id -> ``count`` per change kind and up to ``limit`` items of each (headword,
    topic, operation, the publisher's summary, and why it ended or what it waits for); for
    the documents ``only`` (default: all), the versions made or ended by others not looked at.
    Which change each version made is told from its dates and endings alone
    (`periods.changes_of_documents`); only the versions of the items shown are read whole."""
    documents = parts.reader.documents()
    chosen = set(documents) if only is None else only & set(documents)
    found: dict[str, dict[str, Any]] = {
        ident: {"counts": dict.fromkeys(CHANGE_KINDS, 0), **{k: [] for k in CHANGE_KINDS}} for ident in chosen
    }
    events: list[tuple[int, str, str]] = []
    """(version id, document, kind of change): what each version did."""
    issued = {ident: document_day(document) for ident, document in documents.items()}
    for change in periods.changes_of_documents(parts.reader, chosen):  # made or ended by one of them
        pause()  # a search goes first (`kb.paging.yielding`)
        if change.valid_from is None or change.valid_from > issued[change.document_id]:
            events.append((change.id, change.document_id, "pending"))
        else:
            events.append((change.id, change.document_id, "changed" if change.supersedes else "added"))
        if change.valid_to is not None and change.end not in (None, "superseded"):  # rescinded, cancelled
            by = json.loads(change.ended_by) if change.ended_by else None  # or consolidated
            ended_in = (by or {"document": change.document_id})["document"]
            events.append((change.id, ended_in, "rescinded"))  # (a superseded version is not listed as ended)
    events.sort(key=lambda e: e[0])  # stable: a version's own change before its ending
    shown = []
    for ident, document, kind in events:
        if document in chosen:
            found[document]["counts"][kind] += 1
            if found[document]["counts"][kind] <= limit:
                shown.append((ident, document, kind))
    versions = parts.reader.versions_numbered([ident for ident, _, _ in shown])
    for ident, document, kind in shown:
        found[document][kind].append(_item(parts, versions[ident], kind))
    return found


def _item(parts: Parts, version: Version, kind: str) -> dict[str, Any]:
    """A change of `by_document`: what ``version`` made (``kind``), or its ending ("rescinded")."""
    item = {
        "headword": version.headword,
        "topic": version.topic,
        "operation": version.operation,
        "summary": version.summary,
        "label": parts.series_label(version.series),
    }
    if kind == "rescinded":
        return {**item, "operation": version.end, "why": parts.why_ended(version)}
    if kind == "pending":
        return {**item, "why": version.condition or f"in force from {version.valid_from}"}
    return {**item, "why": ""}


def diff(
    parts: Parts,
    start: dt.date,
    end: dt.date,
    game: str | None = None,
    kinds: list[str] | None = None,
    cards: set[str] | None = None,
    paging: Paging = FIRST,
) -> DiffAnswer:
    """Topics added, changed, rescinded and pending between two dates; ``cards`` (catalog
    keys) limits it to versions naming one of those cards. An unknown kind or game is an
    `UnknownFilter` (a reversed range is refused before). Every change is found, but only
    those of the page ``paging`` asks are made (text, parts, word diff; `kb.paging`): the
    kinds in the order shown (`SHOWN`: changed, added, rescinded, pending), each by headword (rule
    numbers first, in number order: `kb.read.rules.listing_order`); ``counts`` has each kind's
    number in all, ``starts`` the offset of each kind's first item."""
    wanted = {kind_filter(k) for k in kinds} if kinds else None
    game = parts.game_filter(game)
    named = None if cards is None else frozenset(cards)
    asked = (start, end, game, None if wanted is None else frozenset(wanted), named)
    found = parts.diffs.get(("found", asked))
    if found is None:  # what a diff found is kept: asked again, or for its next page, it reads nothing
        found = parts.diffs.put(("found", asked), _found(parts, start, end, game, wanted, cards))
    every, counts, starts, reprinted = found
    page_asked = ("page", asked, paging)
    kept_page = parts.diffs.get(page_asked)
    if kept_page is None:
        made_page = page_of(every, paging, lambda change: change.made(parts, end, start), _weight)
        kept_page = made_page if paging.size is None else parts.diffs.put(page_asked, made_page)
    made, page = kept_page
    answer: DiffAnswer = {
        "from": start.isoformat(),
        "to": end.isoformat(),
        "added": [],
        "changed": [],
        "rescinded": [],
        "pending": [],
        "counts": dict(counts),
        "starts": dict(starts),
        "page": dict(page),  # type: ignore[typeddict-item]
        "typography": list(reprinted),
    }
    for change, item in zip(every[page["offset"] :], made, strict=False):
        answer[change.kind].append(dict(item))  # type: ignore[literal-required]  # a copy: the kept one stays as made
    return answer


DIFF_CHARS = 100
"""Characters of a changed text's word diff that weigh one unit of a page's work (`kb.paging.WORK`):
a word diff costs about 9 µs of CPU a word on a loaded machine, so a page of changed texts of
700 characters ends after about 65 of them (0.2-0.5 s) where 1,000 took 1.0-2.35 s."""


def _weight(item: Any) -> int:
    """The work a made change weighs: one, and its word diff's characters (`DIFF_CHARS`) for a changed text."""
    return 1 + sum(len(text) for _, text in item.get("diff", ())) // DIFF_CHARS


def _found(
    parts: Parts, start: dt.date, end: dt.date, game: str | None, wanted: set[str] | None, cards: set[str] | None
) -> tuple[list[_Change], dict[str, int], dict[str, int], list[Typography]]:
    """Every change between the two dates in the order shown, each kind's count and first offset,
    and the texts reprinted in another typography: what a diff finds before making any item."""

    found: dict[str, list[_Change]] = {kind: [] for kind in CHANGE_KINDS}
    documents = parts.reader.documents()
    touched = periods.topics_changed(parts.reader, start, end)
    deciding = periods.versions_deciding(parts.reader, touched, start, end)
    linked = {} if cards is None else parts.reader.card_keys([v.id for h in deciding.values() for v in h])
    """Version id -> the keys of the cards it names, read at once for a diff limited to cards."""

    def keep(version: Version) -> bool:
        kind = series_of_kind(version.series)
        if cards is None:
            return wanted is None or kind in wanted
        keys = linked.get(version.id)
        if keys is None:  # a version restated (`_typography`): not among those deciding
            keys = linked[version.id] = {key for key, _ in parts.reader.card_links(version)}
        return (wanted is None or kind in wanted) and any(key in cards for key in keys)

    chosen = [t for t in parts.reader.topics_among(touched) if game in (None, t["game"])]
    for topic in sorted(chosen, key=lambda t: listing_order(t["headword"])):  # the touched only: 818 of 2,379
        ident = topic["id"]
        pause()  # a search in this process goes first (`kb.paging.yielding`)
        history = deciding.get(ident, [])  # the versions in force on either date or pending on the end
        before = [v for v in history if status(v, start) == "active" and keep(v)]
        after = [v for v in history if status(v, end) == "active" and keep(v)]
        if not before and after:
            found["added"].append(_Change("added", topic, before, after))
        elif before and not after:
            found["rescinded"].append(_Change("rescinded", topic, before, after))
        elif _joined(before) != _joined(after) or [v.note for v in before] != [v.note for v in after]:
            found["changed"].append(_Change("changed", topic, before, after))
        for version in history:
            document_date = document_day(documents[version.document_id])
            if keep(version) and status(version, end) == "pending" and start < document_date <= end:
                found["pending"].append(_Change("pending", topic, [], [version]))
    every = [change for kind in SHOWN for change in found[kind]]
    starts = {kind: sum(len(found[k]) for k in SHOWN[: SHOWN.index(kind)]) for kind in SHOWN}
    counts = {kind: len(found[kind]) for kind in CHANGE_KINDS}
    return every, counts, starts, _typography(parts, start, end, game, keep)


def _typography(
    parts: Parts, start: dt.date, end: dt.date, game: str | None, keep: Callable[[Version], bool]
) -> list[Typography]:
    """The topics (of ``game``) whose text in force on both dates a release between them printed
    in another typography alone (`kb.typography`), by headword: not a change of rule."""
    found: list[Typography] = []
    restated = [v for v in periods.restated_in_force(parts.reader, end) if v.restated and status(v, start) == "active"]
    topics = {t["id"]: t for t in parts.reader.topics_among({v.topic for v in restated})} if restated else {}
    for version in restated:
        if not keep(version):
            continue
        topic = topics[version.topic]
        before, after = parts.printed(version, start), parts.printed(version, end)
        if game not in (None, topic["game"]) or before == after:
            continue
        by = parts.restatement(version, end) or []
        document = sources.source(parts.reader, by[:2])
        item: Typography = {"topic": version.topic, "headword": topic["headword"], "document": document,
                            "diff": word_diff(before, after)}  # fmt: skip
        found.append(item)
    return sorted(found, key=lambda t: listing_order(t["headword"]))


def latest_range(reader: Reader, game: str | None = None) -> tuple[dt.date, dt.date, DocumentFacts | None]:
    """The range a diff shows by default: what the latest dated document (of ``game``) changed,
    from the day before its date to its date, and that document (None, and the range up to
    today, when no document is dated)."""
    dated = _dated(reader, game)
    if not dated:
        return dt.date.today() - dt.timedelta(days=1), dt.date.today(), None
    return _range_of(max(dated, key=lambda d: (d["date"], d["id"])))


def document_range(parts: Parts, document: str) -> tuple[dt.date, dt.date, DocumentFacts] | None:
    """The range a diff spans to show what ``document`` changed: from the day before its date to
    the last day it changed what is in force (its date, or later when a version it made comes
    into force later or one it ends stops later: the 12/18/00 update rescinds a text from
    12/25/00), and the document (None when the library has no such document, or it is undated)."""
    found = parts.reader.documents().get(document)
    if found is None or not found["date"]:
        return None
    start, last, facts = _range_of(found)
    for version in periods.versions_of_documents(parts.reader, {document}):
        if version.document_id == document and version.valid_from is not None:
            last = max(last, version.valid_from)
        if version.valid_to is not None and (version.ended_by or {}).get("document") == document:
            last = max(last, version.valid_to)
    return start, last, facts


def dated_documents(reader: Reader, game: str | None = None) -> list[DocumentFacts]:
    """The dated documents (of ``game``), oldest first, each as `document_range` gives it."""
    dated = _dated(reader, game)
    return [_range_of(d)[2] for d in sorted(dated, key=lambda d: (d["date"], d["id"]))]


def _dated(reader: Reader, game: str | None) -> list[dict[str, Any]]:
    """The library's dated documents (of ``game``; every game when None)."""
    return [d for d in reader.documents().values() if d["date"] and game in (None, d["game"])]


def _range_of(document: dict[str, Any]) -> tuple[dt.date, dt.date, DocumentFacts]:
    """The day before a dated document's date (its date if that is the first there is), its date,
    and its facts (not where its file lies)."""
    day = dt.date.fromisoformat(document["date"])
    facts = cast(DocumentFacts, {k: document[k] for k in ("id", "game", "kind", "title", "version", "date")})
    return (day - dt.timedelta(days=1) if day > dt.date.min else day), day, facts


@dataclass
class _Change:
    """A change found between two dates, made into its answer item only when its page is asked."""

    kind: str
    topic: dict[str, Any]
    before: list[Version]
    after: list[Version]

    def made(self, parts: Parts, end: dt.date, start: dt.date) -> Any:
        ident, headword = self.topic["id"], self.topic["headword"]
        if self.kind == "pending":  # the topic's headword keeps its place, the version's replaces it
            pending: Pending = {"topic": ident, "headword": headword, **parts.part(self.after[0], end)}
            return pending
        if self.kind == "added":
            shown = [parts.part(v, end) for v in self.after]
            added: Added = {
                "topic": ident,
                "headword": headword,
                "text": _joined(self.after),
                "parts": shown,
                "moved_from": self.moved_from(parts, start),
            }
            return added
        if self.kind == "rescinded":
            gone: Rescinded = {
                "topic": ident,
                "headword": headword,
                "text": _joined(self.before),
                "ended": [v.end for v in self.before],
                "ended_by": _endings(parts, ident, self.before, end),
            }
            return gone
        shown = [parts.part(v, end) for v in self.after]
        diff = word_diff(_joined(self.before), _joined(self.after))
        kept = {v.id for v in self.after} | {v.supersedes for v in self.after}  # a successor cites itself
        ends = [parts.ending(v) for v in self.before if v.id not in kept]
        changed: Changed = {
            "topic": ident,
            "headword": headword,
            "diff": diff,
            "parts": shown,
            "ended_by": ends,
            "moved_from": self.moved_from(parts, start),
        }
        return changed

    def moved_from(self, parts: Parts, start: dt.date) -> str | None:
        """The number the text in force at the end stood at before it moved within the range
        (`kb.vocabulary.moved_from`): read back along what each version superseded since ``start``."""
        for version in self.after:
            current: Version | None = version
            for _ in range(MAX_STEPS):
                if current is None or current.valid_from is None or current.valid_from <= start:
                    break
                origin = moved_from(current.note)
                if origin:
                    return origin
                current = parts.reader.version(current.supersedes) if current.supersedes else None
        return None


def _endings(parts: Parts, topic: str, before: list[Version], on: dt.date) -> list[Ending | None]:
    """How the series of ``before`` came to have nothing in force by ``on``: the last ending of each."""
    series = {v.series for v in before}
    return [p["ended_by"] for p in parts.ended(topic, on) if p["series"] in series]


def _joined(versions: list[Version]) -> str:
    return "\n\n".join(v.text for v in versions if v.text)
