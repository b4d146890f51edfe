"""What a static export has a page of (`site_pages`): every document, topic, version and card of
a knowledge base, and the days on which what is in force can change, listed whole from the store,
so that the export (`web.export.site`) asks one answer and reads no row."""

from __future__ import annotations

import json

from kb.answers import SiteCard, SitePages
from kb.read import periods
from kb.read.documents import dates as document_dates
from kb.read.reader import Reader


def site_pages(reader: Reader) -> SitePages:
    """The documents, topics and version keys (sorted), the cards (sorted by key, each with its
    aliases), the documents' dates (sorted, each once) and ``days``: those dates and every day a
    version came into force or stopped. Between two of those days the as-of view is the same, so
    the as-of views at them give the diff between any two dates."""
    dates = document_dates(reader)
    cards: list[SiteCard] = [
        {"key": str(row["key"]), "name": row["name"], "aliases": json.loads(row["aliases"])}
        for row in sorted(reader.cards(), key=lambda c: str(c["key"]))
    ]
    return {
        "documents": sorted(reader.documents()),
        "dates": dates,
        "days": sorted(set(dates) | periods.change_days(reader)),
        "topics": sorted(str(t["id"]) for t in reader.topics()),
        "versions": reader.version_keys(),
        "cards": cards,
    }
