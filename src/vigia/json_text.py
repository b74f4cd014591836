"""Refuses JSON request bodies that hold a lone UTF-16 surrogate, on every surface.

JSON may spell ``"\\ud800"`` (and Python's decoder also passes raw surrogate bytes), but no
UTF-8 database, file or response can carry the resulting string: it failed wherever it
reached storage or the response, as a 500. This middleware reads JSON bodies first (the body
limit still applies) and answers 422 in the surface's validation shape, naming the field,
before any route sees them. Bodies without a surrogate escape are passed on untouched.
"""

from __future__ import annotations

import json
import re
from email.message import Message as MimeHeader
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vigia.http_errors import validation_response

# ``\uD800``–``\uDFFF`` escapes, or the raw UTF-8-shaped bytes of a surrogate.
_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _printable(text: str) -> str:
    """``text`` with surrogates written as ``\\udXXX``, safe to put in a UTF-8 response."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def lone_surrogate_at(value: Any, loc: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """Where in a decoded JSON value a string (or object key) holds a lone surrogate."""
    if isinstance(value, str):
        return loc if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                return (*loc, _printable(key))
            found = lone_surrogate_at(item, (*loc, key))
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate_at(item, (*loc, index))
            if found is not None:
                return found
    return None


def surrogate_error(body: bytes) -> dict[str, Any] | None:
    """The validation error for a JSON body with a lone surrogate, or None."""
    if not _MAYBE_SURROGATE.search(body):
        return None
    try:
        decoded = json.loads(body)
    except ValueError:
        return None  # malformed JSON: the route reports it
    loc = lone_surrogate_at(decoded)
    if loc is None:
        return None
    return {
        "type": "string_unicode",
        "loc": ("body", *loc),
        "msg": "String should not contain a lone surrogate (a \\ud800-\\udfff escape)",
    }


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            header = MimeHeader()
            header["content-type"] = value.decode("latin-1")
            subtype = header.get_content_subtype()
            return header.get_content_maintype() == "application" and (
                subtype == "json" or subtype.endswith("+json")
            )
    return False


class JsonTextMiddleware:
    """ASGI middleware: reads JSON bodies, refuses lone surrogates, replays the rest."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its body
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        error = surrogate_error(body)
        if error is not None:
            await validation_response(scope["path"], [error])(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
