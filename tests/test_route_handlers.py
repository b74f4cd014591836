"""The suite's shared route handlers (tests/route_handlers.py) stay a pure speed-up."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests import route_handlers
from vigia.app import create_app

TESTS = Path(__file__).parent


def test_no_test_overrides_a_dependency() -> None:
    """A shared handler reads the first app's dependency overrides, so none may be set."""
    users = [
        path.relative_to(TESTS).as_posix()
        for path in TESTS.rglob("*.py")
        if path.name not in {"test_route_handlers.py", "route_handlers.py"}
        and "dependency_overrides" in path.read_text()
    ]
    assert users == []


def test_the_pinned_fastapi_has_the_hook_it_replaces() -> None:
    """A FastAPI without it would only make the suite slower: say so here instead."""
    assert route_handlers.share()


def test_a_second_app_reuses_the_built_handlers_and_keeps_its_own_state() -> None:
    first, second = create_app(), create_app()
    with TestClient(first) as one, TestClient(second) as two:
        assert one.get("/v1/models").status_code == 401
        assert two.get("/v1/models").status_code == 401
    [a] = [r for r in first.router.routes if getattr(r, "original_router", None) is not None][:1]
    [b] = [r for r in second.router.routes if getattr(r, "original_router", None) is not None][:1]
    assert a is not b
    assert a.effective_candidates()[0] is b.effective_candidates()[0]  # type: ignore[attr-defined]
    assert first.state.write_gate is not second.state.write_gate
