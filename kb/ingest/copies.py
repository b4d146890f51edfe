"""Documents whose text is already in the library: a second copy is refused, naming the first.

An update applied twice is not the update: "Delete the last sentence of the existing entry"
would delete a second sentence, and a third copy would find no text to amend. Two documents are
one when their *normalized* text is the same (`text_fingerprint`): the lines decoded (any
accepted encoding, BOM or none, any line ending), quotes folded, runs of spaces collapsed,
blank lines dropped and case folded. A PDF is compared by its bytes (its text is only known
after an extraction that costs seconds). `refuse_copies` checks a manifest's documents (a
``build``), `refuse_copy` a document about to be added (an ``add``).
"""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path

from kb.errors import BuildError
from rulings.model import Document, ParseError
from rulings.normalize import clean_line
from rulings.source import MAX_BYTES, decode, read_bounded


def text_fingerprint(path: str | Path) -> str:
    """SHA-256 of the normalized text of the document at ``path`` (of its bytes for a PDF, or
    for bytes no accepted encoding decodes: the parse then says what is wrong with them)."""
    from rulings.extract import kind_of  # here: a search reads no document

    name = str(path)
    try:
        data = read_bounded(path, MAX_BYTES)
    except (OSError, ValueError):
        return ""  # unreadable: the parse refuses it, naming why
    if kind_of(name, data) == "pdf":
        return hashlib.sha256(data).hexdigest()
    try:
        lines = decode(name, data).lines
    except ParseError:
        return hashlib.sha256(data).hexdigest()
    digest = hashlib.sha256()
    for line in lines:
        text = clean_line(unicodedata.normalize("NFKC", line)).casefold()
        if text:
            digest.update(text.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def _name(document: Document, library: Path | None) -> str:
    path = Path(document.path)
    if library is not None and path.is_relative_to(library.resolve()):
        path = path.relative_to(library.resolve())
    return f"document {document.id!r} ({path})"


def refuse_copies(documents: list[Document], library: Path | None = None) -> list[str]:
    """The fingerprint of each of ``documents``; a `BuildError` naming both when two have the same text."""
    seen: dict[str, Document] = {}
    prints = []
    for document in documents:
        fingerprint = text_fingerprint(document.path)
        prints.append(fingerprint)
        first = seen.setdefault(fingerprint, document) if fingerprint else document
        if first is not document:
            raise BuildError(
                f"{document.path}: {_name(document, library)} has the same text as {_name(first, library)}; "
                "a document applied twice is not what it says: remove one of them from the manifest"
            )
    return prints


def refuse_copy(source: Path, documents: list[Document], library: Path) -> None:
    """A `BuildError` when ``source`` has the text of one of the library's ``documents``."""
    fingerprint = text_fingerprint(source)
    for document in documents:
        if fingerprint and text_fingerprint(document.path) == fingerprint:
            raise BuildError(
                f"{source}: refused: its text is the text of {_name(document, library)}, already in the library; "
                "an update added twice would be applied twice"
            )
