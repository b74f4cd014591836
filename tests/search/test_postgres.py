"""The PostgreSQL backend (BM25 over postings, in-memory vectors) runs the search contract.

It needs a PostgreSQL server: set VIGIA_TEST_DATABASE_URL=postgresql://… (tests/conftest.py
then gives every test a fresh migrated database there); without it these tests are skipped.
"""

from __future__ import annotations

import importlib.util
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import numpy as np
import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from tests.conftest import needs_postgres
from tests.search.contract import SearchIndexContract
from tests.search.postings import (
    expected,
    postings,
    recount,
    term_ids_match_postings,
    vocabulary,
)
from vigia.db.migrate import MIGRATIONS, alembic_config
from vigia.db.session import get_engine
from vigia.search import index_for
from vigia.search.postgres import PostgresSearchIndex
from vigia.search.protocol import Entry, SearchIndex
from vigia.search.text import CODE, PROSE, Analyzer

pytestmark = needs_postgres


class TestPostgresSearchIndex(SearchIndexContract):
    @pytest.fixture
    def index(self) -> SearchIndex:
        return PostgresSearchIndex()


def test_index_for_picks_the_postgres_backend() -> None:
    with Session(get_engine()) as session:
        assert isinstance(index_for(session), PostgresSearchIndex)


@pytest.mark.parametrize(
    ("analyzer", "sample"),
    [
        (PROSE, "Cláusula 7: el ROBO total, robo parcial, 300km y 1e5 kilómetros (x86_64)."),
        (PROSE, "Ñandú, pingüino, coração, Straße, œuvre, ǅemal."),
        (PROSE, "Ελληνικά κείμενα, русский текст, 東京都の保険, עברית"),
        (CODE, "PERFORM 1300-COMPUTE-INTEREST. MOVE WS-TAX-RATE TO CUSTOMER_SECURE(1)."),
        (CODE, "EXEC CICS LINK PROGRAM('LGAPDB01') END-EXEC. 1e5 0x1F 5732fec8 db2-v12.1"),
    ],
)
def test_postings_hold_the_analyzer_terms_with_their_counts(
    analyzer: Analyzer, sample: str
) -> None:
    # BM25 joins the postings' terms to the query's terms: they must be the same strings.
    entry = Entry("1", sample, np.ones(4, dtype=np.float32))
    with Session(get_engine()) as session:
        PostgresSearchIndex().add(session, "kb:a", [entry], analyzer)
        assert postings(session) == expected({"kb:a": [entry]}, analyzer)
        assert term_ids_match_postings(session)


def test_terms_too_long_for_an_index_key_are_left_out() -> None:
    blob = "A1" * 2000  # one 4,000-character CODE term: past a btree key's size
    entry = Entry("1", f"MOVE {blob} TO WS-TOTAL.", np.ones(4, dtype=np.float32))
    with Session(get_engine()) as session:
        index = PostgresSearchIndex()
        index.add(session, "kb:a", [entry], CODE)
        held = postings(session)
        assert {term for term, *_ in held} == {"move", "wstotal", "ws", "total"}
        assert {size for *_, size in held} == {5}  # the long term still counts in the size
        found = index.search(session, ["kb:a"], "WS-TOTAL", None, 5, "lexical", CODE)
        assert [h.key for h in found] == ["1"]


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
        counted = vocabulary(session)
        assert counted == recount(session)
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
        counted = vocabulary(session)
        assert counted == recount(session)
        assert ("graniz", "kb:a") not in counted  # no entry holds it any more

        index.drop(session, "kb:b")
        session.commit()
        assert all(collection == "kb:a" for _, collection in vocabulary(session))
        assert {collection for _, collection, *_ in postings(session)} == {"kb:a"}


def _load_migration(name: str) -> ModuleType:
    path = MIGRATIONS / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    return migration


@contextmanager
def _database_at(revision: str) -> Iterator[str]:
    """A new database migrated up to ``revision`` only (dropped afterwards): its URL."""
    url = os.environ["VIGIA_TEST_DATABASE_URL"].replace("postgresql://", "postgresql+psycopg://")
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"m_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        database = url.rsplit("/", 1)[0] + "/" + name
        command.upgrade(alembic_config(database), revision)
        yield database
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def _tsvectors(session: Session) -> dict[str, dict[str, int]]:
    """Each entry's lexemes with their number of positions, by entry key."""
    rows = session.execute(
        text(
            "SELECT e.key, u.lexeme, cardinality(u.positions) FROM search_terms AS s"
            " JOIN search_entries AS e ON e.id = s.entry_id"
            " CROSS JOIN LATERAL unnest(s.terms) AS u(lexeme, positions, weights)"
        )
    )
    out: dict[str, dict[str, int]] = {}
    for key, lexeme, count in rows:
        out.setdefault(key, {})[lexeme] = count
    return out


def test_the_migration_builds_postings_from_an_existing_index() -> None:
    vector = np.ones(4, dtype=np.float32)
    entries = {
        "kb:a": [
            Entry("1", "Robo total del vehículo; robo parcial, robo de ruedas.", vector),
            Entry("2", "Granizo y franquicia.", vector),
            Entry("3", "", vector),  # no content words: no postings, still counted
        ],
        "kb:b": [Entry("4", "Robo de bicicletas con franquicia.", vector)],
    }
    with _database_at("0015_search_vocabulary") as url:
        engine = create_engine(url)
        with Session(engine) as session:  # an index as the code before 0016 wrote it
            for collection, items in entries.items():
                session.execute(
                    text("INSERT INTO search_collections VALUES (:c, 4, 'r')"), {"c": collection}
                )
                for entry in items:
                    words = PROSE.index_terms(entry.text)
                    entry_id = session.scalar(
                        text(
                            "INSERT INTO search_entries (collection, key, vector)"
                            " VALUES (:c, :k, :v) RETURNING id"
                        ),
                        {"c": collection, "k": entry.key, "v": vector.tobytes()},
                    )
                    session.execute(
                        text(
                            "INSERT INTO search_terms (entry_id, collection, size, terms)"
                            " VALUES (:id, :c, :size, to_tsvector('simple', :w))"
                        ),
                        {"id": entry_id, "c": collection, "size": len(words.split()), "w": words},
                    )
                session.execute(
                    text(
                        "INSERT INTO search_totals SELECT CAST(:c AS varchar), count(*),"
                        " sum(size) FROM search_terms WHERE collection = :c"
                    ),
                    {"c": collection},
                )
            session.execute(text(_load_migration("0015_search_vocabulary").BACKFILL))
            session.commit()
            before = _tsvectors(session)
        command.upgrade(alembic_config(url), "heads")
        with Session(engine) as session:
            assert postings(session) == expected(entries)
            assert vocabulary(session) == recount(session)
            assert term_ids_match_postings(session)
            migrated = PostgresSearchIndex().search(
                session, ["kb:a", "kb:b"], "robo con franquicia", None, 5, "lexical"
            )
        command.downgrade(alembic_config(url), "0015_search_vocabulary")
        with Session(engine) as session:  # the tsvectors come back, term counts included
            assert _tsvectors(session) == before
        engine.dispose()
    index = PostgresSearchIndex()
    with Session(get_engine()) as session:  # the same entries written by today's code
        for collection, items in entries.items():
            index.add(session, collection, items)
        written = index.search(session, ["kb:a", "kb:b"], "robo con franquicia", None, 5, "lexical")
    assert [(h.key, h.collection) for h in migrated] == [(h.key, h.collection) for h in written]
    assert [h.score for h in migrated] == pytest.approx([h.score for h in written], abs=1e-9)
