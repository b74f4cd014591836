"""JSON nested deeper than 64 levels is a 400 in the surface's shape, decided before any
parser recurses (100 000 ``[`` used to raise ``RecursionError``: an unauthenticated 500, with
no security headers). Brackets inside strings do not count; 64 levels are parsed as usual."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.stored import row_counts
from vigia.http.security_headers import HEADERS

TOO_DEEP = "JSON nested deeper than 64 levels"


def _nested(levels: int, inner: str = "1") -> bytes:
    return ("[" * levels + inner + "]" * levels).encode()


@pytest.mark.parametrize(
    "body",
    [b"[" * 100_000, _nested(100_000), _nested(5_000, '"\\ud800"'), _nested(65)],
    ids=["unclosed", "closed", "with-a-surrogate-escape", "65-levels"],
)
def test_deep_nesting_is_400_without_credentials(client: TestClient, body: bytes) -> None:
    response = client.post(
        "/v1/chat/completions", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json() == {"detail": TOO_DEEP}
    for name, value in HEADERS:
        assert response.headers[name.decode()] == value.decode()
    assert response.headers["x-request-id"]


def test_deep_nesting_is_400_in_each_surface_shape(client: TestClient) -> None:
    deep = _nested(1_000, '{"a": "\\udc00"}')
    decide = client.post("/v1/decide", content=deep, headers={"Content-Type": "application/json"})
    assert decide.status_code == 400
    assert decide.json() == {"detail": TOO_DEEP, "error": "bad_request"}
    admin = client.post(
        "/admin/workspaces", content=deep, headers={"Content-Type": "application/vnd.x+json"}
    )
    assert admin.status_code == 400
    assert admin.json() == {"detail": TOO_DEEP}


def test_a_deep_object_in_a_stored_field_stores_nothing(client: TestClient, tenant: Tenant) -> None:
    deep = "{" + '"a": {' * 200 + "}" * 200 + "}"
    body = (
        '{"model": "asistente", "messages": [{"role": "user", "content": "hola"}], '
        f'"metadata": {deep}}}'
    ).encode()
    before = row_counts()
    response = client.post(
        "/v1/chat/completions",
        content=body,
        headers={
            "Authorization": f"Bearer {tenant.production_key}",
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 400
    assert row_counts() == before


def test_brackets_inside_strings_do_not_count(client: TestClient, tenant: Tenant) -> None:
    content = "[{" * 5_000 + '\\"' + "]}" * 5_000
    body = (
        f'{{"model": "asistente", "messages": [{{"role": "user", "content": "{content}"}}]}}'
    ).encode()
    response = client.post(
        "/v1/chat/completions",
        content=body,
        headers={
            "Authorization": f"Bearer {tenant.production_key}",
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 200, response.text


def test_64_levels_are_parsed_as_usual(client: TestClient) -> None:
    response = client.post(
        "/v1/chat/completions", content=_nested(64), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 401  # no key: the route ran its checks
