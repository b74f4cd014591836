"""Figures of one setting through the product's model code, and the HTTP latency."""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np
from bench.decide.datasets import Pairs
from bench.decide.metrics import aurc, coverage_at, ece, entropy_confidence

from vigia.decide import service
from vigia.decide.calibration import Calibration
from vigia.decide.encoder import TextEncoder


def evaluate(
    encoder: TextEncoder,
    calibration: Calibration,
    intents: list[str],
    texts: list[str],
    queries: Pairs,
    shots: Pairs | None,
    out_of_scope: Pairs = (),  # type: ignore[assignment]
) -> dict[str, float]:
    """Figures of one setting, computed through the product's own model code."""
    examples = [(t, intents.index(i)) for t, i in shots] if shots else []
    plan = service.Plan("choice", intents, texts, examples)
    rows = []
    for text, _ in [*queries, *out_of_scope]:
        rows.append(service.run_model(text, [plan], encoder, calibration)[0].probabilities)
    probabilities = np.array(rows)
    inside = probabilities[: len(queries)]
    labels = np.array([intents.index(i) for _, i in queries])
    correct = (inside.argmax(1) == labels).astype(float)
    confidence = entropy_confidence(probabilities)
    figures = {
        "accuracy": float(correct.mean()),
        "ece_15": ece(inside.max(1), correct),
        "aurc": aurc(confidence[: len(queries)], correct),
        "coverage_at_5pct_risk": coverage_at(confidence[: len(queries)], correct),
    }
    if out_of_scope:
        default = calibration.default_min_confidence["choice"]
        answered = confidence[: len(queries)] >= default
        figures["default_min_confidence"] = default
        figures["oos_recall_at_default"] = float((confidence[len(queries) :] < default).mean())
        figures["in_scope_coverage_at_default"] = float(answered.mean())
        figures["in_scope_accuracy_answered"] = float(correct[answered].mean())
        everyone = np.concatenate([correct, np.zeros(len(out_of_scope))])
        figures["aurc_with_oos"] = aurc(confidence, everyone)
    return figures


SPEC_QUESTIONS: dict[str, dict[str, object]] = {
    "equipo": {
        "type": "choice",
        "ask": "¿Qué equipo debe atender esto?",
        "options": {
            "facturacion": "Pagos, cobros, reembolsos",
            "envios": "Entregas",
            "ventas": None,
        },
    },
    "urgencia": {
        "type": "scale",
        "ask": "¿Qué tan urgente es?",
        "levels": ["baja", "media", "alta"],
    },
    "reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"},
}


SPEC_EXAMPLES = {
    "equipo": [
        {"state": "Me cobraron dos veces", "answer": "facturacion"},
        {"state": "Quiero un reembolso", "answer": "facturacion"},
        {"state": "Mi paquete no llegó", "answer": "envios"},
        {"state": "¿Cuándo llega mi pedido?", "answer": "envios"},
        {"state": "¿Tienen descuentos por volumen?", "answer": "ventas"},
        {"state": "Quiero comprar diez unidades", "answer": "ventas"},
    ],
    "urgencia": [
        {"state": "Cuando puedan, una consulta", "answer": "baja"},
        {"state": "Necesito respuesta esta semana", "answer": "media"},
        {"state": "¡Es urgente, no puedo trabajar!", "answer": "alta"},
    ],
    "reembolso": [
        {"state": "Devuélvanme el dinero", "answer": True},
        {"state": "¿A qué hora abren?", "answer": False},
    ],
}


def with_examples(questions: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """The spec's questions, each with a few labelled examples."""
    return {key: {**q, "examples": SPEC_EXAMPLES[key]} for key, q in questions.items()}


def latency(
    calibration: Calibration, messages: list[str], questions: dict[str, dict[str, object]]
) -> dict[str, float]:
    """p50/p95 of a 3-question request: model time and full HTTP round trip."""
    from fastapi.testclient import TestClient

    from vigia.app import create_app
    from vigia.config import get_settings
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.workspaces.service import create_key, create_workspace

    folder = tempfile.mkdtemp(prefix="vigia-bench-")
    os.environ["VIGIA_DATA_DIR"] = folder
    get_settings.cache_clear()
    upgrade(get_settings().sqlalchemy_url)
    with session_scope() as session:
        workspace = create_workspace(session, "bench")
        workspace.decide_quota_tokens = 10**12
        key = create_key(session, workspace, scopes=["decide"], rpm=10_000).secret
    service.get_calibration = lambda: calibration
    headers = {"Authorization": f"Bearer {key}"}
    model_ms, http_ms = [], []
    with TestClient(create_app()) as client:
        for index, message in enumerate(messages):
            body = {"state": {"canal": "chat", "mensaje": message}, "questions": questions}
            started = time.perf_counter()
            response = client.post("/v1/decide", json=body, headers=headers)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, response.text
            if index >= 5:  # the first requests embed the question texts once
                http_ms.append(elapsed)
                model_ms.append(response.json()["ms"])

    def pct(values: list[float], q: int) -> float:
        return float(np.percentile(values, q))

    return {
        "requests": len(http_ms),
        "model_ms_p50": pct(model_ms, 50),
        "model_ms_p95": pct(model_ms, 95),
        "http_ms_p50": pct(http_ms, 50),
        "http_ms_p95": pct(http_ms, 95),
    }
