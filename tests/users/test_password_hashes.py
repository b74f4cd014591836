"""Passwords are stored as argon2id hashes at the library's recommended costs.

The rest of the suite swaps in a hasher with tiny costs (tests/conftest.py); this test puts
the production one back and reads what a new user's row holds."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from tests.conftest import PRODUCTION_HASHES
from vigia.db.session import session_scope
from vigia.users import service as users
from vigia.users.models import User


def test_a_new_users_password_is_an_argon2id_hash_at_production_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hasher, dummy = PRODUCTION_HASHES
    monkeypatch.setattr(users, "_HASHER", hasher)
    monkeypatch.setattr(users, "_DUMMY_HASH", dummy)
    with session_scope() as session:
        users.create_user(session, "carla", "correct horse battery")
    with session_scope() as session:
        stored = session.scalar(select(User.password_hash).where(User.name == "carla"))
        assert stored is not None
        assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert "correct horse" not in stored
        user, token = users.login(session, "carla", "correct horse battery", "127.0.0.1")
        assert user.name == "carla" and token
    assert dummy.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
