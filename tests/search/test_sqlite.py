"""The SQLite backend (FTS5 + in-memory vectors) runs the search contract."""

from __future__ import annotations

import pytest

from tests.search.contract import SearchIndexContract
from vigia.search.protocol import SearchIndex
from vigia.search.sqlite import SqliteSearchIndex


class TestSqliteSearchIndex(SearchIndexContract):
    @pytest.fixture
    def index(self) -> SearchIndex:
        return SqliteSearchIndex()
