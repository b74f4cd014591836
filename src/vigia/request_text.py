"""Refuses request text that no database can store, on every surface, before any route.

Two characters fail wherever they reach storage or a response, as a 500: a lone UTF-16
surrogate (JSON may spell ``"\\ud800"``, and Python's decoder also passes raw surrogate bytes;
no UTF-8 text can hold it) and NUL (``"\\u0000"``, ``%00``; PostgreSQL text cannot hold it).
This middleware answers 422 in the surface's validation shape, naming the field, when a JSON
body (read first, under the body limit), the path or the query string holds one. Bodies
without such an escape are passed on untouched; multipart fields are checked by the domains
that store them.
"""

from __future__ import annotations

import json
import re
from email.message import Message as MimeHeader
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import Message, Receive, Scope, Send

from vigia.http_errors import validation_response
from vigia.http_middleware import HttpMiddleware

# What may decode to a surrogate or NUL: ``\uD800``–``\uDFFF`` and ``\u0000`` escapes, or the
# raw UTF-8-shaped bytes of a surrogate (raw NUL is already invalid JSON).
_MAYBE_UNSTORABLE = re.compile(rb"\\u(?:[dD][89a-fA-F]|0000)|\xed[\xa0-\xbf]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
ERRORS = {
    "string_unicode": "String should not contain a lone surrogate (a \\ud800-\\udfff escape)",
    "string_nul": "String should not contain a NUL character (\\u0000)",
}
Loc = tuple[str | int, ...]


def unstorable(text: str) -> str | None:
    """The error type of a string holding a surrogate or NUL, or None."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    return "string_nul" if found.group() == "\x00" else "string_unicode"


def _printable(text: str) -> str:
    """``text`` with surrogates and NUL escaped, safe to put in a response."""
    return text.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")


def unstorable_at(value: Any, loc: Loc = ()) -> tuple[Loc, str] | None:
    """Where in a decoded JSON value a string or object key cannot be stored, and why."""
    if isinstance(value, str):
        kind = unstorable(value)
        return None if kind is None else (loc, kind)
    if isinstance(value, dict):
        for key, item in value.items():
            kind = unstorable(key)
            if kind is not None:
                return (*loc, _printable(key)), kind
            found = unstorable_at(item, (*loc, key))
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = unstorable_at(item, (*loc, index))
            if found is not None:
                return found
    return None


def _error(loc: Loc, kind: str) -> dict[str, Any]:
    return {"type": kind, "loc": loc, "msg": ERRORS[kind]}


def body_error(body: bytes) -> dict[str, Any] | None:
    """The validation error of a JSON body holding unstorable text, or None."""
    if not _MAYBE_UNSTORABLE.search(body):
        return None
    try:
        decoded = json.loads(body)
    except ValueError:
        return None  # malformed JSON: the route reports it
    found = unstorable_at(decoded)
    return None if found is None else _error(("body", *found[0]), found[1])


def url_error(scope: Scope) -> dict[str, Any] | None:
    """The validation error of a path or query string holding NUL, or None."""
    if "\x00" in scope["path"]:
        return _error(("path",), "string_nul")
    query = scope.get("query_string", b"").decode("latin-1")
    if "%00" not in query and "\x00" not in query:
        return None
    for name, value in parse_qsl(query, keep_blank_values=True):
        if "\x00" in name + value:
            return _error(("query", _printable(name)), "string_nul")
    return None


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


class RequestTextMiddleware(HttpMiddleware):
    """ASGI middleware: checks the URL, reads JSON bodies, refuses unstorable text."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = url_error(scope)
        if error is not None:
            await validation_response(scope["path"], [error])(scope, receive, send)
            return
        if not _is_json(scope):
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
        error = body_error(body)
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
