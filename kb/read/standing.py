"""What a text is worth to a judge: whether it is whole, its number in its series, and which of
several texts in force governs.

- `partial`: a version whose text its source cuts off (the file or a page ends mid-word) is only
  part of the entry, and says so. So is a version made by amending a text the library does not
  hold (a Current Rulings update replacing "the second paragraph" of a Glossary entry the library
  lacks); it says what is missing. Its successors built on it stay partial until a
  whole text replaces it.
- `heading` / `sections`: a rulebook heading with no text of its own (Setup, Phase One) leads to
  the sections under it; a search ranks such headings after every hit with text (`arranged`).
- a version's place in its topic's series, oldest first ("version 2 of 3"), and what its text
  lacks are the build's (`kb.model.Place`, stored with it: an answer reads nothing else of its topic).
- `precedence` / `govern`: the documents state their order: the Current Rulings govern over the
  Glossary, the Glossary over the Rulebook, a later document over an earlier one; the quick-start
  rules are a variant of the introductory game and FAQ answers are informal, so both give way.
  Precedence holds only among texts that address the same rule (`related`): a topic's series
  (its Glossary entry and its Current Rulings, an amendment and its base) and a text and the
  texts it names or that name it ("See X"); among those in force together the governing one
  comes first and each other says what it gives way to and why. Two search hits that merely rank
  together never govern over each other. In a search, a first hit the query names, or one of the
  quick-start rules (a question about the introductory game), keeps its place, labelled.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, cast

from kb.answers import GivesWay, HistoryResult, Part, SearchAnswer, SearchResult, TopicRef
from kb.model import ABSENT, Version, placed
from kb.vocabulary import reference_keys
from rulings import kinds
from rulings.normalize import headword_key

if TYPE_CHECKING:
    from kb.read.reader import Reader

CUT = "cut off where its source ends"
"""How a version's note says its text is cut off where its file or page ends (`kb.ingest.ledger.CUT`)."""
ZONE = 3
"""The first hits of a search among which related texts are ordered: the governing one first."""
MAX_SECTIONS = 24
"""Sections listed under an empty heading."""
SCANNED = 400
"""The entries after an empty heading read to find its sections (its own come first)."""

TIERS = {**kinds.ranks(), "variant": 0}
"""Which kind of text governs over which (higher over lower): each series ranked as its document
kinds declare (`rulings.kinds.Kind.rank`), and the quick-start rules (a rulebook) below all."""
NAMES = {**kinds.called(), "variant": "the quick-start rules"}
"""Each of `TIERS` as a sentence names it."""


def partial(version: Version) -> str | None:
    """What is missing from ``version``'s text when its source cuts it off (`CUT`) or when it amends a text
    the library lacks, itself or through the amendments it builds on (`kb.model.Place.absent`;
    None: it is whole)."""
    if CUT in version.note:
        return "Partial text: its source is cut off here, mid-text; the rest of this entry is not in this library."
    absent = placed(version).absent
    if absent is None:
        return None
    done = absent.split(ABSENT)[0].rstrip("; ")
    if not version.text:
        return f"No text of its own: it {done}, which is not in this library."
    if ABSENT not in version.note:  # the note is of an amendment it builds on, not its own
        done = f"builds on a version that {done}"
    return f"Partial text: it {done}; the rest of that entry is not in this library."


def heading(version: Version) -> bool:
    """Whether ``version`` is a rulebook heading with no text of its own."""
    return version.series.startswith("rulebook:") and not version.text and not version.references


def sections(reader: Reader, version: Version) -> list[TopicRef]:
    """The sections under an empty heading: the topics of its document that follow it, up to the
    next empty heading, a section's own items left to it."""
    if not heading(version):
        return []
    sql = (
        "SELECT v.topic_id, t.headword, v.text = '' AND v.refs = '[]' AS empty FROM versions v"
        " JOIN topics t ON t.id = v.topic_id WHERE v.document_id = ? AND v.series = ? AND v.line_start > ?"
        " ORDER BY v.line_start, v.id LIMIT ?"
    )
    rows = reader.rows(sql, version.document_id, version.series, version.line_end, SCANNED)
    own = [r for r in rows if r["topic_id"].startswith(f"{version.topic}.")]  # its sub-sections, when it has them
    found: list[TopicRef] = []
    for row in own or rows:
        if (row["empty"] and not own) or len(found) == MAX_SECTIONS:
            break
        if not any(row["topic_id"].startswith(f"{f['topic']}.") for f in found):
            found.append({"topic": row["topic_id"], "headword": row["headword"]})
    return found


def tier(part: Part, reader: Reader) -> str:
    """The kind of text ``part`` is, for precedence: a key of `TIERS`."""
    if part["series"].startswith("rulebook:"):
        title = str(reader.documents()[part["series"].split(":", 1)[1]]["title"]).lower()
        return "variant" if "quick-start" in title or "introductory" in title else "rulebook"
    return part["series"] if part["series"] in TIERS else "faq"


def precedence(part: Part, reader: Reader) -> tuple[int, dt.date]:
    """How strongly ``part`` governs: its kind's tier, then the date its text took effect."""
    since = dt.date.fromisoformat(part["valid_from"]) if part["valid_from"] else dt.date.min
    return TIERS[tier(part, reader)], since


def govern(parts: list[Part], reader: Reader, lead: bool = True) -> list[Part]:
    """``parts`` (texts in force together) with the governing one first (unless not ``lead``):
    each other part of its game with text says what it gives way to and why, the governing one
    what it governs over."""
    games: dict[str, list[Part]] = {}
    for part in parts:
        amends = part["partial"] and not part["series"].startswith("rulebook:")  # an amendment with no text
        if (part["text"] or amends) and part["status"] == "active":
            games.setdefault(part["game"], []).append(part)
    first: list[Part] = []
    for together in games.values():
        best = max(together, key=lambda p: precedence(p, reader))
        weaker = [p for p in together if precedence(p, reader) < precedence(best, reader)]
        for part in weaker:
            part["gives_way"] = _gives_way(best, part, reader)
        if weaker:
            best["governs"] = "over " + ", ".join(_name(p, best) for p in weaker)
            first += [best] if lead else []
    return first + [p for p in parts if p not in first]


def _name(part: Part, best: Part) -> str:
    """``part`` as named beside the text governing over it: by its series alone within one topic."""
    if part["topic"] == best["topic"]:
        return f"the {part['label']} text of {part['valid_from']}"
    return f"{part['headword']} ({part['valid_from']})"


def _gives_way(best: Part, part: Part, reader: Reader) -> GivesWay:
    """What ``part`` gives way to (``best``) and why."""
    strong, weak = tier(best, reader), tier(part, reader)
    if weak == "variant":
        why = "the quick-start rules are a variant for the introductory game; the full rules govern"
    elif weak == "faq":
        why = "FAQ answers are informal; the published rules govern"
    elif strong != weak:
        why = f"{NAMES[strong]} govern over {NAMES[weak]}"
    else:
        why = f"a later document governs over an earlier one ({best['valid_from']} over {part['valid_from']})"
    return {
        "key": best["key"],
        "topic": best["topic"],
        "headword": best["headword"],
        "label": best["label"],
        "date": best["valid_from"],
        "why": why,
    }


def related(one: Part, other: Part) -> bool:
    """Whether two texts address the same rule, so that one can govern over the other: they are
    of one game and of one topic (its series, an amendment and its base), or one names the other
    ("See X"). Two search hits that merely rank together are not."""
    if one["game"] != other["game"]:
        return False
    return one["topic"] == other["topic"] or _names(one, other) or _names(other, one)


def _names(one: Part, other: Part) -> bool:
    """Whether ``one`` refers to ``other`` ("See X", X being ``other``'s headword)."""
    return headword_key(other["headword"]) in {key for target in one["references"] for key in reference_keys(target)}


def groups(parts: list[Part]) -> list[list[int]]:
    """The positions of ``parts`` gathered into groups of related texts (`related`, followed
    through: a text related to one of a group is of it), each in order, groups by first position."""
    found: list[list[int]] = []
    for position, part in enumerate(parts):
        joined = [g for g in found if any(related(part, parts[other]) for other in g)]
        merged = sorted({p for g in joined for p in g} | {position})
        found = [g for g in found if g not in joined] + [merged]
    return sorted(found)


def arranged(reader: Reader, answer: SearchAnswer, lead: bool = True) -> SearchAnswer:
    """A search's hits as a judge reads them: every hit with text before the empty headings
    (which list their sections), and among the first `ZONE` hits, within each group of texts
    that address the same rule (`related`), the governing text first, in the group's first
    place (unless the first hit is named by the query or is of the quick-start rules; never when
    not ``lead``: a page after the first), each hit it governs over saying why it gives way.
    Unrelated hits never govern over each other, however close they rank."""
    results = answer["results"]
    empty = [r for r in results if r["sections"] or (r["series"].startswith("rulebook:") and not r["text"])]
    ordered = [r for r in results if r not in empty] + empty
    # The governing text leads unless the query names the first hit's entry, or that hit is of the
    # quick-start rules (a question about the introductory game): those keep their place, labelled.
    lead = lead and bool(ordered) and not ordered[0]["full"] and tier(ordered[0], reader) != "variant"
    zone = list(ordered[:ZONE])
    for group in groups(cast("list[Part]", zone)):
        if len(group) > 1:
            governed = govern(cast("list[Part]", [zone[p] for p in group]), reader, lead)
            for place, part in zip(group, governed, strict=True):
                zone[place] = cast("SearchResult | HistoryResult", part)
    answer["results"] = [*zone, *ordered[ZONE:]]
    return answer


def offline_facts(reader: Reader, part: Part) -> dict[str, Any]:
    """What the export's search needs to arrange its hits as `arranged` does: the part's tier and
    date (``tier``, ``since``), whether it is an empty heading, whether it takes part in
    deciding which text governs (``candidate``), and what relates it to other hits (`related`):
    its headword's key (``name``) and the keys its "See X" references name (``refers``)."""
    amends = bool(part["partial"]) and not part["series"].startswith("rulebook:")
    empty = bool(part["sections"]) or (part["series"].startswith("rulebook:") and not part["text"])
    return {
        "name": headword_key(part["headword"]),
        "refers": sorted({key for target in part["references"] for key in reference_keys(target)}),
        "tier": TIERS[tier(part, reader)],
        "since": part["valid_from"] or "",
        "heading": empty,
        "candidate": bool(part["text"] or amends) and part["status"] == "active",
    }


def facts(reader: Reader, version: Version) -> tuple[int, int, str | None, list[TopicRef]]:
    """What an answer part (`kb.read.parts.Parts.part`) tells of ``version`` from here: its number in
    its series, how many that has, what its text lacks, and the sections under it if a heading."""
    number, of = placed(version)[:2]
    if not heading(version):
        return number, of, partial(version), []
    under = sections(reader, version)
    lacking = "the sections under it follow" if under else "this library has no sections under it"
    return number, of, f"No text of its own: it is a heading; {lacking}.", under
