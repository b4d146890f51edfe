"""What a version's search document holds beside its own text (`extra_text`): the publisher's
summary, its note, a table row's cells, and the text its "See X" references point to
(`see_texts`). The index writer (`kb.index.writer`) and the export's browser index
(`kb.search.offline`) both make it here, so the two search the same words; it is of the floor
of `kb`, so the build side and the read side both stand on it."""

from __future__ import annotations

from kb.model import Topic, Version
from kb.vocabulary import reference_keys
from rulings.normalize import headword_key


def extra_text(version: Version, targets: str) -> str:
    """What a judge may search for beside the text: the publisher's change summary, the
    version's note, a table row's cells with their column names, the text "See X" points to."""
    cells = [f"{name}: {value}" for name, value in version.fields.items()]
    return "\n".join(part for part in [version.summary or "", version.note, *cells, targets] if part)


def see_texts(versions: list[Version], topics: dict[str, Topic]) -> dict[int, str]:
    """Version id -> the latest text of the topics its "See X" references name (same game)."""
    latest: dict[tuple[str, str], str] = {}
    for version in versions:
        if version.text and version.valid_from is not None:
            latest[(topics[version.topic].game, headword_key(version.headword))] = version.text
    found: dict[int, str] = {}
    for version in versions:
        game = topics[version.topic].game
        cited = [r for r in version.references if not r[:1].isdigit()]  # a rule number cited is a rule of its own
        texts = [latest[(game, k)] for r in cited for k in reference_keys(r)[:1] if (game, k) in latest]
        if texts:
            found[version.id] = "\n".join(dict.fromkeys(texts))
    return found
