"""Where an index lives and how it is written: its schema's fields (`fields`), its files and
table of contents (`index`, `FileStorage`, `TOC`), a segment's reader and writer
(`SegmentReader`, `SegmentWriter`)."""

from whoosh import fields, index
from whoosh.filedb.filestore import FileStorage
from whoosh.index import TOC
from whoosh.reading import SegmentReader
from whoosh.writing import SegmentWriter

__all__ = ["TOC", "FileStorage", "SegmentReader", "SegmentWriter", "fields", "index"]
