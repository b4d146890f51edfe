"""The baselines of the fresh-queries benchmark (`fresh_queries.py`): SQLite FTS5 and tantivy on the same version rows.

Both are set up as the project sets itself up: the versions of the store (`common.version_rows`:
headword, card names, text) indexed with stemming, the headword weighted 4, card names 2 and
the text 1 (the project's field boosts, `kb.boosts`), a separate table (index) of only the versions in
force today for in-force searches, and the days each version was in force beside it for the
other scopes. Each answers ``search(query, scope, day)`` with the 10 best topics, each with its
headword and a snippet of its text marked.

- FTS5 (`Fts`): ``porter unicode61 remove_diacritics 2`` tokenizer, each table optimised
  (merged into one b-tree) once written; ranked by ``bm25`` with the weights above, the days as
  unindexed columns filtered in the query; the snippets made for the 10 topics chosen only.
  FTS5 has no fuzzy matching: a fuzzy word is its first four letters as a prefix.
- tantivy (`Tantivy`, the optional ``bench`` extra: ``pip install -e '.[bench]'``): BM25,
  the ``en_stem`` tokenizer, the same boosts, the days as integer fast fields filtered by range
  queries; a fuzzy word matches within one edit (a swap counting one) in every field.

Every version: the best version of each topic, until 10 topics.
"""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

from common import VersionRow
from query_stream import Query, words_of

from kb import boosts

TOPICS = 10
FIELDS = ("headword", "cards", "text")
BOOSTS = {field: boosts.BOOSTS[field] for field in FIELDS}
"""The project's boosts of the fields both baselines hold (`kb.boosts`)."""
BM25_WEIGHTS = ", ".join(str(BOOSTS[field]) for field in FIELDS)
"""FTS5's ``bm25`` weights of the columns, in their order."""
END = dt.date.max.toordinal()


def in_force(rows: list[VersionRow], today: dt.date) -> list[VersionRow]:
    day = today.toordinal()
    return [r for r in rows if r.start <= day < r.end]


def _quoted(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def fts_match(query: Query) -> str:
    """The FTS5 query of a stream query: a pair must match both words, a question any."""
    if query.kind == "phrase":
        return query.text
    if query.kind == "field":
        name, value = query.text.split(":", 1)
        return f"{'cards' if name == 'card' else name} : {_quoted(value.strip(chr(34)))}"
    if query.kind == "fuzzy":
        return query.text[:4] + "*"
    words = words_of(query.text)
    return (" OR " if query.kind == "question" else " ").join(_quoted(w) for w in words)


class Fts:
    """The FTS5 baseline: table ``v`` of every version, ``c`` of those in force."""

    SNIPPET = "snippet({t}, 2, '<mark>', '</mark>', ' … ', 24)"

    @staticmethod
    def write(path: Path, rows: list[VersionRow], today: dt.date) -> float:
        """Write both tables into ``path``; the CPU seconds it took."""
        started = time.process_time()
        path.unlink(missing_ok=True)
        db = sqlite3.connect(path)
        for table, chosen in (("v", rows), ("c", in_force(rows, today))):
            db.execute(
                f"CREATE VIRTUAL TABLE {table} USING fts5(headword, cards, text, topic UNINDEXED,"
                " valid_from UNINDEXED, valid_to UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')"
            )
            db.executemany(
                f"INSERT INTO {table} (rowid, headword, cards, text, topic, valid_from, valid_to)"
                " VALUES (?,?,?,?,?,?,?)",
                [(r.id, r.headword, r.cards, r.text, r.topic, r.start, r.end) for r in chosen],
            )
            db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
        db.commit()
        db.close()
        return time.process_time() - started

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    def search(self, query: Query) -> list[tuple[str, str]]:
        """(headword, snippet) of the 10 best topics."""
        match = fts_match(query)
        rank = f"ORDER BY bm25({{t}}, {BM25_WEIGHTS})"
        if query.scope == "in force":
            table, sql, args = "c", f"SELECT rowid FROM c WHERE c MATCH ? {rank} LIMIT {TOPICS}", (match,)
        elif query.scope == "as of":
            day = query.day.toordinal()  # type: ignore[union-attr]
            sql = f"SELECT rowid FROM v WHERE v MATCH ? AND valid_from <= ? AND valid_to > ? {rank} LIMIT {TOPICS}"
            table, args = "v", (match, day, day)  # type: ignore[assignment]
        else:
            table, sql, args = "v", f"SELECT rowid, topic FROM v WHERE v MATCH ? {rank}", (match,)
        try:
            cursor = self.db.execute(sql.replace("{t}", table), args)
            if query.scope == "every version":
                chosen: list[int] = []
                topics: set[str] = set()
                for ident, topic in cursor:
                    if topic not in topics:
                        topics.add(topic)
                        chosen.append(ident)
                        if len(chosen) == TOPICS:
                            break
                cursor.close()
            else:
                chosen = [ident for (ident,) in cursor]
        except sqlite3.OperationalError:  # a query FTS5 cannot read
            return []
        if not chosen:
            return []
        marks = ",".join("?" * len(chosen))
        shown = dict(
            (ident, (headword, snippet))
            for ident, headword, snippet in self.db.execute(
                f"SELECT rowid, headword, {self.SNIPPET} FROM {{t}} WHERE {{t}} MATCH ? AND rowid IN ({marks})".replace(
                    "{t}", table
                ),
                (match, *chosen),
            )
        )
        return [shown[ident] for ident in chosen if ident in shown]

    def close(self) -> None:
        self.db.close()


class Tantivy:
    """The tantivy baseline: index ``every`` of every version, ``now`` of those in force."""

    @staticmethod
    def schema() -> Any:
        import tantivy

        builder = tantivy.SchemaBuilder()
        for name in FIELDS:
            builder.add_text_field(name, stored=name != "cards", tokenizer_name="en_stem")
        builder.add_text_field("topic", stored=True, tokenizer_name="raw")
        builder.add_integer_field("valid_from", fast=True, indexed=True)
        builder.add_integer_field("valid_to", fast=True, indexed=True)
        return builder.build()

    @staticmethod
    def write(path: Path, rows: list[VersionRow], today: dt.date) -> float:
        """Write both indexes under ``path``; the CPU seconds it took."""
        import tantivy

        started = time.process_time()
        shutil.rmtree(path, ignore_errors=True)
        for name, chosen in (("every", rows), ("now", in_force(rows, today))):
            (path / name).mkdir(parents=True)
            index = tantivy.Index(Tantivy.schema(), path=str(path / name))
            writer = index.writer(heap_size=200_000_000, num_threads=1)
            for r in chosen:
                writer.add_document(
                    tantivy.Document(
                        headword=r.headword,
                        cards=r.cards,
                        text=r.text,
                        topic=r.topic,
                        valid_from=r.start,
                        valid_to=r.end,
                    )
                )
            writer.commit()
            writer.wait_merging_threads()
        return time.process_time() - started

    def __init__(self, path: Path) -> None:
        import tantivy

        self.tantivy = tantivy
        self.indexes = {name: tantivy.Index.open(str(path / name)) for name in ("every", "now")}
        self.searchers = {name: index.searcher() for name, index in self.indexes.items()}
        self.schema = self.indexes["every"].schema

    def _query(self, index: Any, query: Query) -> Any:
        if query.kind == "fuzzy":
            fuzzy = {name: (False, 1, True) for name in FIELDS}
            return index.parse_query(query.text, list(FIELDS), field_boosts=BOOSTS, fuzzy_fields=fuzzy)
        text = query.text
        if query.kind == "field":
            name, value = text.split(":", 1)
            text = f"{'cards' if name == 'card' else name}:{value}"
        elif query.kind in ("word", "pair", "question"):
            words = words_of(text)
            text = " ".join(("+" if query.kind == "pair" else "") + w for w in words)
        return index.parse_query(text, list(FIELDS), field_boosts=BOOSTS)

    def search(self, query: Query) -> list[tuple[str, str]]:
        """(headword, snippet) of the 10 best topics."""
        tantivy = self.tantivy
        name = "now" if query.scope == "in force" else "every"
        index, searcher = self.indexes[name], self.searchers[name]
        try:
            words = self._query(index, query)
        except ValueError:  # a query tantivy cannot read
            return []
        found = words
        if query.scope == "as of":
            day = query.day.toordinal()  # type: ignore[union-attr]
            integer = tantivy.FieldType.Integer
            found = tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Must, words),
                    (tantivy.Occur.Must, tantivy.Query.range_query(self.schema, "valid_from", integer, None, day)),
                    (tantivy.Occur.Must, tantivy.Query.range_query(self.schema, "valid_to", integer, day, None, False)),
                ]
            )
        limit = TOPICS
        while True:
            hits = searcher.search(found, limit, count=False).hits
            docs, topics = [], set()
            for _, address in hits:
                doc = searcher.doc(address)
                topic = doc["topic"][0]
                if topic not in topics:
                    topics.add(topic)
                    docs.append(doc)
                    if len(docs) == TOPICS:
                        break
            if len(docs) == TOPICS or len(hits) < limit:
                break
            limit *= 4
        snippets = tantivy.SnippetGenerator.create(searcher, words, self.schema, "text")
        return [(doc["headword"][0], snippets.snippet_from_doc(doc).to_html()) for doc in docs]

    def close(self) -> None:
        self.searchers.clear()
        self.indexes.clear()
