"""Shared pytest setup: test helpers importable; real knowledge bases built once per session."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import FIXTURES, LORCANA_RELEASE, SEEDS, one_release
from kb.ingest.pipeline import build
from kb.paths import current
from kb.query import KnowledgeBase
from web.app import create_app


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Cases marked ``slow`` run when CI=true (CI runs ``make test`` so); skipped, saying so, elsewhere."""
    if os.environ.get("CI") == "true":
        return
    later = pytest.mark.skip(reason="slow: runs when CI=true (CI=true make test)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(later)


@pytest.fixture(scope="session")
def bundled_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base built from the bundled library ``data/``."""
    root = tmp_path_factory.mktemp("bundled-kb") / "kb"
    build(SEEDS, root)
    return root


@pytest.fixture(scope="session")
def history_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of the fixture library plus the seed update: entries with several versions."""
    work = tmp_path_factory.mktemp("history-kb")
    shutil.copytree(FIXTURES / "library", work / "library")
    shutil.copy(SEEDS / "stccg" / "current-rulings-update-2000-11-27.txt", work / "library" / "stccg")
    build(work / "library", work / "kb")
    return work / "kb"


@pytest.fixture(scope="module")
def client(bundled_root: Path) -> FlaskClient:
    """The real app over the bundled knowledge base, through Flask's test client (one per test module)."""
    return create_app({"KB": str(bundled_root), "TESTING": True}).test_client()


@pytest.fixture(scope="module")
def history(history_root: Path) -> FlaskClient:
    """The real app over the history knowledge base (`history_root`), one per test module."""
    return create_app({"KB": str(history_root), "TESTING": True}).test_client()


@pytest.fixture(scope="session")
def lorcana_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of `LORCANA_RELEASE` alone (tests using it skip when ../shared is absent)."""
    work = tmp_path_factory.mktemp("lorcana-release")
    return one_release(work, LORCANA_RELEASE, "lorcana", "cr-2-1-0", "Disney Lorcana Comprehensive Rules", "2.1.0")


@pytest.fixture(scope="module")
def lorcana(lorcana_root: Path) -> KnowledgeBase:
    """The knowledge base `lorcana_root`, opened once per test module."""
    return KnowledgeBase(current(lorcana_root))
