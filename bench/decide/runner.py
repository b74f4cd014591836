"""Figures of one setting through the product's model code, and the HTTP latency."""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

import numpy as np
from bench.decide.examples import FewShot
from bench.decide.report import figures

from vigia.decide import inference, service
from vigia.decide.calibration import Calibration
from vigia.decide.encoder import TextEncoder


def evaluate_examples(
    encoder: TextEncoder,
    calibration: Calibration,
    questions: list[FewShot],
    out_of_scope: list[str],
) -> dict[str, dict[str, dict[str, float]]]:
    """Figures of questions with examples through the product, per type and dataset
    (``abstain`` at the calibrated default with examples). Out-of-scope states are asked
    the CLINC150 choice too (``oos_abstain``: share that abstains)."""
    grouped: dict[str, list[tuple[Any, Any, int]]] = {}
    oos: dict[str, float] = {}
    for question in questions:
        limit = calibration.default_min_confidence_examples[question.plan.kind]
        key = f"{question.plan.kind}_{question.dataset}"
        for text, label in question.queries:
            outcome = inference.run_model(text, [question.plan], encoder, calibration)[0]
            grouped.setdefault(key, []).append((service.to_answer(outcome, limit), outcome, label))
        if key == "choice_clinc150" and out_of_scope:
            answers = [
                service.to_answer(
                    inference.run_model(t, [question.plan], encoder, calibration)[0], limit
                )
                for t in out_of_scope
            ]
            oos[key] = float(np.mean([a.abstain for a in answers]))
    report = {}
    for key, rows in grouped.items():
        answers = [a for a, _, _ in rows]
        probabilities = [o.probabilities for _, o, _ in rows]
        truth = [
            o.plan.keys[label] if o.plan.kind != "binary" else label == 0 for _, o, label in rows
        ]
        report[key] = {"all": figures(answers, probabilities, truth, rows[0][1].plan.kind)}
        if key in oos:
            report[key]["all"]["oos_abstain"] = oos[key]
    return report


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
    # the service reads its calibration through this function: serve the one under test
    service.get_calibration = lambda: calibration  # type: ignore[assignment,attr-defined]
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
