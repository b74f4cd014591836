"""The demo agent asked the same questions in Spanish, English and Portuguese (its documents
are Spanish): the share of replies holding the fact each question asks for, per language.

Twelve items written by the team (no public parallel set is in the shared data), so a
difference of one item is 0.083. The demo workspace is created in a temporary data
directory and asked through the app (ASGI), with the embedded answerer. Usage:

    .venv/bin/python bench/demo_languages.py [--verbose]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import tempfile

LANGUAGES = ("es", "en", "pt")
# (Spanish, English, Portuguese, the fact the reply must hold)
ITEMS = [
    (
        "¿Qué versión del agente usan las claves de borrador?",
        "Which version of the agent do draft keys use?",
        "Que versão do agente as chaves de rascunho usam?",
        "usan el borrador",
    ),
    ("¿Cómo revoco una clave?", "How do I revoke a key?", "Como revogo uma chave?", "key revoke"),
    (
        "¿Qué pasa cuando se alcanza el presupuesto mensual?",
        "What happens when the monthly budget is reached?",
        "O que acontece quando o orçamento mensal é atingido?",
        "se pausa",
    ),
    (
        "¿Cómo publico un agente?",
        "How do I publish an agent?",
        "Como publico um agente?",
        "agent publish",
    ),
    (
        "¿Qué revisan los guardrails?",
        "What do the guardrails check?",
        "O que os guardrails verificam?",
        "cada mensaje de entrada",
    ),
    (
        "¿Qué modos tiene un guardrail?",
        "What modes does a guardrail have?",
        "Quais modos um guardrail tem?",
        "block",
    ),
    (
        "¿Qué pasa cuando una conversación se deriva a una persona?",
        "What happens when a conversation is handed off to a person?",
        "O que acontece quando uma conversa é transferida para uma pessoa?",
        "no responde",
    ),
    (
        "¿Dónde guarda Vigia los datos?",
        "Where does Vigia store its data?",
        "Onde o Vigia guarda os dados?",
        "SQLite",
    ),
    (
        "¿Cómo llamo a un agente desde un SDK de OpenAI?",
        "How do I call an agent from an OpenAI SDK?",
        "Como chamo um agente a partir de um SDK da OpenAI?",
        "/v1/chat/completions",
    ),
    (
        "¿Qué responde Vigia al superar el límite de pedidos por minuto?",
        "What does Vigia answer when the requests per minute limit is exceeded?",
        "O que o Vigia responde ao ultrapassar o limite de pedidos por minuto?",
        "429",
    ),
    (
        "¿Cuánto cuesta el modelo embebido?",
        "How much does the embedded model cost?",
        "Quanto custa o modelo embutido?",
        "no tiene costo",
    ),
    (
        "¿Cuántas veces se muestra el secreto de una clave?",
        "How many times is a key's secret shown?",
        "Quantas vezes o segredo de uma chave é mostrado?",
        "una sola vez",
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every missed reply")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="vigia-demo-languages-")
    os.environ["VIGIA_DATA_DIR"] = folder
    os.environ.setdefault("VIGIA_ADMIN_TOKEN", "bench-" + "x" * 24)

    from fastapi.testclient import TestClient

    from vigia.app import create_app
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.demo import ensure_demo

    upgrade()
    with session_scope() as session:
        demo = ensure_demo(session)
    headers = {"Authorization": f"Bearer {demo['production_key']}"}
    held = dict.fromkeys(LANGUAGES, 0)
    with TestClient(create_app()) as client:
        for *questions, fact in ITEMS:
            for language, question in zip(LANGUAGES, questions, strict=True):
                body = {"model": demo["agent"], "messages": [{"role": "user", "content": question}]}
                reply = client.post("/v1/chat/completions", headers=headers, json=body).json()
                text = reply["choices"][0]["message"]["content"]
                held[language] += fact in text
                if args.verbose and fact not in text:
                    print(f"missed ({language}) {question!r}: {text[:120]!r}")
    print(json.dumps({lang: round(n / len(ITEMS), 3) for lang, n in held.items()}))


if __name__ == "__main__":
    main()
