"""The SQLite backend (FTS5 + in-memory vectors) runs the search contract."""

from __future__ import annotations

import os

import pytest

from tests.search.contract import SearchIndexContract
from vigia.search.protocol import SearchIndex
from vigia.search.sqlite import SqliteSearchIndex

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("VIGIA_TEST_DATABASE_URL")),
    reason="the suite runs on PostgreSQL (VIGIA_TEST_DATABASE_URL): no SQLite database",
)


class TestSqliteSearchIndex(SearchIndexContract):
    @pytest.fixture
    def index(self) -> SearchIndex:
        return SqliteSearchIndex()
