"""Work stops when its client has gone: ``ClientGoneMiddleware`` watches each HTTP request
for ``http.disconnect``, and ``check`` raises ``ClientGone`` in the code serving a request
whose client closed the connection (a no-op outside a request: CLI, evaluations).

The middleware reads the ASGI ``receive`` channel itself, one message ahead of the app
(so an upload keeps its back-pressure) and relays each message, or the error an outer
middleware raised from it; the flag is a
``threading.Event`` held in a context variable, which worker threads inherit, so the
engine sees it between stages and between the messages it checks.
"""

from __future__ import annotations

import asyncio
import threading
from contextvars import ContextVar

from starlette.types import Message, Receive, Scope, Send

from vigia.errors import ClientGone
from vigia.http.middleware import HttpMiddleware

_GONE: ContextVar[threading.Event | None] = ContextVar("vigia_client_gone", default=None)
DISCONNECT: Message = {"type": "http.disconnect"}


def gone() -> bool:
    """Whether the client of the request being served has disconnected."""
    flag = _GONE.get()
    return flag is not None and flag.is_set()


def check() -> None:
    """Raises ``ClientGone`` when the client of the request being served has disconnected."""
    if gone():
        raise ClientGone("the client closed the connection")


class ClientGoneMiddleware(HttpMiddleware):
    """Sets the request's flag as soon as its client disconnects."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        flag = threading.Event()
        inbox: asyncio.Queue[Message | Exception] = asyncio.Queue(maxsize=1)

        async def pump() -> None:
            while True:
                try:
                    message = await receive()
                except Exception as error:  # an outer middleware refusing the body
                    await inbox.put(error)
                    return
                if message["type"] == "http.disconnect":
                    flag.set()
                    await inbox.put(message)
                    return
                await inbox.put(message)

        async def relay() -> Message:
            if watcher.done() and inbox.empty():
                return DISCONNECT
            item = await inbox.get()
            if isinstance(item, Exception):
                raise item
            return item

        watcher = asyncio.create_task(pump())
        token = _GONE.set(flag)
        try:
            await self.app(scope, relay, send)
        finally:
            _GONE.reset(token)
            watcher.cancel()
