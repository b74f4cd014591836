"""The model's arithmetic: confidence and texts (no encoder involved)."""

from __future__ import annotations

import numpy as np
import pytest

from vigia.decide import scoring
from vigia.decide.calibration import get_calibration, parse
from vigia.decide.texts import humanise, option_text, render_state, statement


@pytest.mark.parametrize(
    ("probabilities", "expected"),
    [
        ([0.9934, 0.0039, 0.0028], 0.9595),  # the spec's choice example
        ([0.1169, 0.3393, 0.5438], 0.1363),  # the spec's scale example
        ([0.9715, 0.0285], 0.8132),  # the spec's binary example
    ],
)
def test_confidence_is_one_minus_normalised_entropy(
    probabilities: list[float], expected: float
) -> None:
    assert scoring.confidence(np.array(probabilities)) == pytest.approx(expected, abs=2e-4)


def test_confidence_bounds() -> None:
    assert scoring.confidence(np.array([1.0, 0.0, 0.0])) == 1.0
    assert scoring.confidence(np.array([0.25] * 4)) == pytest.approx(0.0, abs=1e-9)


def test_ordered_probabilities_move_along_the_scale_with_the_latent() -> None:
    values = []
    for latent in (-3.0, -1.0, 0.0, 1.0, 3.0):
        p = scoring.ordered_probabilities(latent, 5, 1.2)
        assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
        values.append(float(np.dot(p, np.arange(5))))
    assert values == sorted(values) and values[2] == pytest.approx(2.0)
    # No signal, spacing 2 ln 2: every one of three levels as likely; the median is the middle.
    flat = scoring.ordered_probabilities(0.0, 3, 2 * np.log(2))
    assert flat == pytest.approx([1 / 3] * 3)
    assert scoring.median_index(flat) == 1


def test_trend_is_positive_when_closer_to_the_high_levels() -> None:
    assert scoring.trend(np.array([0.1, 0.2, 0.3])) == pytest.approx(0.2)
    assert scoring.trend(np.array([0.3, 0.2, 0.1])) == pytest.approx(-0.2)
    assert scoring.trend(np.array([0.2, 0.2, 0.2])) == pytest.approx(0.0)


def test_median_level() -> None:
    assert scoring.median_index(np.array([0.1169, 0.3393, 0.5438])) == 2  # the spec's example
    assert scoring.median_index(np.array([1 / 3, 1 / 3, 1 / 3])) == 1
    assert scoring.median_index(np.array([0.6, 0.2, 0.2])) == 0


def test_choice_temperature_never_changes_the_order() -> None:
    closeness = np.array([0.05, 0.2, -0.1, 0.19])
    p = scoring.choice_probabilities(closeness, {"lang_es": 0.0, "lang_pt": 0.0}, get_calibration())
    assert list(np.argsort(p)) == list(np.argsort(closeness))
    assert p.sum() == pytest.approx(1.0)


def test_render_state_object_and_array() -> None:
    rendered = render_state({"canal": "chat", "pedido": {"numeroPedido": 12}, "tags": ["a", "b"]})
    assert rendered.splitlines() == [
        "canal: chat",
        "pedido numero pedido: 12",
        "tags: a",
        "tags: b",
    ]
    assert render_state("  hola ") == "hola"


def test_option_and_ask_texts() -> None:
    assert humanise("book_flight") == "book flight"
    assert option_text("facturacion", "Pagos, cobros") == "facturacion: Pagos, cobros"
    assert option_text("ventas", None) == "ventas"
    assert statement("¿Pide un reembolso?") == "Pide un reembolso"


def test_pair_vector_reads_product_and_distance() -> None:
    state, ask = np.array([0.6, 0.8, 0.0]), np.array([0.0, 0.6, 0.8])
    assert scoring.pair_vector(state, ask) == pytest.approx([0.0, 0.48, 0.0, 0.6, 0.2, 0.8])


def test_pair_score_weighs_the_pair_vector_and_checks_its_size() -> None:
    pair = np.array([1.0, 2.0, 3.0, 4.0])
    assert scoring.pair_score(pair, ()) == 0.0  # a calibration without the learned similarity
    assert scoring.pair_score(pair, (0.5, 0.0, -1.0, 0.25)) == pytest.approx(-1.5)
    with pytest.raises(ValueError, match="2 weights for 4 features"):
        scoring.pair_score(pair, (1.0, 2.0))


def test_shipped_calibration_has_the_learned_similarity_for_its_encoder() -> None:
    calibration = get_calibration()
    assert calibration.binary.weights["pair"] > 0
    assert len(calibration.binary_pair) == 2 * 512  # [u ⊙ v, |u − v|] of USE-m3 vectors
    assert parse(calibration.to_json()) == calibration


def test_yes_probability_rises_with_the_learned_similarity() -> None:
    calibration = get_calibration()
    features = {
        "ask_z": 1.0,
        "state_z": 1.0,
        "overlap": 0.0,
        "cross_lingual": 0.0,
        "lang_es": 1.0,
        "lang_pt": 0.0,
    }
    familiar = 0.8  # the familiarity feature's ``familiarity × pair`` moves with ``pair``
    low = scoring.yes_probability(
        {**features, "pair": -1.0, "familiarity": familiar, "familiarity_pair": -familiar},
        calibration,
    )
    high = scoring.yes_probability(
        {**features, "pair": 1.0, "familiarity": familiar, "familiarity_pair": familiar},
        calibration,
    )
    assert low < high


def test_familiarity_is_the_highest_cosine_to_the_label_centroids() -> None:
    centroids = np.array([[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]])
    assert scoring.familiarity(np.array([0.0, 0.8, 0.6]), centroids) == pytest.approx(0.96)
    assert scoring.familiarity(np.array([-1.0, 0.0, 0.0]), centroids) == pytest.approx(0.0)
    assert scoring.familiarity(np.array([1.0, 0.0, 0.0]), np.zeros((0, 0))) == 0.0  # none stored


def test_shipped_calibration_reads_no_familiarity() -> None:
    calibration = get_calibration()  # 1.3.0: no label centroids, no familiarity weights
    assert calibration.familiar_labels == "" and calibration.label_centroids().shape == (0, 0)
    assert "familiarity" not in calibration.binary.weights
