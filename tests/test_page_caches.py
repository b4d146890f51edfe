"""The pages' caches are within the process's bound (issue 48, item 10): the topics' versions a
knowledge base keeps and the diffs it kept take their bytes from one pool of the process
(`kb.read.reader.PAGES`), so entry, card and diff pages asked in any number keep no more than it,
whatever the bounds of each table."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.kept import Pool
from kb.read import reader
from web.app import create_app

BOUND = 96 << 10
"""The pool's bound in this test: small, so that the pages asked would pass it."""


def test_entry_card_and_diff_pages_keep_their_caches_within_the_process_bound(
    bundled_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    topics = listing.get("/asof/2030-01-01.json?size=1000").get_json()["topics"]
    assert len(topics) > 90
    pool = Pool(BOUND)
    monkeypatch.setattr(reader, "PAGES", pool)
    app = create_app({"KB": str(bundled_root), "TESTING": True})
    client = app.test_client()
    assert client.get("/complete.json?q=con").status_code == 200  # the knowledge base opened
    kb = app.extensions["knowledge_bases"].kb
    tables = [kb.store._histories, kb._parts.diffs]
    highest, used = 0, [0, 0]
    for number, topic in enumerate(topics):
        if number % 10 == 0:
            assert client.get(f"/diff.json?from=1994-10-31&to=20{number % 30:02d}-01-01&size=5").status_code == 200
            assert client.get("/card/Nebula.json").status_code == 200
        assert client.get(f"/entry/{topic['topic']}.json").status_code == 200
        held = sum(table.size for table in tables)
        highest = max(highest, held)
        used = [max(most, len(table)) for most, table in zip(used, tables, strict=True)]
        assert held == pool.holds() <= BOUND, number
    assert highest > BOUND // 2 and all(used), used  # each cache was used, together up to the bound
