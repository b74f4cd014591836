"""No page the server serves loads anything from another host: ``/docs`` and ``/redoc``
(whose pages load Swagger UI and ReDoc from a CDN) are off unless ``VIGIA_API_DOCS`` turns
them on; ``/openapi.json`` stays."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from vigia.app import create_app
from vigia.config import get_settings

EXTERNAL = re.compile(r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


def test_api_docs_are_off_by_default_and_the_schema_stays(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/docs/oauth2-redirect").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "Vigia"


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/console/login", "/console/nope"])
def test_no_served_page_references_an_external_host(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert not EXTERNAL.search(page.text), (path, EXTERNAL.findall(page.text))


def test_the_setting_turns_the_api_docs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_API_DOCS", "true")
    get_settings.cache_clear()
    with TestClient(create_app()) as client:
        assert client.get("/docs").status_code == 200
        assert client.get("/redoc").status_code == 200
