"""Entries as several kinds shape them: a topic's headword and its "See X" references
(`rulings.entries.topics`), an entry cut off where its file or page ends (`rulings.entries.partial`).
"""
