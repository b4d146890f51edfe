"""Reading the names a "did you mean" compares a mistyped word with: every headword and card
name folded (the store's ``names`` table) and their characters counted (its ``name_table``,
`kb.vocabulary.NameTable`), each read once per reader and then shared by its threads.

A store built before the counted table was kept has none: its first comparison reads only the
names of a length that may match, and the table is counted from the names the second time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from kb.errors import Damaged
from kb.vocabulary import NameTable, lengths_within


class Rows(Protocol):
    """What names are read through: a reader's store (`kb.read.reader.Reader`)."""

    path: Path
    names_read: NameReading

    def rows(self, sql: str, *parameters: Any) -> Any: ...


class NameReading:
    """The folded names of one reader's store and their table, read once (then published:
    threads may share them; two threads asking first may both read)."""

    def __init__(self, store: Rows) -> None:
        self._store = store
        self._folded: tuple[str, ...] | None = None
        self._table: NameTable | None = None
        self._asked = False

    def folded(self) -> tuple[str, ...]:
        """Every folded name, in the store's order."""
        if self._folded is None:
            self._folded = tuple(r[0] for r in self._store.rows("SELECT folded FROM names ORDER BY rowid"))
        return self._folded

    def within(self, shortest: int, longest: int) -> Sequence[str]:
        """The folded names of ``shortest`` to ``longest`` characters, in the store's order."""
        if self._folded is not None:
            return [name for name in self._folded if shortest <= len(name) <= longest]
        sql = "SELECT folded FROM names WHERE length(folded) BETWEEN ? AND ? ORDER BY rowid"
        return [r[0] for r in self._store.rows(sql, shortest, longest)]

    def table(self) -> NameTable | None:
        """The folded names with their characters counted: the table the build kept in the
        store; or, from a store built before it was kept, counted when asked a second time,
        None the first time (one comparison of all the names costs less than counting them: a
        command run once)."""
        if self._table is None:
            kept = self._kept()
            if kept is not None:
                self._table = kept
            elif not self._asked:
                self._asked = True
                return None
            else:
                self._table = NameTable(self.folded())
        return self._table

    def _kept(self) -> NameTable | None:
        """The table the build kept in the store (`kb.schema.NAME_TABLE`), or None."""
        if not self._store.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'name_table'"):
            return None
        found = self._store.rows("SELECT names, alphabet, counts, size FROM name_table")
        if not found:
            return None
        try:
            return NameTable.unpacked(*found[0])
        except (ValueError, TypeError) as err:  # its parts do not fit together: not what the build wrote
            raise Damaged(self._store.path, err) from None


class Names(Mapping[str, str]):
    """Folded headword or card name -> the name (`kb.ingest.store` made them), read as asked."""

    def __init__(self, store: Rows) -> None:
        self._store = store

    def __getitem__(self, folded: str) -> str:
        found = self._store.rows("SELECT name FROM names WHERE folded = ?", folded)
        if not found:
            raise KeyError(folded)
        return str(found[0][0])

    def __iter__(self) -> Iterator[str]:
        return iter(self._store.names_read.folded())

    def __len__(self) -> int:
        return int(self._store.rows("SELECT count(*) FROM names")[0][0])

    def near(self, word: str, cutoff: float) -> Sequence[str]:
        """The folded names whose difflib ratio with ``word`` may reach ``cutoff``: those whose
        characters counted may (`NameReading.table`), else those of a length that may."""
        table = self._store.names_read.table()
        if table is not None:
            return table.reachable(word, cutoff)
        return self._store.names_read.within(*lengths_within(len(word), cutoff))
