"""Edit an entry's text by part: the nth paragraph, sentence or bullet.

Paragraphs and sentences are `kb.sentences`' (one split for editing a text and for citing
each sentence's source); bullets are paragraphs or lines starting with ``•``. `MissingPart`
says the part named is not there.
"""

from __future__ import annotations

import re

from kb.errors import MissingPart as MissingPart
from kb.sentences import paragraphs, sentences

__all__ = ["MissingPart", "edit", "paragraphs", "sentences"]

_BULLET = re.compile(r"^\s*[\u2022*-]\s")


def _index(count: int, ordinal: int, unit: str) -> int:
    index = count - 1 if ordinal == -1 else ordinal - 1
    if not 0 <= index < count:
        raise MissingPart(f"the text has {count} {unit}(s), no {unit} number {ordinal}")
    return index


def _with_sentences(text: str, ordinal: int, replacement: str | None) -> str:
    parts = paragraphs(text)
    flat = [(p, i) for p, para in enumerate(parts) for i in range(len(sentences(para)))]
    p, s = flat[_index(len(flat), ordinal, "sentence")]
    words = sentences(parts[p])
    if replacement is None:
        del words[s]
    else:
        words[s] = replacement
    parts[p] = " ".join(words)
    return "\n\n".join(x for x in parts if x.strip())


def _bullets(parts: list[str]) -> list[int]:
    return [i for i, p in enumerate(parts) if _BULLET.match(p)]


def edit(text: str, unit: str, ordinal: int, replacement: str | None, section: str | None = None) -> str:
    """``text`` with its ``ordinal`` ``unit`` replaced by ``replacement`` (deleted when None).

    For bullets ``in the section on X``, bullets are counted after the paragraph that
    starts with X.
    """
    if unit == "sentence":
        return _with_sentences(text, ordinal, replacement)
    parts = paragraphs(text)
    if unit == "paragraph":
        candidates = list(range(len(parts)))
    else:
        start = 0
        if section:
            heads = [i for i, p in enumerate(parts) if p.lower().startswith(section.lower())]
            if not heads:
                raise MissingPart(f"the text has no section on {section}")
            start = heads[0] + 1
        candidates = [i for i in _bullets(parts) if i >= start]
    position = candidates[_index(len(candidates), ordinal, unit)]
    if replacement is None:
        del parts[position]
    else:
        parts[position] = replacement
    return "\n\n".join(parts)
