"""The contract every ``SearchIndex`` implementation passes.

A backend's test module subclasses ``SearchIndexContract`` and overrides the ``index``
fixture (and ``session`` when its database is not the default SQLite one). Vectors here are
hand-made axes: what is tested is the index, not an embedding model.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
from sqlalchemy.orm import Session

from vigia.db.session import get_engine
from vigia.search import hybrid
from vigia.search.protocol import Entry, SearchIndex
from vigia.search.text import CODE, terms

DIM = 8


def axis(*weights: float) -> np.ndarray:
    """A unit vector with the given leading components."""
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(weights)] = weights
    return v / np.linalg.norm(v)


def entries() -> list[Entry]:
    return [
        Entry(
            "robo",
            "Cláusula 7. El robo total del vehículo se indemniza al valor de mercado.",
            axis(1, 0),
        ),
        Entry(
            "granizo", "Los daños por granizo están cubiertos con una franquicia fija.", axis(0, 1)
        ),
        Entry("grua", "El servicio de grúa cubre hasta 300 kilómetros por evento.", axis(0, 0, 1)),
        Entry(
            "coberturas",
            "Coberturas adicionales: cristales, cerraduras y neumáticos.",
            axis(0, 0, 0, 1),
        ),
    ]


def bm25(query: list[str], words: dict[str, list[str]], key: str) -> float:
    """BM25 of entry ``key`` among ``words`` (each entry's terms) as FTS5 computes it, by hand:
    k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)) floored at 1e-6."""
    avgdl = sum(len(w) for w in words.values()) / len(words)
    score = 0.0
    for term in query:
        n = sum(term in w for w in words.values())
        idf = math.log((len(words) - n + 0.5) / (n + 0.5))
        tf = words[key].count(term)
        norm = tf + 1.2 * (1 - 0.75 + 0.75 * len(words[key]) / avgdl)
        score += (idf if idf > 0 else 1e-6) * tf * 2.2 / norm
    return score


class SearchIndexContract:
    """Behaviour shared by every search backend."""

    @pytest.fixture
    def index(self) -> SearchIndex:  # pragma: no cover - always overridden
        raise NotImplementedError

    @pytest.fixture
    def session(self) -> Iterator[Session]:
        with Session(get_engine(), expire_on_commit=False) as session:
            yield session

    @pytest.fixture
    def filled(self, index: SearchIndex, session: Session) -> SearchIndex:
        index.add(session, "kb:a", entries())
        session.commit()
        return index

    def test_add_counts_entries_per_collection(self, filled: SearchIndex, session: Session) -> None:
        assert filled.count(session, "kb:a") == 4
        assert filled.count(session, "kb:other") == 0

    def test_lexical_folds_accents_and_case(self, filled: SearchIndex, session: Session) -> None:
        hits = filled.search(session, ["kb:a"], "CLAUSULA del robo", None, 3, mode="lexical")
        assert hits[0].key == "robo"

    def test_lexical_matches_plural_and_singular(
        self, filled: SearchIndex, session: Session
    ) -> None:
        hits = filled.search(session, ["kb:a"], "cobertura", None, 3, mode="lexical")
        assert [h.key for h in hits] == ["coberturas"]

    def test_lexical_without_content_words_finds_nothing(
        self, filled: SearchIndex, session: Session
    ) -> None:
        assert filled.search(session, ["kb:a"], "¿y de la que?", None, 3, mode="lexical") == []

    def test_dense_returns_nearest_vector_with_cosine(
        self, filled: SearchIndex, session: Session
    ) -> None:
        hits = filled.search(session, ["kb:a"], "", axis(0.1, 1), 2, mode="dense")
        assert [h.key for h in hits] == ["granizo", "robo"]
        assert hits[0].similarity == pytest.approx(float(axis(0.1, 1) @ axis(0, 1)), abs=1e-5)
        assert hits[0].similarity > hits[1].similarity

    def test_hybrid_puts_the_entry_both_agree_on_first(
        self, filled: SearchIndex, session: Session
    ) -> None:
        # Lexically "grúa" wins; by meaning the query is nearest to "grua" as well.
        hits = filled.search(session, ["kb:a"], "servicio de grúa", axis(0.2, 0, 1), 4)
        assert hits[0].key == "grua"
        assert hits[0].lexical_rank == 1 and hits[0].dense_rank == 1
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)

    def test_hybrid_finds_by_meaning_what_words_miss(
        self, filled: SearchIndex, session: Session
    ) -> None:
        hits = filled.search(session, ["kb:a"], "hurto del auto", axis(1, 0.1), 1)
        assert hits[0].key == "robo" and hits[0].lexical_rank is None

    def test_limit_is_respected(self, filled: SearchIndex, session: Session) -> None:
        assert len(filled.search(session, ["kb:a"], "cubre", axis(1, 1, 1, 1), 2)) == 2

    def test_collections_are_isolated(self, filled: SearchIndex, session: Session) -> None:
        filled.add(session, "kb:b", [Entry("otro", "robo robo robo", axis(1, 0))])
        session.commit()
        only_a = filled.search(session, ["kb:a"], "robo", axis(1, 0), 5)
        assert "otro" not in {h.key for h in only_a}
        both = filled.search(session, ["kb:a", "kb:b"], "robo", axis(1, 0), 5)
        assert {h.collection for h in both if h.key in ("otro", "robo")} == {"kb:a", "kb:b"}

    def test_new_entries_are_found_after_a_search_cached_the_old_ones(
        self, filled: SearchIndex, session: Session
    ) -> None:
        filled.search(session, ["kb:a"], "x", axis(0, 0, 0, 0, 1), 1, mode="dense")
        filled.add(session, "kb:a", [Entry("nuevo", "vidrios rotos", axis(0, 0, 0, 0, 1))])
        session.commit()
        hits = filled.search(session, ["kb:a"], "vidrios", axis(0, 0, 0, 0, 1), 1)
        assert hits[0].key == "nuevo"

    def test_remove_drops_entries_from_both_sides(
        self, filled: SearchIndex, session: Session
    ) -> None:
        filled.search(session, ["kb:a"], "robo", axis(1, 0), 4)
        assert filled.remove(session, "kb:a", ["robo", "missing"]) == 1
        session.commit()
        keys = {h.key for h in filled.search(session, ["kb:a"], "robo", axis(1, 0), 4)}
        assert "robo" not in keys
        assert filled.search(session, ["kb:a"], "robo", None, 4, mode="lexical") == []
        assert filled.count(session, "kb:a") == 3

    def test_drop_removes_the_whole_collection(self, filled: SearchIndex, session: Session) -> None:
        filled.drop(session, "kb:a")
        session.commit()
        assert filled.count(session, "kb:a") == 0
        assert filled.search(session, ["kb:a"], "robo", axis(1, 0), 4) == []

    def test_rolled_back_writes_leave_no_trace(self, filled: SearchIndex, session: Session) -> None:
        filled.add(session, "kb:a", [Entry("fantasma", "granizo granizo", axis(0, 1))])
        assert filled.search(session, ["kb:a"], "granizo", axis(0, 1), 1)[0].key == "fantasma"
        session.rollback()
        hits = filled.search(session, ["kb:a"], "granizo", axis(0, 1), 4)
        assert "fantasma" not in {h.key for h in hits}
        assert filled.count(session, "kb:a") == 4

    def test_vectors_of_another_dimension_are_refused(
        self, filled: SearchIndex, session: Session
    ) -> None:
        with pytest.raises(ValueError):
            filled.add(session, "kb:a", [Entry("x", "x", np.ones(DIM + 1, dtype=np.float32))])

    def test_lexical_scores_are_fts5_bm25(self, filled: SearchIndex, session: Session) -> None:
        hits = filled.search(session, ["kb:a"], "robo del vehículo cubre", None, 4, "lexical")
        query = terms("robo vehiculo cubre")
        words = {e.key: terms(e.text) for e in entries()}
        assert [h.key for h in hits] == ["robo", "grua"]
        assert [h.score for h in hits] == pytest.approx(
            [bm25(query, words, "robo"), bm25(query, words, "grua")]
        )

    def test_lexical_scores_follow_removals(self, filled: SearchIndex, session: Session) -> None:
        filled.remove(session, "kb:a", ["granizo"])
        session.commit()
        hits = filled.search(session, ["kb:a"], "robo del vehículo cubre", None, 4, "lexical")
        query = terms("robo vehiculo cubre")
        words = {e.key: terms(e.text) for e in entries() if e.key != "granizo"}
        assert [h.score for h in hits] == pytest.approx(
            [bm25(query, words, "robo"), bm25(query, words, "grua")]
        )

    def test_common_terms_are_left_out_once_the_posting_budget_is_spent(
        self, index: SearchIndex, session: Session, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        vector = np.ones(4, dtype=np.float32)
        common = [Entry(f"c{i}", "cobertura general del seguro", vector) for i in range(5)]
        index.add(session, "kb:x", [*common, Entry("rare", "cobertura de granizo", vector)])
        session.commit()
        monkeypatch.setattr(hybrid, "POSTING_BUDGET", 3)
        hits = index.search(session, ["kb:x"], "cobertura granizo", None, 10, mode="lexical")
        assert [h.key for h in hits] == ["rare"]
        monkeypatch.setattr(hybrid, "POSTING_BUDGET", 100)
        hits = index.search(session, ["kb:x"], "cobertura granizo", None, 10, mode="lexical")
        assert hits[0].key == "rare" and len(hits) == 6

    def test_code_analyzer_keeps_compound_names_whole_and_matches_their_parts(
        self, index: SearchIndex, session: Session
    ) -> None:
        code = [
            Entry("exact", "PERFORM 1300-COMPUTE-INTEREST THRU 1300-EXIT.", axis(1)),
            Entry("parts", "Compute the interest of the loan; set the tax rate.", axis(0, 1)),
            Entry("other", "MOVE WS-TAX-RATE TO TX-RATE. CALL 'LGAPDB02'.", axis(0, 0, 1)),
        ]
        index.add(session, "world:w", code, analyzer=CODE)
        session.commit()

        def keys(query: str) -> list[str]:
            found = index.search(session, ["world:w"], query, None, 5, "lexical", CODE)
            return [h.key for h in found]

        assert keys("What does 1300-COMPUTE-INTEREST do?")[:2] == ["exact", "parts"]
        assert keys("COMPUTE-INTEREST")[0] == "exact"  # without its leading number
        assert keys("WS-TAX-RATE")[0] == "other"
        assert set(keys("tax rate")) == {"parts", "other"}
        assert keys("LGAPDB01") == []  # numbered names are never cut to a shared stem
        assert keys("lgapdb02") == ["other"]
