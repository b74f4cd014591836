"""Refuses request text that no database can store, on every surface, before any route.

A JSON body (``application/json`` or ``+json``: what FastAPI parses as JSON) is read
first, under the body limit, and decoded once, in whichever encoding JSON allows
(``vigia.http.json_text``). Bytes that are no text in any of them, and nesting deeper than
``json_text.MAX_DEPTH``, answer 400; a string or key holding a lone surrogate or NUL
(``vigia.http.unstorable``), 422 naming the field, and ``NaN`` or ``±Infinity`` as a value
(not JSON, though ``json.loads`` reads them), 422 as malformed JSON, all in the surface's
shape. The route then gets the text it was checked as: a UTF-16 or UTF-32 body goes on
re-encoded as UTF-8, so no later parser reads the bytes differently. NUL in the path or the
query string is a 422 too. Form fields are checked once parsed (``vigia.http.form_text``).
"""

from __future__ import annotations

import json
import re
from email.message import Message as MimeHeader
from typing import Any
from urllib.parse import parse_qsl

from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from vigia.http import json_text
from vigia.http.errors import error_body, validation_response
from vigia.http.middleware import HttpMiddleware
from vigia.http.unstorable import error, printable, unstorable_at

# What may decode to a surrogate or NUL: ``\uD800``–``\uDFFF`` and ``\u0000`` escapes, or a
# raw surrogate (raw NUL is invalid JSON).
_MAYBE_UNSTORABLE = re.compile(r"\\u(?:[dD][89a-fA-F]|0000)|[\x00\ud800-\udfff]")
UNDECODABLE = "request body is not JSON text in UTF-8, UTF-16 or UTF-32"
TOO_DEEP = f"JSON nested deeper than {json_text.MAX_DEPTH} levels"


def body_error(text: str) -> dict[str, Any] | None:
    """The validation error of a decoded JSON text holding unstorable text, or None."""
    if not _MAYBE_UNSTORABLE.search(text):
        return None
    try:
        decoded = json.loads(text)
    except ValueError:
        return None  # malformed JSON: the route reports it
    found = unstorable_at(decoded)
    return None if found is None else error(("body", *found[0]), found[1])


def non_finite_error(text: str) -> dict[str, Any] | None:
    """The validation error of a JSON text holding ``NaN`` or ``±Infinity``, or None."""
    constant = json_text.non_finite(text)
    if constant is None:
        return None
    return {
        "type": "json_invalid",
        "loc": ("body",),
        "msg": f"JSON decode error: {constant} is not a JSON number",
    }


def url_error(scope: Scope) -> dict[str, Any] | None:
    """The validation error of a path or query string holding NUL, or None."""
    if "\x00" in scope["path"]:
        return error(("path",), "string_nul")
    query = scope.get("query_string", b"").decode("latin-1")
    if "%00" not in query and "\x00" not in query:
        return None
    for name, value in parse_qsl(query, keep_blank_values=True):
        if "\x00" in name + value:
            return error(("query", printable(name)), "string_nul")
    return None


def _read_as_json(scope: Scope) -> bool:
    """Whether FastAPI would parse this request's body as JSON."""
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            header = MimeHeader()
            header["content-type"] = value.decode("latin-1")
            subtype = header.get_content_subtype()
            return header.get_content_maintype() == "application" and (
                subtype == "json" or subtype.endswith("+json")
            )
    return False


def _with_length(scope: Scope, length: int) -> Scope:
    headers = [(k, v) for k, v in scope.get("headers", []) if k != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(length).encode())]}


async def _bad_request(scope: Scope, receive: Receive, send: Send, detail: str) -> None:
    body = error_body(scope["path"], 400, detail)
    await JSONResponse(body, status_code=400)(scope, receive, send)


class RequestTextMiddleware(HttpMiddleware):
    """ASGI middleware: checks the URL, decodes JSON bodies, refuses unstorable text."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = url_error(scope)
        if found is not None:
            await validation_response(scope["path"], [found])(scope, receive, send)
            return
        if not _read_as_json(scope):
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
        if body:
            try:
                text = json_text.decode(body)
            except json_text.UndecodableJson:
                await _bad_request(scope, receive, send, UNDECODABLE)
                return
            if json_text.depth(text) > json_text.MAX_DEPTH:
                await _bad_request(scope, receive, send, TOO_DEEP)
                return
            found = non_finite_error(text) or body_error(text)
            if found is not None:
                await validation_response(scope["path"], [found])(scope, receive, send)
                return
            if json_text.encoding_of(body).startswith(("utf-16", "utf-32")):
                try:
                    body = text.encode("utf-8")
                    scope = _with_length(scope, len(body))
                except UnicodeEncodeError:
                    pass  # a raw surrogate outside any string: malformed, the route says so
        await self.app(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the read body over once, then waits on the client."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
