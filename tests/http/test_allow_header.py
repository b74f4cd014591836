"""A 405 names in ``Allow`` every method the path serves, across the routes that share it
(routing alone names only those of the first route it tried): on every route of every
surface, and on the console's static files."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from vigia.http.errors import every_route


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


def _served(client: TestClient) -> dict[str, set[str]]:
    """Each route path of the app (path parameters filled with ``1``) and its methods."""
    served: dict[str, set[str]] = {}
    for route in every_route(client.app.router.routes):  # type: ignore[attr-defined]
        path = re.sub(r"\{[^}]+\}", "1", route.path)
        served.setdefault(path, set()).update(route.methods or ())
    return served


def test_every_route_answers_options_with_405_and_its_methods(client: TestClient) -> None:
    served = _served(client)
    assert len(served) > 50
    for path, methods in served.items():
        if "GET" in methods:
            methods = methods | {"HEAD"}
        response = client.options(path, headers=ADMIN)
        assert response.status_code == 405, path
        assert response.headers["allow"] == ", ".join(sorted(methods)), path


def test_a_static_file_answers_other_methods_with_405_and_get(client: TestClient) -> None:
    for method in ("OPTIONS", "POST", "DELETE"):
        response = client.request(method, "/console/static/console.css")
        assert response.status_code == 405
        assert response.headers["allow"] == "GET, HEAD"
