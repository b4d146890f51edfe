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
import datetime as dt
import difflib
import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whoosh import query
from whoosh.searching import Searcher

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
    """The plain words typed (for "did you mean")."""


def _terms(analyzer: Any, text: str) -> list[str]:
    return [t.text for t in analyzer(text)]


def _anywhere(word: str) -> query.Query | None:
    """One plain word in the headword, the card names or the text."""
    if word.endswith("*") and len(word) > 1:
        stem = _terms(_NAMES, word.rstrip("*"))
        if len(stem) != 1:
            return None
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
    """Read a query as a person types it; never raises."""
    parsed = Parsed([], [], [])
    matches = list(_PART.finditer(text[:MAX_QUERY]))
    only_stop = all(m["word"] is not None and not m["field"] and m["word"].lower() in STOP for m in matches)
    for match in matches:
        if not only_stop and match["word"] is not None and not match["field"] and match["word"].lower() in STOP:
            continue
        field = FIELDS.get((match["field"] or "").lower())
        raw = match["phrase"] if match["phrase"] is not None else match["word"]
        if match["field"] and not field:
            raw = f"{match['field']} {raw}"
        if field or match["phrase"] is not None:
            built = _phrase(field, raw)
        else:
            words = [w for w in re.split(r"[^\w'\u2019.*\-\[\]]+", raw) if w]
            parsed.words += [] if match["neg"] else words
            built = _all([_anywhere(w) for w in words])
        if built is not None:
            (parsed.must_not if match["neg"] else parsed.must).append(built)
    return parsed


def _fuzzy(word: str) -> query.Query:
    """A word matched within one edit (short words) or two in headwords and card names."""
    terms = _terms(_NAMES, word)
    return query.Or([query.FuzzyTerm(f, t, maxdist=1 if len(t) < 6 else 2, prefixlength=1)
                     for f in ("headword", "cards") for t in terms])  # fmt: skip


def _all(parts: list[query.Query | None]) -> query.Query | None:
    kept = [p for p in parts if p is not None]
    return query.And(kept) if len(kept) > 1 else (kept[0] if kept else None)


def run(
    searcher: Searcher, text: str, allowed: set[int] | None, game: str | None, kind: str | None, limit: int,
    fuzzy: bool = False,
) -> list[tuple[int, str]]:  # fmt: skip
    """(version id, highlighted snippet) of the best hits among the ``allowed`` documents (all when None)."""
    parsed = parse_query(text)
    if not parsed.must:
        return []
    must = parsed.must
    if fuzzy:
        must = [_fuzzy(w) for w in parsed.words]
        if not must:
            return []
    whole: query.Query = query.And(must)
    if parsed.must_not:
        whole = query.AndNot(whole, query.Or(parsed.must_not))
    if game:
        whole = query.And([whole, query.Term("game", game)])
    if kind:
        whole = query.And([whole, query.Term("kind", series_kind(kind))])
    results = searcher.search(whole, limit=max(1, min(limit, 200)), filter=allowed, terms=True)
    return snippets(results)


def search(
    kb: KnowledgeBase, text: str, as_of: dt.date | None = None, game: str | None = None, kind: str | None = None,
    limit: int = 20, every_version: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """The best hits for ``text`` among the versions in force on ``as_of`` (today by default;
    ``every_version`` searches all), with snippets and citations, and a "did you mean"."""
    on = None if every_version else (as_of or dt.date.today())
    searcher, allowed = kb.searcher(on)
    hits = run(searcher, text, allowed, game, kind, limit)
    suggestion = suggest(text, kb.names(), searcher)
    fuzzy = False
    if not hits:
        hits = run(searcher, text, allowed, game, kind, limit, fuzzy=True)
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
            "suggestion": suggestion, "fuzzy": fuzzy}  # fmt: skip


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
    word the index does not know, or for a name typed without its punctuation (``chajoh``)."""
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
    fixed = [w if w in known else (difflib.get_close_matches(w, vocabulary, n=1, cutoff=0.75) or [w])[0] for w in words]
    corrected = " ".join(fixed)
    return corrected if corrected != folded else None


def _known_text(reader: Any, word: str) -> bool:
    return any(("text", t) in reader for t in _terms(_TEXT, word))
