"""What a local agent answers when its model file cannot serve: a clear 422 when the file is
missing, not GGUF or not registered, or the local extra is not installed (when the agent is
saved, and when a turn finds the file gone),
a 502 when llama.cpp cannot load it, and a 503 with Retry-After when the model's queue is
full. The queue test puts a blocking stand-in where llama.cpp would be (the queue is under
test, not the text); the load test uses the real xllamacpp."""

from __future__ import annotations

import hashlib
import importlib.util
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant
from tests.llm.local_files import requires_local
from vigia.llm.local import LocalOptions, RequestQueue
from vigia.llm.local_catalog import add_model
from vigia.llm.local_models import LocalModels

FAKE_GGUF = b"GGUF" + bytes(60)  # the magic, then nothing llama.cpp could load


def _registered(tmp_path: Path, content: bytes = FAKE_GGUF) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(content)
    add_model(path, hashlib.sha256(content).hexdigest())
    return path


def _use(client: TestClient, tenant: Tenant, path: Path | str) -> Any:
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    patch = {"model": {"provider": "local", "path": str(path)}, "guardrails": {"grounding": "off"}}
    response = client.patch(base, json=patch, headers=ADMIN)
    if response.status_code == 200:
        assert client.post(f"{base}/publish", headers=ADMIN).status_code == 200
    return response


def test_saving_a_local_agent_needs_a_registered_gguf_file(
    client: TestClient, tenant: Tenant, tmp_path: Path
) -> None:
    missing = _use(client, tenant, tmp_path / "absent.gguf")
    assert missing.status_code == 422 and "does not exist" in missing.json()["detail"]
    text = tmp_path / "notes.gguf"
    text.write_text("just some notes")
    not_gguf = _use(client, tenant, text)
    assert not_gguf.status_code == 422 and "is not a GGUF file" in not_gguf.json()["detail"]
    unregistered = tmp_path / "other.gguf"
    unregistered.write_bytes(FAKE_GGUF)
    refused = _use(client, tenant, unregistered)
    assert refused.status_code == 422 and "vigia model add" in refused.json()["detail"]
    no_path = client.patch(
        f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}",
        json={"model": {"provider": "local"}},
        headers=ADMIN,
    )
    assert no_path.status_code == 422


def test_without_the_local_extra_saving_a_local_agent_says_how_to_get_it(
    client: TestClient, tenant: Tenant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _registered(tmp_path)
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "xllamacpp" else find_spec(name, *a),
    )
    refused = _use(client, tenant, path)
    assert refused.status_code == 422 and "pip install 'vigia[local]'" in refused.json()["detail"]


@requires_local  # saving a local agent needs the extra
def test_a_turn_whose_model_file_is_gone_is_a_clear_422(
    client: TestClient, tenant: Tenant, tmp_path: Path
) -> None:
    path = _registered(tmp_path)
    assert _use(client, tenant, path).status_code == 200
    path.unlink()
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 422 and "does not exist" in body["detail"]


@pytest.mark.local_model
@requires_local
def test_a_file_llama_cpp_cannot_load_is_a_502(
    client: TestClient, tenant: Tenant, tmp_path: Path
) -> None:
    assert _use(client, tenant, _registered(tmp_path)).status_code == 200
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502 and body["detail"].startswith("llama.cpp could not load model.gguf")


class BlockingModel:
    """Stands in for llama.cpp: holds its one slot until the test sets ``release``."""

    def __init__(self, options: LocalOptions, release: threading.Event) -> None:
        self.queue = RequestQueue(options.parallel, options.queue)
        self.entered = threading.Event()
        self.release = release

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.queue.admitted():
            self.entered.set()
            assert self.release.wait(10)
        return {
            "choices": [{"message": {"content": "Listo."}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 2},
        }

    def stream_lines(self, path: str, body: dict[str, Any]) -> Any:
        raise AssertionError("the test asks for whole answers")


@requires_local  # saving a local agent needs the extra
def test_a_full_queue_answers_503_with_retry_after(
    client: TestClient, tenant: Tenant, tmp_path: Path
) -> None:
    assert _use(client, tenant, _registered(tmp_path)).status_code == 200
    loaded: list[BlockingModel] = []
    release = threading.Event()

    def load(file: Path, options: LocalOptions) -> BlockingModel:
        loaded.append(BlockingModel(options, release))
        return loaded[-1]

    options = LocalOptions(threads=1, parallel=1, queue=0)
    client.app.state.local_models = LocalModels(options, load=load)  # type: ignore[attr-defined]
    first: list[tuple[int, dict[str, Any]]] = []
    worker = threading.Thread(
        target=lambda: first.append(chat(client, tenant.production_key, "asistente", "hola"))
    )
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while not (loaded and loaded[0].entered.is_set()) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert loaded and loaded[0].entered.is_set(), "the first request holds the slot"
        response = client.post(
            "/v1/chat/completions",
            headers={"Authorization": f"Bearer {tenant.production_key}"},
            json={"model": "asistente", "messages": [{"role": "user", "content": "hola"}]},
        )
        assert response.status_code == 503
        assert int(response.headers["Retry-After"]) >= 1
        assert response.json()["detail"].startswith("the local model is busy")
    finally:
        release.set()
        worker.join(10)
    assert first and first[0][0] == 200
    assert first[0][1]["choices"][0]["message"]["content"].strip() == "Listo."
    assert len(loaded) == 1, "both requests found the one loaded model"
