"""Whose write a request is, as write admission shares its slots: found before
authentication, so it must cost no database lookup.

A request counts for a hash of its credential (``Authorization``, ``X-API-Key``, or the
cookies of a browser session), or, with none, for its client address; an API key whose
workspace is already known (the key cache of ``vigia.workspaces.auth``, registered with
``find_workspaces_with``) counts for that workspace as well, so the keys of one workspace
share one share. The credential always counts, so a key's requests are counted alike
before and after its workspace is known.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from starlette.requests import HTTPConnection

WorkspaceFinder = Callable[[str], str | None]
"""The workspace of a raw API key when it is known without a lookup, else None."""

_finder: list[WorkspaceFinder] = []


def find_workspaces_with(finder: WorkspaceFinder) -> None:
    """Registers how a key's workspace is found (the last registration wins)."""
    _finder[:] = [finder]


def _credential(connection: HTTPConnection) -> str | None:
    headers = connection.headers
    header = headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
        return header
    return headers.get("x-api-key") or None


def tenant_of(connection: HTTPConnection) -> tuple[str, ...]:
    """The request's labels: ``key:…`` (then ``ws:<workspace>`` when known), ``cookie:…``
    or ``addr:…``."""
    raw = _credential(connection)
    if raw is not None:
        workspace = _finder[0](raw) if _finder else None
        labels = ("key:" + _digest(raw),)
        return labels if workspace is None else (*labels, f"ws:{workspace}")
    cookies = connection.headers.get("cookie")
    if cookies:
        return ("cookie:" + _digest(cookies),)
    client = connection.client
    return (f"addr:{client.host if client else ''}",)


def _digest(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=12).hexdigest()
