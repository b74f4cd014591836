"""The model's arithmetic: confidence and texts (no encoder involved)."""

from __future__ import annotations

import numpy as np
import pytest

from vigia.decide import scoring
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
