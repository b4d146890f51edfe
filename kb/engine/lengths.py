"""How an index stores the length of a field in a document: one byte, a code for an approximate
length (`length_to_byte`, `byte_to_length`); `stored_length` is a length as stored and read back."""

from whoosh.util.numeric import byte_to_length, length_to_byte

__all__ = ["byte_to_length", "length_to_byte", "stored_length"]


def stored_length(length: int) -> int:
    """``length`` as the index stores it and gives it back (the length its code stands for)."""
    found: int = byte_to_length(length_to_byte(length))
    return found
