"""Fixtures of the decisions tests: keys, the quota setting and a fake encoder."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Tenant
from tests.decide.helpers import HashEmbedder
from vigia.db.session import session_scope
from vigia.decide import inference
from vigia.decide.encoder import TextEncoder
from vigia.workspaces.models import Workspace


@pytest.fixture
def fake_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaces the packaged encoders, for tests where the text's meaning does not matter."""
    encoder = TextEncoder({"use": HashEmbedder(), "e5": HashEmbedder()})
    monkeypatch.setattr(inference, "get_text_encoder", lambda names: encoder)


@pytest.fixture
def headers(tenant: Tenant) -> dict[str, str]:
    return {"Authorization": f"Bearer {tenant.production_key}"}


@pytest.fixture
def set_quota(tenant: Tenant) -> Callable[[int], None]:
    """Sets the tenant workspace's monthly decide quota."""

    def apply(tokens: int) -> None:
        with session_scope() as session:
            workspace = session.get(Workspace, tenant.workspace_id)
            assert workspace is not None
            workspace.decide_quota_tokens = tokens

    return apply
