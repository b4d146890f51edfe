"""Parse rules documents (rulebooks, glossaries, Current Rulings) into entries.

This package knows nothing of storage: it turns the text of one document into a
`ParseResult` (the document's metadata, its entries with their source lines, and the
lines it set apart as forum chrome or could not parse).
"""

from rulings.model import Document, Entry, ParseError, ParseResult

__all__ = ["Document", "Entry", "ParseError", "ParseResult"]
