"""Search a knowledge base: a forgiving query language over the Whoosh index.

Plain words must all match (in a headword, a card name or the text; headword and card-name
hits rank first, BM25F). ``"..."`` is a phrase; ``card:``, ``kind:``, ``doc:``, ``game:`` and
``headword:`` restrict a word or phrase to a field; ``-word`` excludes; ``word*`` is a
prefix. Anything else a person types is read as words: unbalanced quotes, lone operators,
SQL, HTML or emoji give results or none, never an error. A "did you mean" comes from
headwords and card names; when nothing matches, headwords and card names are matched
fuzzily (one edit for short words, two for longer).
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import difflib
import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whoosh import query
from whoosh.searching import Searcher

from kb import budget
from kb.index import name_analyzer, text_analyzer
from kb.snippet import snippets
from kb.versions import series_kind

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

MAX_QUERY = 500
"""Characters of a query read; the rest is ignored."""
FIELDS = {"card": "cards", "cards": "cards", "kind": "kind", "doc": "doc", "game": "game", "headword": "headword"}
STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "to",
        "what",
        "when",
        "with",
    ]
)
_PART = re.compile(r'(?P<neg>-)?(?:(?P<field>[A-Za-z]+):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>[^\s"]+))')
_NAMES = name_analyzer()
_TEXT = text_analyzer()


@dataclass
class Parsed:
    """A query read into Whoosh terms."""

    must: list[query.Query]
    must_not: list[query.Query]
    words: list[str]
    """The plain words typed (for "did you mean"), each once."""
    left_out: list[str] = dataclasses.field(default_factory=list)
    """Words or phrases not searched: over the budget of parts or terms."""


def _terms(analyzer: Any, text: str) -> list[str]:
    return [t.text for t in analyzer(text)]


def _anywhere(word: str) -> query.Query | None:
    """One plain word in the headword, the card names or the text."""
    if word.endswith("*") and len(word) > 1:
        stem = _terms(_NAMES, word.rstrip("*"))
        if len(stem) != 1:
            return None
        if len(stem[0]) >= budget.MIN_PREFIX:
            return query.Or([query.Prefix(f, stem[0]) for f in ("headword", "cards", "text")])
    names, texts = _terms(_NAMES, word), _terms(_TEXT, word)
    if not names:
        return None
    options = [query.And([query.Term(f, t) for t in names]) for f in ("headword", "cards")]
    options.append(query.And([query.Term("text", t) for t in texts]))
    return query.Or(options)


def _phrase(field: str | None, text: str) -> query.Query | None:
    if field in ("kind", "doc", "game"):
        value = text.strip().lower()
        return query.Term(field, series_kind(value) if field == "kind" else value) if value else None
    fields = [field] if field else ["headword", "cards", "text"]
    options = []
    for name in fields:
        terms = _terms(_TEXT if name == "text" else _NAMES, text)
        if terms:
            options.append(query.Phrase(name, terms) if len(terms) > 1 else query.Term(name, terms[0]))
    return query.Or(options) if options else None


def parse_query(text: str) -> Parsed:
    """Read a query as a person types it; never raises. Each part is kept once, and at most
    `budget.PARTS` parts and `budget.TERMS` index terms are kept, exclusions after the
    rest (what is over goes to ``left_out``)."""
    parsed = Parsed([], [], [])
    matches = sorted(_PART.finditer(text[:MAX_QUERY]), key=lambda m: bool(m["neg"]))  # exclusions last
    only_stop = all(m["word"] is not None and not m["field"] and m["word"].lower() in STOP for m in matches)
    seen: set[tuple[bool, query.Query]] = set()
    spent = 0
    for match in matches:
        if not only_stop and match["word"] is not None and not match["field"] and match["word"].lower() in STOP:
            continue
        field = FIELDS.get((match["field"] or "").lower())
        raw = match["phrase"] if match["phrase"] is not None else match["word"]
        if match["field"] and not field:
            raw = f"{match['field']} {raw}"
        negated = bool(match["neg"])
        plain = not field and match["phrase"] is None
        if plain:
            pieces = [(w, _anywhere(w)) for w in re.split(r"[^\w'\u2019.*\-\[\]]+", raw) if w]
        else:
            pieces = [(raw, _phrase(field, raw))]
        kept: list[query.Query] = []
        for word, built in pieces:
            if built is None or (negated, built) in seen:
                continue
            cost = budget.leaf_terms(built)
            if len(seen) >= budget.PARTS or spent + cost > budget.TERMS:
                parsed.left_out.append(word)
                continue
            seen.add((negated, built))
            spent += cost
            kept.append(built)
            if plain and not negated:
                parsed.words.append(word)
        if kept:
            (parsed.must_not if negated else parsed.must).append(_all(kept))
    return parsed


def _fuzzy(words: list[str]) -> list[query.Query]:
    """Each word matched within one edit (short words) or two in headwords and card names,
    while the whole stays within `budget.TERMS` index terms."""
    parts, spent = [], 0
    for word in words:
        terms = _terms(_NAMES, word)
        part = query.Or([query.FuzzyTerm(f, t, maxdist=1 if len(t) < 6 else 2, prefixlength=1)
                         for f in ("headword", "cards") for t in terms])  # fmt: skip
        spent += budget.leaf_terms(part)
        if spent > budget.TERMS:
            break
        parts.append(part)
    return parts


def _all(parts: list[query.Query | None]) -> query.Query | None:
    kept = [p for p in parts if p is not None]
    return query.And(kept) if len(kept) > 1 else (kept[0] if kept else None)


def built_query(
    searcher: Searcher, text: str, fuzzy: bool = False, work: budget.Work | None = None
) -> query.Query | None:  # fmt: skip
    """The Whoosh query ``text`` runs as, prefixes and misspellings expanded to index terms
    within the budget (None: nothing to search); ``work`` gets the terms it holds."""
    work = work if work is not None else budget.Work()
    parsed = parse_query(text)
    work.left_out += parsed.left_out
    must = _fuzzy(parsed.words) if fuzzy else parsed.must
    if not parsed.must or not must:
        return None
    reader = searcher.reader()
    whole: query.Query = query.And([budget.expand(part, reader, work) for part in must])
    if parsed.must_not:
        whole = query.AndNot(whole, query.Or([budget.expand(part, reader, work) for part in parsed.must_not]))
    return whole


def run(
    searcher: Searcher, text: str, allowed: set[int] | None, game: str | None, kind: str | None, limit: int,
    fuzzy: bool = False, work: budget.Work | None = None,
) -> list[tuple[int, str]]:  # fmt: skip
    """(version id, highlighted snippet) of the best hits among the ``allowed`` documents (all
    when None), found within the budget; ``work`` gets what the search did."""
    work = work if work is not None else budget.Work()
    whole = built_query(searcher, text, fuzzy, work)
    if whole is None:
        return []
    if game:
        whole = query.And([whole, query.Term("game", game)])
    if kind:
        whole = query.And([whole, query.Term("kind", series_kind(kind))])
    collector = budget.collector(max(1, min(limit, 200)), allowed, work)
    searcher.search_with_collector(whole, collector)
    return snippets(collector.results())


def search(
    kb: KnowledgeBase, text: str, as_of: dt.date | None = None, game: str | None = None, kind: str | None = None,
    limit: int = 20, every_version: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
    ``every_version`` searches all), with snippets and citations, and a "did you mean".
    ``partial`` is true when the budget cut the search short (better hits may exist);
    ``left_out`` lists the words or phrases over the budget, not searched."""
    on = None if every_version else (as_of or dt.date.today())
    searcher, allowed = kb.searcher(on)
    work = budget.Work()
    hits = run(searcher, text, allowed, game, kind, limit, work=work)
    suggestion = suggest(text, kb.names(), searcher)
    fuzzy = False
    if not hits:
        hits = run(searcher, text, allowed, game, kind, limit, fuzzy=True, work=work)
        fuzzy = bool(hits)
    by_id = kb.version_by_id
    results = []
    for version_id, snippet in hits:
        version = by_id[version_id]
        part = kb.part(version, on or dt.date.today())
        fallback = html.escape(
            (version.text or ", ".join(f"See {r}" for r in version.references) or version.note)[:200]
        )
        results.append({**part, "topic": version.topic, "snippet": snippet or fallback})
    return {"query": text[:MAX_QUERY], "as_of": on.isoformat() if on else None, "results": results,
            "suggestion": suggestion, "fuzzy": fuzzy, "partial": work.stopped or work.capped,
            "left_out": list(dict.fromkeys(work.left_out))}  # fmt: skip


def complete(kb: KnowledgeBase, prefix: str, limit: int = 10) -> list[str]:
    """Up to ``limit`` headwords and card titles starting with ``prefix`` (folded)."""
    wanted = " ".join(_terms(_NAMES, prefix))
    if not wanted:
        return []
    keys = kb.name_keys()
    start = bisect.bisect_left(keys, (wanted, ""))
    out: list[str] = []
    for key, name in keys[start:]:
        if not key.startswith(wanted) or len(out) >= limit:
            break
        if name not in out:
            out.append(name)
    return out


def suggest(text: str, names: dict[str, str], searcher: Searcher) -> str | None:
    """A "did you mean" from headwords and card names (``names``: folded name -> name): for a
    word the index does not know (the first `budget.CORRECTED` such words), or for a name
    typed without its punctuation (``chajoh``)."""
    parsed = parse_query(text)
    words = [t for w in parsed.words for t in _terms(_NAMES, w.rstrip("*"))]
    if not words:
        return None
    folded = " ".join(words)
    exact = names.get(folded)
    if exact is not None:
        typed = " ".join(parsed.words)
        return exact if exact.lower() != typed.lower() else None
    reader = searcher.reader()
    known = {w for w in words if any((f, w) in reader for f in ("headword", "cards")) or _known_text(reader, w)}
    if len(known) == len(words):
        return None
    whole = difflib.get_close_matches(folded, list(names), n=1, cutoff=0.7)
    if whole:
        return names[whole[0]]
    vocabulary = {word for key in names for word in key.split()}
    unknown = [w for w in dict.fromkeys(words) if w not in known][: budget.CORRECTED]
    closest = {w: (difflib.get_close_matches(w, vocabulary, n=1, cutoff=0.75) or [w])[0] for w in unknown}
    fixed = [closest.get(w, w) for w in words]
    corrected = " ".join(fixed)
    return corrected if corrected != folded else None


def _known_text(reader: Any, word: str) -> bool:
    return any(("text", t) in reader for t in _terms(_TEXT, word))
