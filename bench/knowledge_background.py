"""Knowledge uploads against the cost budget, through the admin API in-process (real
parsing, USE embeddings, SQLite writes, the app's ingest worker).

1. In the request: the largest Markdown document the budget still indexes in the request
   (``vigia.knowledge.ingest.plan``; paragraphs of ~690 characters, one chunk each): the
   wall time of its POST (201) against the estimate.
2. In the background: a document of ``--chunks`` chunks: the POST's time (202), the time
   until the document is ``ready`` (GET every 0.5 s) and the p50/max of those GETs (what a
   reader sees while the worker runs).

    .venv/bin/python bench/knowledge_background.py [--chunks 20000] [--data-dir DIR]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as bench/knowledge_speed.py

import argparse
import statistics
import tempfile
import time

WORDS = [
    "cobertura",
    "siniestro",
    "franquicia",
    "póliza",
    "asegurado",
    "taller",
    "grúa",
    "denuncia",
    "vehículo",
    "prima",
    "reintegro",
    "cláusula",
    "carencia",
    "beneficiario",
    "exclusión",
    "robo",
    "incendio",
    "granizo",
    "cristales",
    "responsabilidad",
    "civil",
    "terceros",
]


def _document(paragraphs: int) -> bytes:
    """``paragraphs`` distinct paragraphs of ~690 characters under a heading every 20."""
    parts = []
    for n in range(paragraphs):
        if n % 20 == 0:
            parts.append(f"## Sección {n // 20 + 1}")
        words = [f"{WORDS[(n * 7 + i) % len(WORDS)]}{n % 97}" for i in range(200)]
        text, i = f"Párrafo {n}:", 0
        while len(text) < 680:
            text, i = f"{text} {words[i]}", i + 1
        parts.append(text + ".")
    return "\n\n".join(parts).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--data-dir", help="SQLite data folder (default: a fresh temporary one)")
    args = parser.parse_args()
    os.environ["VIGIA_DATA_DIR"] = args.data_dir or tempfile.mkdtemp(prefix="vigia-ingest-")

    from fastapi.testclient import TestClient

    from vigia.app import create_app
    from vigia.config import get_settings
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.embeddings import get_embedder
    from vigia.knowledge import ingest, preparing
    from vigia.workspaces.service import create_workspace

    upgrade()
    get_embedder("use").passages(["calentamiento"])
    with session_scope() as session:
        workspace = create_workspace(session, f"ingest-{time.time_ns()}").name
    headers = {"Authorization": f"Bearer {get_settings().resolved_admin_token()}"}

    largest = 10
    while True:  # the largest document still indexed in the request
        upload = preparing.check_upload("grande.md", _document(largest + 10), None, None)
        if ingest.plan("use", upload) is None:
            break
        largest += 10
    data = _document(largest)
    upload = preparing.check_upload("grande.md", data, None, None)
    prepared = ingest.plan("use", upload)
    assert prepared is not None
    estimate = ingest.parse_cost_s(upload) + ingest.embed_cost_s("use", prepared)

    with TestClient(create_app()) as client:
        base = f"/admin/workspaces/{workspace}/knowledge-bases"
        kb = client.post(base, json={"name": "bench"}, headers=headers).json()["id"]
        started = time.perf_counter()
        response = client.post(
            f"{base}/{kb}/documents", files={"file": ("grande.md", data)}, headers=headers
        )
        seconds = time.perf_counter() - started
        assert response.status_code == 201, response.text
        print(
            f"in the request: {len(prepared.chunks)} chunks, {len(data) / 1024:.0f} KiB: "
            f"201 in {seconds:.2f} s (estimate {estimate:.2f} s, budget "
            f"{ingest.SYNC_BUDGET_S:.0f} s)"
        )

        data = _document(args.chunks)
        started = time.perf_counter()
        response = client.post(
            f"{base}/{kb}/documents", files={"file": ("enorme.md", data)}, headers=headers
        )
        accepted = time.perf_counter() - started
        assert response.status_code == 202, response.text
        location = response.headers["Location"]
        reads: list[float] = []
        embedded = 0.0
        while True:
            time.sleep(0.5)
            asked = time.perf_counter()
            body = client.get(location, headers=headers).json()
            if body["status"] != "indexing":
                break  # this GET lists all the chunks: not counted as a read while indexing
            reads.append(time.perf_counter() - asked)
            done = body["progress"]
            if not embedded and done["total"] and done["done"] == done["total"]:
                embedded = time.perf_counter() - started
        ready = time.perf_counter() - started
        embedded = embedded or ready  # done before a GET saw every chunk embedded
        assert body["status"] == "ready", body
        print(
            f"in the background: {body['chunks']} chunks, {len(data) / 2**20:.1f} MiB: "
            f"202 in {accepted:.2f} s, all embedded after {embedded:.0f} s, ready after "
            f"{ready:.0f} s; GET while indexing p50 {statistics.median(reads) * 1000:.0f} ms, "
            f"max {max(reads) * 1000:.0f} ms ({len(reads)} reads)"
        )


if __name__ == "__main__":
    main()
