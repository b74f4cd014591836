"""Typed reads of JSON bodies: a test narrows a parsed body to an object before indexing it."""

from __future__ import annotations

from typing import Any

from tests.errors import Response


def as_dict(value: object) -> dict[str, Any]:
    """``value`` as a JSON object (asserted to be one): its members are plain JSON values."""
    assert isinstance(value, dict), value
    return value


def json_of(response: Response) -> dict[str, Any]:
    """The body of ``response``, asserted to be a JSON object."""
    return as_dict(response.json())
