"""Every JSON body of every route reads booleans and numbers as the published schema types
them: ``true``/``false`` for a boolean, a JSON number for a number. Pydantic's lax mode
would take ``1``, ``"yes"`` or ``"5"`` too, so each such field must be strict
(``vigia.kit.fields``: ``Flag``, ``Integer``, ``Number``), and a number finite (``1e999``
reads as infinity)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter

from vigia.http.errors import every_route
from vigia.kit.fields import Number

SCALARS = ("bool", "int", "float")


def _definitions(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if schema.get("type") == "definitions":
            yield from schema["definitions"]
        for value in schema.values():
            yield from _definitions(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _definitions(value)


def _lax(schema: Any, where: str, defs: dict[str, Any], seen: set[str]) -> Iterator[str]:
    """Where ``schema`` (a pydantic core schema) reads a boolean or number laxly."""
    if isinstance(schema, list):
        for item in schema:
            yield from _lax(item, where, defs, seen)
        return
    if not isinstance(schema, dict):
        return
    kind = schema.get("type")
    if kind in SCALARS and not schema.get("strict"):
        yield f"{where}: {kind}"
    if kind == "float" and schema.get("allow_inf_nan", True):
        yield f"{where}: float that takes infinity"
    if kind == "definition-ref" and schema["schema_ref"] not in seen:
        seen.add(schema["schema_ref"])
        yield from _lax(defs[schema["schema_ref"]], where, defs, seen)
    if kind == "model-fields":
        for name, field in schema["fields"].items():
            yield from _lax(field, f"{where}.{name}", defs, seen)
        return
    for key, value in schema.items():
        if key not in ("definitions", "metadata"):
            yield from _lax(value, where, defs, seen)


def _lax_fields(route: APIRoute) -> Iterator[str]:
    for param in route.dependant.body_params:
        schema = TypeAdapter(param.field_info.annotation).core_schema  # type: ignore[arg-type]
        defs = {d["ref"]: d for d in _definitions(schema)}
        yield from _lax(schema, f"{sorted(route.methods or ())} {route.path}", defs, set())


def test_every_body_boolean_and_number_is_strict(client: TestClient) -> None:
    routes = [r for r in every_route(client.app.router.routes) if isinstance(r, APIRoute)]  # type: ignore[attr-defined]
    bodies = [r for r in routes if r.dependant.body_params]
    assert len(bodies) > 20
    lax = [found for route in bodies for found in _lax_fields(route)]
    assert not lax, "\n".join(lax)


def test_the_walk_finds_a_lax_field() -> None:
    class Inner(BaseModel):
        flag: bool

    class Outer(BaseModel):
        inner: list[Inner] | None = None
        count: int = 0
        ratio: Number = 0.5

    schema = TypeAdapter(Outer).core_schema
    found = list(_lax(schema, "Outer", {d["ref"]: d for d in _definitions(schema)}, set()))
    assert found == ["Outer.inner.flag: bool", "Outer.count: int"]
