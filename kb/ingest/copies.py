"""Documents whose text is already in the library: a second copy is refused, naming the first.

An update applied twice is not the update: "Delete the last sentence of the existing entry"
would delete a second sentence, and a third copy would find no text to amend. Two documents are
one when their *normalized* text is the same (`text_fingerprint`): the lines decoded (any
accepted encoding, BOM or none, any line ending), quotes folded, case folded, and every run of
spaces, tabs and line breaks one space (a copy reflowed or with blank lines is the same). A PDF
is compared by its bytes (its text is only known after an extraction that costs seconds).
`refuse_copies` checks a manifest's documents (a ``build``), `refuse_copy` a document about to be
added (an ``add``), which also refuses a near copy: the same text without (or with) a preamble or
a signature, e.g. an update without the forum post that reposted it. A build keeps its documents'
fingerprints (`FINGERPRINTS`, by parse key: the key covers the bytes), so the next one computes
only those of new or changed documents.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path

from kb.errors import BuildError
from rulings.model import Document, ParseError
from rulings.source import MAX_BYTES, decode, read_bounded

NEAR = 0.5
"""The share of the longer text a shorter one within it makes for the two to be one document (`refuse_copy`)."""
FINGERPRINTS = "fingerprints.json"
"""The documents' text fingerprints inside a build directory."""
_QUOTES = (("\u2018", "'"), ("\u2019", "'"), ("\u201b", "'"), ("\u2032", "'"), ("\u201c", '"'), ("\u201d", '"'))


def normalized_text(path: str | Path) -> str | None:
    """The normalized text of the document at ``path`` (see the module); None for a PDF, for bytes
    no accepted encoding decodes, or for a file that does not read."""
    from rulings.extract import kind_of  # here: a search reads no document

    name = str(path)
    try:
        data = read_bounded(path, MAX_BYTES)
    except (OSError, ValueError):
        return None
    if kind_of(name, data) == "pdf":
        return None
    try:
        lines = decode(name, data).lines
    except ParseError:
        return None
    text = "\n".join(lines)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        for curly, straight in _QUOTES:  # `rulings.normalize.fold_quotes`, five times faster on a long text
            text = text.replace(curly, straight)
    return " ".join(text.casefold().split())


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def text_fingerprint(path: str | Path) -> str:
    """SHA-256 of the normalized text of the document at ``path`` (of its bytes for a PDF, or
    for bytes no accepted encoding decodes: the parse then says what is wrong with them)."""
    text = normalized_text(path)
    if text is not None:
        return _digest(text)
    try:
        return hashlib.sha256(read_bounded(path, MAX_BYTES)).hexdigest()
    except (OSError, ValueError):
        return ""  # unreadable: the parse refuses it, naming why


def _name(document: Document, library: Path | None) -> str:
    path = Path(document.path)
    if library is not None and path.is_relative_to(library.resolve()):
        path = path.relative_to(library.resolve())
    return f"document {document.id!r} ({path})"


def refuse_copies(
    documents: list[Document], library: Path, keys: list[str], known: dict[str, str] | None = None
) -> dict[str, str]:
    """The fingerprint of each of ``documents`` by its parse key (``known`` ones reused); a
    `BuildError` naming both when two have the same text."""
    prints = dict(known or {})
    seen: dict[str, Document] = {}
    for document, key in zip(documents, keys, strict=True):
        fingerprint = prints.get(key) or text_fingerprint(document.path)
        prints[key] = fingerprint
        first = seen.setdefault(fingerprint, document) if fingerprint else document
        if first is not document:
            raise BuildError(
                f"{document.path}: {_name(document, library)} has the same text as {_name(first, library)}; "
                "a document applied twice is not what it says: remove one of them from the manifest"
            )
    return {key: prints[key] for key in keys}


def load(build: Path | None) -> dict[str, str]:
    """The fingerprints a build kept (none when it kept none, or they do not read)."""
    try:
        kept = json.loads((build / FINGERPRINTS).read_text(encoding="utf-8")) if build else {}
    except (OSError, ValueError):
        return {}
    ok = isinstance(kept, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in kept.items())
    return kept if ok else {}


def save(build: Path, prints: dict[str, str]) -> None:
    """Keep ``prints`` in ``build`` for the next build."""
    (build / FINGERPRINTS).write_text(json.dumps(prints, indent=0, sort_keys=True), encoding="utf-8")


def refuse_copy(source: Path, documents: list[Document], library: Path) -> None:
    """A `BuildError` when ``source`` has the text of one of the library's ``documents``, or is a near
    copy of one: its text within theirs, or theirs within its, making at least `NEAR` of the longer
    (a repost's preamble or signature added or taken away)."""
    text = normalized_text(source)
    fingerprint = text_fingerprint(source)
    for document in documents:
        theirs = normalized_text(document.path)
        if fingerprint and (_digest(theirs) if theirs is not None else text_fingerprint(document.path)) == fingerprint:
            raise BuildError(
                f"{source}: refused: its text is the text of {_name(document, library)}, already in the library; "
                "an update added twice would be applied twice"
            )
        if not text or not theirs:
            continue
        shorter, longer = sorted((text, theirs), key=len)
        if len(shorter) >= NEAR * len(longer) and shorter in longer:
            how = "is within the text of" if shorter is text else "holds the whole text of"
            raise BuildError(
                f"{source}: refused: its text {how} {_name(document, library)}, already in the library, but for "
                f"{len(longer) - len(shorter)} characters before or after it (a repost's preamble?); "
                "an update added twice would be applied twice"
            )
