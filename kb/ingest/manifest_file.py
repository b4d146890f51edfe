"""Write the library's manifest only over the bytes last read from it.

``rulings add`` and ``rulings build --cards`` append a table to ``library.toml`` and, when they
fail before the new knowledge base is in service, take it out again. An editor does not take the
library's lock: a table appended by hand meanwhile would be erased by writing back the bytes read
before. `replace` renames the new bytes in (`kb.files.write_atomic`) only while the file still
holds the bytes the command read last; otherwise it writes nothing and refuses (a `BuildError` line).
"""

from __future__ import annotations

from pathlib import Path

from kb import files
from kb.errors import BuildError

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters escaped,
    everything else (accents, emoji) written as itself. Raises ValueError on text that is not
    Unicode (a lone surrogate, e.g. from undecodable command-line bytes)."""
    out = ['"']
    for char in text:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"{text!r} is not valid Unicode text")
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def replace(path: Path, read: bytes, new: bytes, step: str = "") -> None:
    """Replace ``path`` with ``new`` if it still holds ``read``; else refuse (nothing written)."""
    try:
        now = path.read_bytes()
    except OSError as err:
        raise BuildError(f"{path}: cannot read: {err.strerror or err}") from None
    if now != read:
        raise BuildError(f"{path} changed while this command ran (edited meanwhile?)")
    try:
        files.write_atomic(path, new, step=step)
    except OSError as err:
        raise BuildError(f"{path}: cannot write: {err.strerror or err}") from None
