"""The names Whoosh does not publish that the engine reads (`PRIVATE`), checked at once
(`check`) as the engine is imported: a release of Whoosh that renamed or dropped one is
refused then, in one line naming the release and the names, rather than found out by the
first search that reads one (an AttributeError, a failed request).

A name is there when Whoosh's module or class has it, or, for an attribute an object is
given as it is made or used (``self._ids = ...``), when the code of the class names it.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Iterator

from kb.errors import EngineMismatch

TESTED = "2.7.4"
"""The release of Whoosh the engine is written and tested against."""

PRIVATE: dict[str, tuple[str, ...]] = {
    "whoosh.system": ("_INT_SIZE",),
    "whoosh.codec.whoosh3": ("_lenfield",),
    "whoosh.codec.whoosh3:W3LeafMatcher": (
        "_byteids", "_data", "_next_block", "_read_data", "_read_values", "_read_weights", "_values", "_weights"),
    "whoosh.codec.whoosh3:W3PerDocReader": ("_cached_reader",),
    "whoosh.columns:NumericColumn.Reader": ("_basepos", "_count", "_dbfile", "_fixedlen"),
    "whoosh.matching:ListMatcher": ("_all_weights", "_ids", "_values", "_weights"),
    "whoosh.matching.wrappers:FilterMatcher": ("_exclude", "_ids"),
    "whoosh.reading:SegmentReader": ("_perdoc",),
    "whoosh.scoring:BM25F": ("_field_B",),
}  # fmt: skip
"""Where each private name is read from -> the names (`postings`, `weighting`, `writing`)."""


def version() -> str:
    """The release of Whoosh installed."""
    import whoosh

    return str(whoosh.versionstring())


def missing() -> list[str]:
    """The private names `PRIVATE` lists that the installed Whoosh lacks, as ``module:Class.name``."""
    gone: list[str] = []
    for where, names in PRIVATE.items():
        module_name, _, owner_path = where.partition(":")
        try:
            owner: object = importlib.import_module(module_name)
            for part in owner_path.split(".") if owner_path else ():
                owner = getattr(owner, part)
        except (ImportError, AttributeError):
            gone += [f"{where}.{name}" for name in names]
            continue
        used = set() if not isinstance(owner, type) else set(_names_in(owner))
        gone += [f"{where}.{name}" for name in names if not hasattr(owner, name) and name not in used]
    return gone


def _names_in(cls: type) -> Iterator[str]:
    """The attribute names the code of ``cls`` (and of the classes it derives from) uses."""
    for klass in cls.__mro__:
        for value in vars(klass).values():
            function = getattr(value, "__func__", value)
            code = getattr(function, "__code__", None)
            if isinstance(code, types.CodeType):
                yield from code.co_names


def check() -> None:
    """Refuse a release of Whoosh without every private name the engine reads."""
    gone = missing()
    if gone:
        raise EngineMismatch(
            f"Whoosh {version()} lacks {', '.join(gone)}, which kb.engine reads (written for Whoosh {TESTED})"
        )
