"""Login throttling counts failures only, per user name at an address and per address, with a
capped backoff: a stranger cannot lock a user out."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.worlds.conftest import PASSWORD
from vigia.config import get_settings
from vigia.users import throttle

WRONG = "wrong-password"


class Clock:
    """``time.monotonic`` for the in-process store, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr("vigia.users.throttle.time.monotonic", fake)
    return fake


@pytest.fixture
def at(client: TestClient) -> Iterator[Callable[[str], TestClient]]:
    """Clients of the same app calling from a given address."""
    opened: list[TestClient] = []

    def make(address: str) -> TestClient:
        app = client.app
        assert isinstance(app, FastAPI)
        other = TestClient(app, client=(address, 40000))
        opened.append(other)
        return other

    yield make
    for other in opened:
        other.close()


def attempt(http: TestClient, name: str, password: str) -> tuple[int, dict[str, object]]:
    response = http.post("/auth/login", json={"username": name, "password": password})
    if response.status_code == 429:
        assert int(response.headers["Retry-After"]) >= 1
    return response.status_code, response.json()


def test_successes_are_never_counted(
    at: Callable[[str], TestClient], make_user: Callable[[str], str]
) -> None:
    make_user("carla")
    http = at("198.51.100.1")
    statuses = [attempt(http, "carla", PASSWORD)[0] for _ in range(throttle.FREE_PER_NAME * 3)]
    assert statuses == [200] * (throttle.FREE_PER_NAME * 3)


def test_failures_lock_the_user_name_at_that_address(
    at: Callable[[str], TestClient], make_user: Callable[[str], str], clock: Clock
) -> None:
    make_user("carla")
    http = at("198.51.100.1")
    for _ in range(throttle.FREE_PER_NAME + 1):
        assert attempt(http, "carla", WRONG) == (401, {"detail": "invalid username or password"})
    assert attempt(http, "carla", PASSWORD) == (
        429,
        {"detail": "too many failed login attempts; try again later"},
    )
    clock.now += 1.01  # the first lock is 1 s
    assert attempt(http, "carla", PASSWORD)[0] == 200


def test_a_success_resets_the_user_names_count(
    at: Callable[[str], TestClient], make_user: Callable[[str], str]
) -> None:
    make_user("carla")
    http = at("198.51.100.1")
    for _ in range(3):
        for _ in range(throttle.FREE_PER_NAME):
            assert attempt(http, "carla", WRONG)[0] == 401
        assert attempt(http, "carla", PASSWORD)[0] == 200


def test_a_stranger_cannot_lock_the_user_out(
    at: Callable[[str], TestClient], make_user: Callable[[str], str], clock: Clock
) -> None:
    """The stranger's failures lock the stranger's address; the user logs in from theirs."""
    make_user("carla")
    stranger, carla = at("203.0.113.66"), at("198.51.100.1")
    for _ in range(throttle.FREE_PER_ADDRESS + 5):
        status, _ = attempt(stranger, "carla", WRONG)
        assert status in (401, 429)
        clock.now += 0.5
    assert attempt(stranger, "carla", PASSWORD)[0] == 429, "the stranger is locked"
    assert attempt(carla, "carla", PASSWORD)[0] == 200


def test_the_backoff_is_capped_so_the_right_password_works_again(
    at: Callable[[str], TestClient], make_user: Callable[[str], str], clock: Clock
) -> None:
    """Even from the attacker's own address (a shared NAT), a lock never outlasts the cap."""
    make_user("carla")
    http = at("203.0.113.66")
    for _ in range(40):  # each failure right after the previous lock ends
        clock.now += throttle.MAX_LOCK_S + 1
        assert attempt(http, "carla", WRONG)[0] == 401
    assert attempt(http, "carla", PASSWORD)[0] == 429
    clock.now += throttle.MAX_LOCK_S + 0.01
    assert attempt(http, "carla", PASSWORD)[0] == 200


def test_an_address_spraying_many_user_names_is_locked(
    at: Callable[[str], TestClient], make_user: Callable[[str], str]
) -> None:
    make_user("carla")
    sprayer = at("203.0.113.66")
    for number in range(throttle.FREE_PER_ADDRESS + 1):
        assert attempt(sprayer, f"user{number}", WRONG)[0] == 401
    assert attempt(sprayer, "carla", PASSWORD)[0] == 429
    assert attempt(at("198.51.100.1"), "carla", PASSWORD)[0] == 200


def test_lock_seconds_double_from_one_second_up_to_the_cap() -> None:
    free = throttle.FREE_PER_NAME
    assert [throttle.lock_seconds(n, free) for n in range(1, free + 5)] == [0.0] * free + [
        1.0,
        2.0,
        4.0,
        8.0,
    ]
    assert throttle.lock_seconds(10_000, free) == throttle.MAX_LOCK_S


@pytest.mark.redis
def test_the_redis_store_locks_forgets_and_caps(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store replicas share keeps the same rules (real Redis, its own clock)."""
    monkeypatch.setenv("VIGIA_REDIS_URL", redis_url)
    get_settings.cache_clear()
    throttle.get_failure_store.cache_clear()
    store = throttle.get_failure_store()
    assert isinstance(store, throttle.RedisFailureStore)
    for _ in range(3):
        store.record_failure("name:carla@x", 3)
    assert store.locked_for(["name:carla@x", "address:x"]) == 0
    store.record_failure("name:carla@x", 3)
    assert 0 < store.locked_for(["address:x", "name:carla@x"]) <= throttle.FIRST_LOCK_S
    for _ in range(60):
        store.record_failure("name:carla@x", 3)
    assert throttle.MAX_LOCK_S - 5 < store.locked_for(["name:carla@x"]) <= throttle.MAX_LOCK_S
    store.forget("name:carla@x")
    assert store.locked_for(["name:carla@x"]) == 0
