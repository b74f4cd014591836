"""The trained answer-sentence selector (``vigia.llm.answer_selector``) and the features it
reads (``vigia.llm.sentence_features``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vigia.llm.answer_selector import (
    MODEL_ID,
    SELECTOR_FILE,
    AnswerSelector,
    load_selector,
    selector,
)
from vigia.llm.protocol import Passage
from vigia.llm.reading import score_sentences
from vigia.llm.sentence_features import (
    ANSWER_SHAPES,
    FEATURE_NAMES,
    Candidates,
    answer_shapes,
    question_kind,
    scalar_features,
)


def _passage(text: str, score: float = 0.5) -> Passage:
    return Passage(text=text, document_id="d", document="ciudad.md", score=score)


def test_the_shipped_selector_loads_and_reports_its_version() -> None:
    shipped = selector()
    assert shipped.model.startswith("vigia-answer-selector-")
    assert shipped.weights.shape == (len(FEATURE_NAMES),)
    stored = json.loads(SELECTOR_FILE.read_text(encoding="utf-8"))
    assert stored["model"] == shipped.model
    assert "fitted_on" in stored["notes"]


def test_a_selector_fitted_on_other_features_is_refused(tmp_path: Path) -> None:
    stored = json.loads(SELECTOR_FILE.read_text(encoding="utf-8"))
    stored["features"] = stored["features"][:-1]
    stored["weights"] = stored["weights"][:-1]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(stored), encoding="utf-8")
    with pytest.raises(ValueError, match="refit"):
        load_selector(path)


def test_a_selector_file_of_another_model_id_is_refused(tmp_path: Path) -> None:
    stored = json.loads(SELECTOR_FILE.read_text(encoding="utf-8"))
    assert stored["model"] == MODEL_ID
    stored["model"] = "vigia-answer-selector-2.0.0"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(stored), encoding="utf-8")
    with pytest.raises(ValueError, match=r"'vigia-answer-selector-2\.0\.0'.*this code reads"):
        load_selector(path)


def test_a_selector_with_its_feature_names_reordered_is_refused(tmp_path: Path) -> None:
    stored = json.loads(SELECTOR_FILE.read_text(encoding="utf-8"))
    stored["features"][0], stored["features"][1] = stored["features"][1], stored["features"][0]
    path = tmp_path / "reordered.json"
    path.write_text(json.dumps(stored), encoding="utf-8")
    with pytest.raises(ValueError, match="other features"):
        load_selector(path)  # same shape, same names: only the names' order tells


def test_probabilities_are_a_sigmoid_of_the_weighted_row() -> None:
    weights = np.zeros(len(FEATURE_NAMES), dtype=np.float32)
    weights[0] = 2.0
    model = AnswerSelector("test", weights, -1.0)
    rows = np.zeros((2, len(FEATURE_NAMES)), dtype=np.float32)
    rows[1, 0] = 1.0
    assert model.probabilities(rows).tolist() == pytest.approx(
        [1 / (1 + np.exp(1.0)), 1 / (1 + np.exp(-1.0))]
    )


def test_the_answering_sentence_outranks_the_one_restating_the_question() -> None:
    passage = _passage(
        "El puente de hierro es uno de los más famosos del país. Fue inaugurado en 1920 por el rey."
    )
    scored = score_sentences("¿En qué año se inauguró el puente de hierro?", [passage])
    restating, answering = scored
    assert answering.score > restating.score
    # The hand-set relevance alone would have answered with the restating sentence.
    assert restating.relevance > answering.relevance
    assert all(0.0 <= s.score <= 1.0 for s in scored)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("¿En qué año se fundó la empresa?", "when"),
        ("¿Cuándo abre la oficina?", "when"),
        ("¿Quién ganó el partido?", "who"),
        ("Quem escreveu o livro?", "who"),
        ("¿Cuántos empleados tiene?", "how_many"),
        ("Quantos anos tinha?", "how_many"),
        ("¿Dónde tuvo lugar?", "where"),
        ("¿Por qué cayó el imperio?", "why"),
        ("¿Cuál es el nombre del río?", "which"),
        ("O que é a fotossíntese?", "what"),
        ("Describa la cobertura", "other"),
    ],
)
def test_question_kind_comes_from_the_first_words(question: str, kind: str) -> None:
    assert question_kind(question) == kind


def test_answer_shapes_count_only_what_the_question_does_not_hold() -> None:
    shapes = dict(
        zip(
            ANSWER_SHAPES,
            answer_shapes("¿Qué pasó en 1990?", "En 1990 Pedro ganó el 40 % en marzo de 1991."),
            strict=True,
        )
    )
    assert shapes == {"number": 1.0, "year": 1.0, "month": 1.0, "name": 1.0, "percent": 1.0}
    none = answer_shapes("¿Qué pasó en 1990?", "En 1990 todo cambió.")
    assert none == [0.0] * len(ANSWER_SHAPES)


def test_neighbour_features_stay_within_their_passage() -> None:
    found = Candidates(["Uno puente.", "Dos.", "Tres puente."], [0, 0, 1], [0, 1, 0], [0.5] * 3)
    rows = scalar_features("¿puente?", found, [0.1, 0.2, 0.3])
    names = FEATURE_NAMES
    previous = rows[:, names.index("previous_cosine")].tolist()
    following = rows[:, names.index("next_cosine")].tolist()
    assert previous == pytest.approx([0.0, 0.1, 0.0])
    assert following == pytest.approx([0.2, 0.0, 0.0])
