"""The numbered rules' vectors of meaning, written into a build (``meaning.npz``, `kb.paths.MEANING`).

Every version of a numbered rule (series ``comprehensive-rules``: Magic's, Lorcana's, any game's
numbered document) in force on the build date or later gets the vector of its text, after the
titles of the sections it stands in ("Trample: The controller of an attacking creature with
trample first assigns ..."): a judge asks about trample in words the rule's own text need not
hold. The rules of earlier dates are searched by words alone (the file's ``since``). A vector is
found again by its text's digest, from the build in service when the same model made it (an
``add`` encodes its new texts only) or from this process's memory (1.5 KB a text),
so a build and an add write the same vectors.
Nothing is written without the sentence model (`kb.meaning.encoder.available`), and a build
made so answers by words alone.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from kb.meaning import encoder
from kb.model import Topic, Version
from kb.paths import MEANING
from kb.texts import NUMBERED_SERIES, section_titles

NEVER = 0
"""The ordinal written for a version's end when it has none (in force still)."""
_memo: dict[bytes, np.ndarray] = {}
_lock = threading.Lock()


def composed(version: Version, titles: str | None) -> str:
    """The text encoded for ``version``: its sections' titles, outermost first, then its text."""
    outer = " > ".join(reversed(titles.split("\n"))) if titles else ""
    return f"{outer}: {version.text}" if outer else version.text


def digest(text: str) -> bytes:
    """The key a text's vector is found again by."""
    return hashlib.sha256(text.encode("utf-8")).digest()[:16]


def read(build: Path) -> dict[str, np.ndarray] | None:
    """Every array of the vectors file of ``build`` (`write` names them), or None when it has none."""
    path = build / MEANING
    if not path.is_file():
        return None
    with np.load(path, allow_pickle=False) as saved:
        return {name: saved[name] for name in saved.files}


def known(build: Path | None) -> dict[bytes, np.ndarray]:
    """The vectors of ``build`` by their texts' digests (none when it has no file, an unreadable one or
    one another model made: the texts are encoded anew)."""
    try:
        saved = read(build) if build is not None else None
        if saved is None or str(saved["model"]) != encoder.identity():
            return {}
        return {bytes(d): v for d, v in zip(saved["digests"], saved["vectors"], strict=True)}
    except (OSError, ValueError, KeyError):
        return {}


def vectors_of(texts: list[str], keys: list[bytes], reused: dict[bytes, np.ndarray]) -> np.ndarray:
    """One vector per text (``keys``: their digests): reused by digest from ``reused`` or this
    process's memory, else encoded."""
    with _lock:
        found = {k: v for k in set(keys) if (v := reused.get(k, _memo.get(k))) is not None}
    todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
    if todo:
        made = encoder.encoder().encode(list(todo.values()))
        with _lock:
            for key, vector in zip(todo, made, strict=True):
                found[key] = _memo[key] = vector
    return np.stack([found[k] for k in keys]) if keys else np.zeros((0, 0), dtype=np.float32)


def write(
    build: Path, versions: Iterable[Version], topics: dict[str, Topic], previous: Path | None, today: dt.date
) -> int:
    """Write the vectors of the numbered rules of ``versions`` in force on ``today`` or later into
    ``build``; how many (0, and no file, without such rules or without the model)."""
    everything = list(versions)
    numbered = [
        v
        for v in everything
        if v.series == NUMBERED_SERIES
        and v.valid_from is not None
        and (v.valid_to is None or v.valid_to > today)
        and v.text.strip()
    ]
    if not numbered or not encoder.available():
        return 0
    titles = section_titles(everything, topics)
    texts = [composed(v, titles.get(v.id)) for v in numbered]
    keys = [digest(t) for t in texts]
    vectors = vectors_of(texts, keys, known(previous))
    with (build / MEANING).open("wb") as file:
        np.savez(
            file,
            model=np.array(encoder.identity()),
            since=np.array(today.toordinal(), dtype=np.int64),
            ids=np.array([v.id for v in numbered], dtype=np.int64),
            games=np.array([topics[v.topic].game for v in numbered]),
            starts=np.array([v.valid_from.toordinal() for v in numbered if v.valid_from], dtype=np.int64),
            ends=np.array([v.valid_to.toordinal() if v.valid_to else NEVER for v in numbered], dtype=np.int64),
            digests=np.array(keys, dtype="S16"),
            vectors=vectors.astype(np.float32),
        )
    return len(numbered)
