"""Which document wrote each sentence of a version's text, kept through every amendment.

A version made whole by one document (an original ruling, a replaced entry, a new Glossary)
was written by that document alone: it keeps no sources (an empty list) and every sentence is
cited to the version's own document and lines. A version made by amending another (a
paragraph or sentence replaced or deleted, a paragraph added) keeps, for each paragraph of its
text and each sentence of that paragraph (`kb.ingest.textops.sentence_grid`), the document id and
lines that wrote it: a sentence the amendment left as it was keeps the source it had in the text
amended, every other sentence is the amending document's. The sentences kept are found by
matching the two texts' sentences in order (`difflib.SequenceMatcher`), so one rule serves every
kind of edit; the split into sentences is `kb.sentences`'.
"""

from __future__ import annotations

import difflib

from kb.model import Version, lines
from kb.sentences import Grid, sentence_grid, sources_of


def carried(base: Version | None, version: Version) -> Grid:
    """The sources ``version`` keeps, made by amending ``base``: a sentence of ``base`` left as it
    was keeps its source, the others are ``version``'s own; empty when every sentence is its own
    (``base`` absent or empty, or every sentence rewritten)."""
    if base is None or not base.text or not version.text:
        return []
    before = [(sentence, source) for text, found in zip(sentence_grid(base.text), sources_of(base), strict=True)
              for sentence, source in zip(text, found, strict=True)]  # fmt: skip
    after = sentence_grid(version.text)
    flat = [sentence for paragraph in after for sentence in paragraph]
    mine = [version.document_id, lines(version.line_start, version.line_end)]
    found = [list(mine) for _ in flat]
    matcher = difflib.SequenceMatcher(a=[s for s, _ in before], b=flat, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            found[block.b + k] = list(before[block.a + k][1])
    if all(source == mine for source in found):
        return []
    grid: Grid = []
    for paragraph in after:
        grid.append(found[: len(paragraph)])
        found = found[len(paragraph) :]
    return grid
