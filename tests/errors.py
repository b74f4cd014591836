"""Assertions on error responses: the status and the body in the surface's error shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Response(Protocol):
    """What is read of a response (TestClient's and httpx's alike): read-only members."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


def assert_error(response: Response, status: int, detail: str) -> None:
    """``response`` is a ``status`` error whose body is exactly ``{"detail": detail}``."""
    assert response.status_code == status, response.text
    assert response.json() == {"detail": detail}


def assert_invalid(response: Response, *locations: list[Any]) -> None:
    """A 422 in FastAPI's list shape, with one error at each of ``locations``, in order."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert all({"loc", "msg", "type"} <= set(item) for item in detail)
    assert [item["loc"] for item in detail] == [list(loc) for loc in locations]
