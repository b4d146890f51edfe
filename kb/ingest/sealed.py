"""Pickles that say when they are damaged: what a build keeps for the next one.

`dump` writes the pickle followed by the SHA-256 of its bytes; `load` checks the digest before
unpickling, so a flipped byte, a file cut short or one from before digests is a `Damaged` error
naming the file, never a traceback from deep inside `pickle` (MemoryError, UnpicklingError,
ValueError) nor, worse, a pickle that loads with one ruling's text changed. A cache that does not
load is only a cache: the builder discards it, says so in one warning and rebuilds what it held.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from kb.errors import DamagedCache

DIGEST = 32
"""Bytes of the SHA-256 digest that ends each file."""


def dump(value: object, path: Path) -> None:
    """Write ``value`` pickled to ``path``, sealed with its digest."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    with path.open("wb") as file:
        file.write(data)
        file.write(hashlib.sha256(data).digest())


def load(path: Path) -> object:
    """The value pickled at ``path``; `DamagedCache` when the file is unreadable, its digest does not
    match or it does not unpickle (a class the code no longer has)."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise DamagedCache(f"{path}: cannot read it ({err.strerror or err})") from None
    body, seal = data[:-DIGEST], data[-DIGEST:]
    if len(data) <= DIGEST or hashlib.sha256(body).digest() != seal:
        raise DamagedCache(f"{path}: damaged (its checksum does not match its {len(data):,} bytes)")
    try:
        return pickle.loads(body)
    except Exception as err:  # whatever unpickling raises, the cache is only discarded
        raise DamagedCache(f"{path}: does not load ({type(err).__name__})") from None
