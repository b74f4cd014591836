"""A 405 names in ``Allow`` every method the path serves, across the routes that share it
(routing alone names only those of the first route it tried)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN


def test_a_method_a_path_does_not_serve_is_405_with_every_method_it_does(
    client: TestClient,
) -> None:
    listed = client.options("/admin/workspaces", headers=ADMIN)
    assert listed.status_code == 405
    assert listed.headers["allow"] == "GET, HEAD, POST"
    assert listed.json()["detail"]
    models = client.delete("/v1/models")
    assert models.status_code == 405 and models.headers["allow"] == "GET, HEAD"
    chat = client.put("/v1/chat/completions")
    assert chat.status_code == 405 and chat.headers["allow"] == "POST"
