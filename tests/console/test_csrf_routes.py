"""Every console write checks the CSRF token, by construction: the check is a dependency of
each console router (``vigia.console.router.mount``), so a route added tomorrow carries it
too. The walk posts to every write route of the app without the token and with a wrong one."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from vigia.console import rendering
from vigia.console.security import SAFE_METHODS
from vigia.http.errors import every_route

_PARAM = re.compile(r"\{[^}]+\}")


def _console_writes(client: TestClient) -> list[tuple[str, str]]:
    writes = []
    for route in every_route(client.app.router.routes):  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and route.path.startswith("/console"):
            writes += [(method, route.path) for method in (route.methods or set()) - SAFE_METHODS]
    return writes


def test_every_console_write_is_refused_without_the_token(
    client: TestClient, tenant: Tenant
) -> None:
    make_user("olga", tenant.workspace_id, "owner")
    log_in(client, "olga")
    writes = _console_writes(client)
    assert len(writes) >= 20, writes  # the walk saw the console, not an empty list
    for method, path in writes:
        url = _PARAM.sub("x", path)
        without = client.request(method, url, data={"name": "x"}, follow_redirects=False)
        assert without.status_code == 403, (method, path, without.status_code)
        wrong = client.request(
            method, url, data={"csrf": "y" * 43}, headers={"X-CSRF-Token": "z" * 43}
        )
        assert wrong.status_code == 403, (method, path, wrong.status_code)
        assert "El formulario venció" in without.text


def test_templates_write_the_csrf_field_only_through_csrf_field() -> None:
    templates = Path(rendering.__file__).parent / "templates"
    by_hand = [
        path.name
        for path in templates.glob("*.html")
        if 'name="csrf"' in path.read_text(encoding="utf-8")
    ]
    assert by_hand == []
    assert any("csrf_field()" in p.read_text(encoding="utf-8") for p in templates.glob("*.html"))
