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


def test_common_terms_are_left_out_once_the_posting_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numpy as np
    from sqlalchemy.orm import Session

    from vigia.db.session import get_engine
    from vigia.search import sqlite
    from vigia.search.protocol import Entry

    monkeypatch.setattr(sqlite, "POSTING_BUDGET", 3)
    index = SqliteSearchIndex()
    vector = np.ones(4, dtype=np.float32)
    with Session(get_engine()) as session:
        common = [Entry(f"c{i}", "cobertura general del seguro", vector) for i in range(5)]
        index.add(session, "kb:x", [*common, Entry("rare", "cobertura de granizo", vector)])
        session.commit()
        hits = index.search(session, ["kb:x"], "cobertura granizo", None, 10, mode="lexical")
        assert [h.key for h in hits] == ["rare"]
        monkeypatch.setattr(sqlite, "POSTING_BUDGET", 100)
        hits = index.search(session, ["kb:x"], "cobertura granizo", None, 10, mode="lexical")
        assert hits[0].key == "rare" and len(hits) == 6
