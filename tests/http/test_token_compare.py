"""Tokens with characters outside ASCII are wrong tokens, not 500s: ``hmac.compare_digest``
raised ``TypeError`` on them. The admin token answers 401, an API key 401, and the console's
CSRF token (header, form field or cookie) 403, each with the security headers."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from vigia.http.security_headers import HEADERS

NON_ASCII = "Bearer tökén-ñ€".encode()


def _has_security_headers(headers: object) -> bool:
    """The headers every response carries (the console sets a stricter CSP of its own)."""
    csp = b"content-security-policy"
    expected = [(n.decode(), v.decode()) for n, v in HEADERS if n != csp]
    return all(headers[n] == v for n, v in expected) and "x-request-id" in headers  # type: ignore[index, operator]


@pytest.mark.parametrize("value", [NON_ASCII, b"Bearer \xff\xfe", "Bearer ö".encode("latin-1")])
def test_a_non_ascii_admin_token_is_401(client: TestClient, value: bytes) -> None:
    response = client.get("/admin/workspaces", headers={b"Authorization": value})
    assert response.status_code == 401
    assert response.json() == {"detail": "admin token required"}
    assert _has_security_headers(response.headers)


def test_a_non_ascii_api_key_is_401(client: TestClient) -> None:
    response = client.get("/v1/models", headers={b"Authorization": NON_ASCII})
    assert response.status_code == 401


def test_a_non_ascii_csrf_token_is_403(client: TestClient, tenant: Tenant) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = log_in(client, "ana")
    base = f"/console/w/{tenant.workspace_id}"
    header = client.post(
        f"{base}/knowledge",
        data={"name": "manual"},
        headers={b"X-CSRF-Token": "tökén".encode()},
    )
    assert header.status_code == 403 and _has_security_headers(header.headers)
    field = client.post(f"{base}/knowledge", data={"csrf": "tökén-" + token[6:], "name": "m"})
    assert field.status_code == 403
    others = "; ".join(f"{k}={v}" for k, v in client.cookies.items() if k != "vigia_csrf")
    cookies = f"{others}; vigia_csrf={'ö' * 40}".encode()
    cookie = client.post(
        f"{base}/knowledge",
        data={"csrf": "ö" * 40, "name": "manual"},
        headers={b"Cookie": cookies},
    )
    assert cookie.status_code == 403
    assert "manual" not in client.get(f"{base}/knowledge").text
