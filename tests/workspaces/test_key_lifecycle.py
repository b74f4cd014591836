"""Keys work from the moment their creation answers, and stop the moment their revocation does."""

from __future__ import annotations

import httpx
import pytest

from tests.chat_calls import ADMIN
from tests.conftest import Tenant


def test_a_created_key_works_at_once_every_time(live_server: str, tenant: Tenant) -> None:
    """The admin write commits before the response: the very next request finds the key."""
    with httpx.Client(base_url=live_server, timeout=30) as http:
        for attempt in range(25):
            created = http.post(
                f"/admin/workspaces/{tenant.workspace_name}/keys",
                headers=ADMIN,
                json={"name": f"k{attempt}"},
            )
            assert created.status_code == 201
            used = http.get(
                "/v1/models", headers={"Authorization": f"Bearer {created.json()['key']}"}
            )
            assert used.status_code == 200, (attempt, used.text)


def test_a_revoked_key_is_refused_by_the_next_request(
    live_server: str, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even with a long key cache, the revocation is in effect when its response arrives."""
    with httpx.Client(base_url=live_server, timeout=30) as http:
        for attempt in range(10):
            created = http.post(
                f"/admin/workspaces/{tenant.workspace_name}/keys", headers=ADMIN, json={}
            )
            auth = {"Authorization": f"Bearer {created.json()['key']}"}
            assert http.get("/v1/models", headers=auth).status_code == 200  # now cached
            revoked = http.delete(
                f"/admin/workspaces/{tenant.workspace_name}/keys/{created.json()['id']}",
                headers=ADMIN,
            )
            assert revoked.status_code == 200 and revoked.json()["revoked"] is True
            refused = http.get("/v1/models", headers=auth)
            assert refused.status_code == 401, attempt
            assert refused.json() == {"detail": "this API key was revoked"}
        other = http.get("/v1/models", headers={"Authorization": f"Bearer {tenant.production_key}"})
        assert other.status_code == 200, "other keys keep working"


@pytest.fixture(autouse=True)
def _long_key_cache(data_dir: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 60 s cache: a test passing cannot be the cache expiring."""
    from vigia.config import get_settings
    from vigia.workspaces.auth import get_key_cache

    monkeypatch.setenv("VIGIA_KEY_CACHE_TTL_S", "60")
    get_settings.cache_clear()
    get_key_cache.cache_clear()
