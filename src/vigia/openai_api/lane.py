"""The gateway's hot path: a valid JSON ``POST /v1/chat/completions`` served without FastAPI's
routing, dependency solving and exit stacks (a third of the event loop's time per turn).

``ChatLane`` is the innermost middleware. It takes a request whose content type is
``application/json`` and whose body and ``X-Sherlock-Conversation`` header validate as the
route declares them, and does what the route's dependencies do, in their order: a write
slot for the request's tenant, the key (``chat`` scope, rate limit), then the turn
(``endpoints.complete``) in a worker thread, the slot held until the response is sent. An
error is rendered by the app's own exception handlers, as if the route had raised it.

Every other request, a body that does not validate included, goes on untouched (its body
replayed) to the FastAPI route, which declares the operation (OpenAPI) and answers it
exactly as before: FastAPI's own validation errors, in the surface's shape.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vigia.http.admission import holding_slot
from vigia.http.middleware import HttpMiddleware
from vigia.openai_api.endpoints import CONVERSATION_HEADER_CHARS, chat_key, complete, router
from vigia.openai_api.schemas import ChatCompletionRequest

PATH = "/v1/chat/completions"
CONVERSATION_HEADER = "x-sherlock-conversation"
ErrorHandler = Callable[[Request, Exception], Awaitable[Response]]


def _route() -> BaseRoute:
    """The FastAPI route of the operation: set as the request's ``route`` (metrics, logs)."""
    return next(r for r in router.routes if getattr(r, "path", None) == PATH)


def _is_json(headers: Headers) -> bool:
    content_type = headers.get("content-type")
    return content_type is not None and (
        content_type.partition(";")[0].strip().lower() == "application/json"
    )


def _valid(raw: bytes) -> ChatCompletionRequest | None:
    """The body as the route validates it (``json.loads``, then the model), or None."""
    if not raw:
        return None
    try:
        return ChatCompletionRequest.model_validate(json.loads(raw), from_attributes=True)
    except (ValueError, ValidationError, RecursionError):
        return None


def _replaying(raw: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out first, as one message."""
    pending = [{"type": "http.request", "body": raw, "more_body": False}]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay


def _handler(scope: Scope, error: Exception) -> ErrorHandler | None:
    """The app's exception handler for ``error``, looked up as Starlette looks it up."""
    handlers = scope["app"].exception_handlers
    for cls in type(error).__mro__:
        if cls is not Exception and cls in handlers:
            handler: ErrorHandler = handlers[cls]
            return handler
    return None


class ChatLane(HttpMiddleware):
    """Serves valid JSON chat completions; passes every other request on."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        self.route = _route()

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        if scope["method"] != "POST" or scope["path"] != PATH or not _is_json(headers):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # gone before the whole body came
                await self.app(scope, _replaying(b"".join(chunks), _then(message)), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        replay = _replaying(raw, receive)
        body = _valid(raw)
        conversation = headers.get(CONVERSATION_HEADER)
        too_long = conversation is not None and len(conversation) > CONVERSATION_HEADER_CHARS
        if body is None or too_long:
            await self.app(scope, replay, send)
            return
        scope["route"] = self.route
        await _serve(Request(scope, replay, send), body, conversation, send)


async def _serve(
    request: Request, body: ChatCompletionRequest, conversation: str | None, send: Send
) -> None:
    """The route's dependencies and body: the slot, the key, the turn; errors rendered."""
    scope, receive = request.scope, request.receive
    inside = False
    try:
        async with holding_slot(request):
            inside = True
            try:
                key = await chat_key(request)
                response: Response = await run_in_threadpool(complete, body, key, conversation)
            except Exception as error:
                response = await _rendered(request, error)
            await response(scope, receive, send)
    except Exception as error:
        if inside:  # raised while answering: as from any route
            raise
        await (await _rendered(request, error))(scope, receive, send)


async def _rendered(request: Request, error: Exception) -> Response:
    """The app's answer to ``error`` (its exception handler); re-raised when it has none."""
    handler = _handler(request.scope, error)
    if handler is None:
        raise error
    return await handler(request, error)


def _then(message: Message) -> Receive:
    """A ``receive`` that hands out ``message`` (a disconnect)."""

    async def receive() -> Message:
        return message

    return receive
