"""An exception no handler takes is a 500 that still carries the security headers and the
request id (Starlette's last-resort handler answered outside every middleware of the app),
in the surface's shape, and the exception still reaches the server's log."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from vigia.app import create_app
from vigia.http.security_headers import HEADERS


def _app_with_a_failing_route(path: str) -> TestClient:
    app = create_app()

    def fail() -> dict[str, str]:
        raise RuntimeError("an unexpected failure")

    app.add_api_route(path, fail, methods=["GET"])
    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/failing", {"detail": "internal server error"}),
        ("/v1/decide/failing", {"detail": "internal server error", "error": "internal_error"}),
        ("/admin/failing", {"detail": "internal server error"}),
    ],
)
def test_an_unexpected_exception_is_a_500_with_headers_and_request_id(
    path: str, body: dict[str, str]
) -> None:
    with _app_with_a_failing_route(path) as client:
        response = client.get(path, headers={"X-Request-Id": "req-500"})
    assert response.status_code == 500
    assert response.json() == body
    for name, value in HEADERS:
        assert response.headers[name.decode()] == value.decode()
    assert response.headers["x-request-id"] == "req-500"


def test_the_exception_still_reaches_the_server() -> None:
    app = create_app()

    def fail() -> None:
        raise RuntimeError("an unexpected failure")

    app.add_api_route("/v1/failing", fail, methods=["GET"])
    with TestClient(app) as client, pytest.raises(RuntimeError, match="unexpected failure"):
        client.get("/v1/failing")
