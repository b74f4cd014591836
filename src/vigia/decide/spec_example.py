"""The decide spec's worked example: a support chat message and three questions about it.

One source for the decide tests (``tests/decide/helpers.py``) and the bench's 3-question
latency request (``bench/decide/runner.py``); the service itself never reads it.
"""

from __future__ import annotations

SPEC_STATE: dict[str, object] = {
    "canal": "chat",
    "mensaje": "Me cobraron dos veces y quiero mi dinero de vuelta",
}

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
