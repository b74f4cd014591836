"""Who a log line is about: request id, workspace, agent and run of the current request.

The middleware opens one ``RequestContext`` per request; code deeper down (key
authentication, the engine) fills it in with ``bind``. It is one mutable object shared by
every copy of the request's context, so what a worker thread binds the request's last log
line sees too.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar
from dataclasses import asdict, dataclass

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:/+=-]{1,128}$")


@dataclass
class RequestContext:
    request_id: str | None = None
    workspace: str | None = None
    agent: str | None = None
    run_id: str | None = None

    def fields(self) -> dict[str, str]:
        """The fields that are set."""
        return {k: v for k, v in asdict(self).items() if v is not None}


_CURRENT: ContextVar[RequestContext | None] = ContextVar("vigia_request_context", default=None)


def current() -> RequestContext | None:
    return _CURRENT.get()


def open_request(request_id: str | None) -> RequestContext:
    """A new context for one request (a client's id when it is sane, else a fresh one)."""
    if request_id is None or not _REQUEST_ID.match(request_id):
        request_id = uuid.uuid4().hex
    context = RequestContext(request_id=request_id)
    _CURRENT.set(context)
    return context


def bind(
    *, workspace: str | None = None, agent: str | None = None, run_id: str | None = None
) -> None:
    """Fills in the current request's context (a no-op outside a request)."""
    context = _CURRENT.get()
    if context is None:
        return
    if workspace is not None:
        context.workspace = workspace
    if agent is not None:
        context.agent = agent
    if run_id is not None:
        context.run_id = run_id
