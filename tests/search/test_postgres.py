"""The PostgreSQL backend (tsvector + GIN BM25, in-memory vectors) runs the search contract.

It needs a PostgreSQL server: set VIGIA_TEST_DATABASE_URL=postgresql://… (tests/conftest.py
then gives every test a fresh migrated database there); without it these tests are skipped.
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.search.contract import SearchIndexContract
from vigia.db.session import get_engine
from vigia.search import index_for
from vigia.search.postgres import PostgresSearchIndex
from vigia.search.protocol import SearchIndex
from vigia.search.text import CODE, index_terms

pytestmark = pytest.mark.skipif(
    not os.environ.get("VIGIA_TEST_DATABASE_URL"),
    reason="needs PostgreSQL: set VIGIA_TEST_DATABASE_URL=postgresql://…",
)


class TestPostgresSearchIndex(SearchIndexContract):
    @pytest.fixture
    def index(self) -> SearchIndex:
        return PostgresSearchIndex()


def test_index_for_picks_the_postgres_backend() -> None:
    with Session(get_engine()) as session:
        assert isinstance(index_for(session), PostgresSearchIndex)


@pytest.mark.parametrize(
    "sample",
    [
        "Cláusula 7: el ROBO total, 300km y 1e5 kilómetros (x86_64).",
        "Ñandú, pingüino, coração, Straße, œuvre, ǅemal.",
        "Ελληνικά κείμενα, русский текст, 東京都の保険, עברית",
    ],
)
def test_postgres_lexemes_are_exactly_our_terms(sample: str) -> None:
    # BM25 joins the tsvector's lexemes to the query's terms: they must be the same strings.
    words = index_terms(sample)
    with Session(get_engine()) as session:
        lexemes = session.scalar(
            text("SELECT tsvector_to_array(to_tsvector('simple', :w))"), {"w": words}
        )
    assert sorted(lexemes or []) == sorted(set(words.split()))


@pytest.mark.parametrize(
    "sample",
    [
        "PERFORM 1300-COMPUTE-INTEREST. MOVE WS-TAX-RATE TO CUSTOMER_SECURE(1).",
        "EXEC CICS LINK PROGRAM('LGAPDB01') END-EXEC. 1e5 0x1F 5732fec8 db2-v12.1",
    ],
)
def test_postgres_lexemes_are_exactly_our_code_terms(sample: str) -> None:
    words = CODE.index_terms(sample)
    with Session(get_engine()) as session:
        lexemes = session.scalar(
            text("SELECT tsvector_to_array(to_tsvector('simple', :w))"), {"w": words}
        )
    assert sorted(lexemes or []) == sorted(set(words.split()))
