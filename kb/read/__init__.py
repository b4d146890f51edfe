"""The read side: the rows an answer needs (`reader`), a version as an answer part (`parts`), and
the longer answers: cards and decks (`cards`), changes and diffs (`changes`), the documents in
force (`documents`), word diffs (`worddiff`)."""
