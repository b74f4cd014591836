"""One built handler per route for every app the suite creates.

FastAPI 0.163 builds a route's handler (its dependants, parameter validators and response
serialiser) the first time an app routes a request to the router that holds it, once per
app: about 85 ms of CPU for Vigia's 250 routes. The suite creates an app for almost every
test, so it paid that about 1,500 times a pass. ``share`` builds each handler once per
process and hands it to every later app that includes the same route in the same way.

What a shared handler keeps of the first app is its ``dependency_overrides_provider``; no
test overrides a dependency (``test_no_test_overrides_a_dependency`` checks it), so the
first app's empty overrides are every app's. If FastAPI's private names change, ``share``
does nothing and the suite only runs slower."""

from __future__ import annotations

from typing import Any

from fastapi import routing


def _key(route: object, context: Any) -> tuple[object, ...] | None:
    """What the built handler depends on, or None when the inclusion carries something this
    key does not cover (responses, callbacks)."""
    if context.responses or context.callbacks:
        return None
    dependencies = tuple(
        (d.dependency, d.use_cache, getattr(d, "scope", None)) for d in context.dependencies
    )
    return (
        id(route),
        id(context.included_router),
        context.prefix,
        tuple(context.tags),
        dependencies,
        context.deprecated,
        context.include_in_schema,
    )


def share() -> bool:
    """Installs the per-process cache; False when this FastAPI has no such private hook."""
    effective = getattr(routing, "_EffectiveRouteContext", None)
    build = getattr(effective, "from_api_route", None)
    if effective is None or build is None:
        return False
    if getattr(build, "shared", False):
        return True
    built: dict[tuple[object, ...], Any] = {}
    keep: list[object] = []  # the routes, so an id is never reused while its entry lives

    def from_api_route(cls: type, *, original_route: Any, include_context: Any) -> Any:
        key = _key(original_route, include_context)
        if key is None:
            return build(original_route=original_route, include_context=include_context)
        if key not in built:
            keep.append(original_route)
            built[key] = build(original_route=original_route, include_context=include_context)
        return built[key]

    from_api_route.shared = True  # type: ignore[attr-defined]
    effective.from_api_route = classmethod(from_api_route)
    return True
