"""Opening a built index to search it: a searcher reading the index's files (scoring from field
lengths every thread's searchers share), the one line naming the file of a damaged index, and
the documents of the in-force index in force on a date (`kb.search.searchers` keeps each
thread's searchers and those documents, a set per date).

The search side holds an open index as a `kb.engine.handles.Index`."""

from __future__ import annotations

import datetime as dt
import gc
import warnings
from pathlib import Path

from whoosh import query
from whoosh.searching import Searcher

from kb.engine import memo
from kb.engine.handles import Index, searcher_of
from kb.errors import BuildError, Damaged
from kb.layout import NEVER


def opened(
    directory: Path, lengths: dict[tuple[str, str], bytes], totals: dict[tuple[str, str], int], shared: memo.Memo
) -> Index:
    """The index in ``directory`` opened to search it (`open_searcher`), sharing the tables
    ``shared`` with the other searchers of that index (`kb.engine.memo`)."""
    return memo.shared(open_searcher(directory, lengths, totals), shared)


def keeps_histories(index: Index) -> bool:
    """Whether ``index`` holds one document per topic, with its versions (`kb.index.history`)
    rather than one per version (as a build made before that index had one does)."""
    return "versions" in searcher_of(index).schema


def date_filter(on: dt.date) -> query.Query:
    """Versions in force on ``on``."""
    day = on.toordinal()
    return query.And([query.NumericRange("valid_from", None, day), query.NumericRange("valid_to", day + 1, NEVER)])


def in_force_on(index: Index, on: dt.date) -> set[int]:
    """The document numbers of ``index`` (one document per version) in force on ``on``."""
    return set(searcher_of(index).docs_for_query(date_filter(on)))


def open_searcher(
    directory: Path, lengths: dict[tuple[str, str], bytes], totals: dict[tuple[str, str], int]
) -> Searcher:
    """A searcher of the index in ``directory``, reading its files, not mapping them: a thread's
    searcher then costs well under a megabyte instead of the index's size in resident memory.
    It scores from the field lengths in ``lengths`` and their sums in ``totals``
    (`kb.engine.weighting`), which every thread's searchers share. A damaged index raises
    `kb.errors.Damaged` naming its file (`damaged_file`); one an older rulings made, `BuildError`."""
    from whoosh.filedb.filestore import FileStorage

    from kb.engine import weighting

    storage = FileStorage(str(directory), supports_mmap=False)
    try:
        return storage.open_index().searcher(weighting=weighting.BM25F(lengths, totals))
    except (ImportError, AttributeError):  # the schema pickled names code that has moved since
        raise BuildError(f"{directory}: made by an older version of rulings; run 'rulings build'") from None
    except Exception as err:  # only files cut short or damaged fail to open: a build wrote them whole
        detail = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
        with warnings.catch_warnings():  # Whoosh leaves open the file it failed to read: closed here, quietly
            warnings.simplefilter("ignore", ResourceWarning)
            _forget(err)
            path = damaged_file(directory)
            gc.collect()
    raise Damaged(path, detail)


def _forget(error: BaseException | None) -> None:
    """Drop the tracebacks of ``error`` and the errors it arose from, so that what their frames
    held (open files) is released now."""
    while error is not None:
        error.__traceback__ = None
        error = error.__context__


def damaged_file(directory: Path) -> Path:
    """The file of the Whoosh index in ``directory`` that cannot be read: its table of contents,
    else the first segment that does not open, else the folder itself."""
    from whoosh.filedb.filestore import FileStorage
    from whoosh.index import TOC
    from whoosh.reading import SegmentReader

    storage = FileStorage(str(directory), supports_mmap=False)
    tocs = sorted(
        directory.glob("_MAIN_*.toc"),
        key=lambda p: int(p.stem.rsplit("_", 1)[-1]) if p.stem.rsplit("_", 1)[-1].isdigit() else -1,
    )
    try:
        toc = TOC.read(storage, "MAIN")
    except Exception:
        return tocs[-1] if tocs else directory
    for segment in toc.segments:
        try:
            SegmentReader(storage, toc.schema, segment).close()
        except Exception:
            return next(iter(sorted(directory.glob(f"*{segment.segment_id()}*"))), directory)
    return directory
