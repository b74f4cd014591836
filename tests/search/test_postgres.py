"""The PostgreSQL backend (tsvector + GIN BM25, in-memory vectors) runs the search contract.

It needs a PostgreSQL server: set VIGIA_TEST_DATABASE_URL=postgresql://… (tests/conftest.py
then gives every test a fresh migrated database there); without it these tests are skipped.
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.search.contract import SearchIndexContract
from vigia.db.migrate import MIGRATIONS
from vigia.db.session import get_engine
from vigia.search import index_for
from vigia.search.postgres import PostgresSearchIndex
from vigia.search.protocol import Entry, SearchIndex
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


def _vocabulary(session: Session) -> dict[tuple[str, str], int]:
    rows = session.execute(text("SELECT term, collection, entries FROM search_vocabulary"))
    return {(r[0], r[1]): int(r[2]) for r in rows}


def _recount(session: Session) -> dict[tuple[str, str], int]:
    """How many entries of each collection hold each term, counted from the tsvectors."""
    rows = session.execute(
        text(
            "SELECT lexeme, collection, count(*) FROM search_terms"
            " CROSS JOIN LATERAL unnest(tsvector_to_array(terms)) AS lexeme"
            " GROUP BY lexeme, collection"
        )
    )
    return {(r[0], r[1]): int(r[2]) for r in rows}


def test_vocabulary_follows_adds_removals_and_drops() -> None:
    index = PostgresSearchIndex()
    vector = np.ones(4, dtype=np.float32)
    with Session(get_engine()) as session:
        index.add(
            session,
            "kb:a",
            [
                Entry("1", "Robo total del vehículo; robo parcial.", vector),
                Entry("2", "El robo de ruedas tiene franquicia.", vector),
                Entry("3", "Granizo y franquicia.", vector),
            ],
        )
        index.add(session, "kb:b", [Entry("9", "Robo de bicicletas.", vector)])
        session.commit()
        counted = _vocabulary(session)
        assert counted == _recount(session)
        assert counted[("robo", "kb:a")] == 2  # two entries, whatever the repeats
        assert counted[("robo", "kb:b")] == 1
        assert counted[("graniz", "kb:a")] == 1
        assert index.document_frequency(session, ["robo", "franqui", "cristal"]) == {
            "robo": 3,
            "franqui": 2,
            "cristal": 0,
        }

        index.remove(session, "kb:a", ["1", "3"])
        session.commit()
        counted = _vocabulary(session)
        assert counted == _recount(session)
        assert ("graniz", "kb:a") not in counted  # no entry holds it any more

        index.drop(session, "kb:b")
        session.commit()
        assert all(collection == "kb:a" for _, collection in _vocabulary(session))


def test_the_migration_builds_the_vocabulary_of_an_existing_index() -> None:
    path = MIGRATIONS / "versions" / "0015_search_vocabulary.py"
    spec = importlib.util.spec_from_file_location("vocabulary_migration", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    index = PostgresSearchIndex()
    vector = np.ones(4, dtype=np.float32)
    with Session(get_engine()) as session:
        index.add(session, "kb:a", [Entry("1", "Robo y granizo.", vector)])
        index.add(session, "kb:b", [Entry("2", "Robo de ruedas.", vector)])
        expected = _vocabulary(session)
        session.execute(text("DELETE FROM search_vocabulary"))  # an index from before 0015
        session.execute(text(migration.BACKFILL))
        assert _vocabulary(session) == expected == _recount(session)
