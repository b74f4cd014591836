"""OpenAI-compatible upstreams (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM).

The provider owns the connection pool, base URL and key; the model speaks the chat API
shape. Vendor errors become ``UpstreamError`` here and nowhere else.

The pool is httpcore's (the transport under httpx): every agent turn makes one upstream
call, and httpx's client layer (cookies, redirects, URL merging) cost more CPU than the
rest of the gateway path. Nothing here needs those features.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, Protocol

import httpcore

from vigia.egress import EgressRefused, HostPolicy
from vigia.errors import UpstreamError
from vigia.llm import upstream_text
from vigia.llm.pinned import PinnedBackend
from vigia.llm.prompt import chat_messages
from vigia.llm.protocol import (
    Finish,
    ModelEvent,
    ModelRequest,
    TextChunk,
    ToolCallDelta,
    ToolSpec,
    Usage,
)
from vigia.llm.tokens import count_tokens


class UpstreamStatus(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class OpenAIProvider:
    """A pooled HTTP connection bound to one OpenAI-compatible base URL and key."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout_s: float = 60.0,
        hosts: tuple[str, ...] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = [(b"Content-Type", b"application/json"), (b"Accept", b"application/json")]
        if api_key:
            self.headers.append((b"Authorization", f"Bearer {api_key}".encode()))
        self.extensions = {
            "timeout": {"connect": 10.0, "read": timeout_s, "write": timeout_s, "pool": timeout_s}
        }
        backend = None if hosts is None else PinnedBackend(HostPolicy(hosts))
        self.pool = httpcore.ConnectionPool(
            max_connections=100, max_keepalive_connections=50, network_backend=backend
        )

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POSTs JSON and returns the decoded JSON answer; HTTP errors raise."""
        response = self.pool.request(
            "POST",
            self.base_url + path,
            headers=self.headers,
            content=json.dumps(body).encode(),
            extensions=self.extensions,
        )
        if response.status >= 400:
            raise UpstreamStatus(response.status)
        decoded: dict[str, Any] = json.loads(response.content)
        return decoded

    def stream_lines(self, path: str, body: dict[str, Any]) -> Iterator[str]:
        """POSTs JSON and yields the answer's lines as they arrive (for SSE)."""
        with self.pool.stream(
            "POST",
            self.base_url + path,
            headers=self.headers,
            content=json.dumps(body).encode(),
            extensions=self.extensions,
        ) as response:
            if response.status >= 400:
                raise UpstreamStatus(response.status)
            pending = b""
            for piece in response.iter_stream():
                pending += piece
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    yield line.decode("utf-8").rstrip("\r")
            if pending:
                yield pending.decode("utf-8")


@lru_cache(maxsize=64)
def provider_for(
    base_url: str, api_key: str | None, timeout_s: float, hosts: tuple[str, ...] | None = None
) -> OpenAIProvider:
    """One pooled provider per (base URL, key, hosts): connections are reused across turns."""
    return OpenAIProvider(base_url, api_key, timeout_s, hosts)


def _translate(error: Exception) -> UpstreamError:
    if isinstance(error, UpstreamStatus):
        code = "upstream_rate_limited" if error.status == 429 else "upstream_error"
        return UpstreamError(f"model provider answered HTTP {error.status}", code=code)
    if isinstance(error, httpcore.TimeoutException):
        return UpstreamError("model provider timed out", status=504, code="upstream_timeout")
    if isinstance(error, EgressRefused):
        return UpstreamError(f"model provider refused: {error}", code="upstream_refused")
    if isinstance(error, ValueError):
        return UpstreamError("model provider sent an unreadable answer")
    return UpstreamError(f"model provider unreachable: {type(error).__name__}")


UPSTREAM_ERRORS = (
    EgressRefused,
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    UpstreamStatus,
    ValueError,
)


class ChatTransport(Protocol):
    """What ``OpenAIChatModel`` sends its requests through: an ``OpenAIProvider`` over HTTP,
    or a model file served in this process (``vigia.llm.local``)."""

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]: ...

    def stream_lines(self, path: str, body: dict[str, Any]) -> Iterator[str]: ...


class OpenAIChatModel:
    """Chat completions against an OpenAI-compatible provider."""

    def __init__(self, provider: ChatTransport, model: str) -> None:
        self.provider = provider
        self.name = model

    def _body(self, request: ModelRequest, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": chat_messages(request),
            "temperature": request.settings.temperature,
            "max_tokens": request.settings.max_tokens,
            "stream": stream,
        }
        if stream:
            body["stream_options"] = {"include_usage": True}
        if request.tools:
            body["tools"] = [_tool_json(t) for t in request.tools]
            if request.tool_choice is not None:
                body["tool_choice"] = request.tool_choice
            if request.parallel_tool_calls is not None:
                body["parallel_tool_calls"] = request.parallel_tool_calls
        if request.response_format is not None:
            body["response_format"] = request.response_format
        return body

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        """Text chunks and tool-call deltas, the finish reason, then one ``Usage``; streamed
        upstream only when the caller streams."""
        if not request.incremental:
            yield from self._whole(request)
            return
        usage: Usage | None = None
        produced: list[str] = []
        finish: str | None = None
        try:
            # Read to the end even after [DONE]: an unread body closes the pooled connection.
            for line in self.provider.stream_lines("/chat/completions", self._body(request, True)):
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    continue
                chunk = upstream_text.loads(data)
                if chunk.get("usage"):
                    usage = _usage(chunk["usage"])
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    text = delta.get("content")
                    if text:
                        produced.append(text)
                        yield TextChunk(text)
                    for call in _items(delta.get("tool_calls")):
                        piece = _call_delta(call)
                        produced.append(piece.arguments)
                        yield piece
                    finish = choice.get("finish_reason") or finish
        except UPSTREAM_ERRORS as error:
            raise _translate(error) from error
        if finish:
            yield Finish(finish)
        yield usage or _estimate(request, "".join(produced))

    def _whole(self, request: ModelRequest) -> Iterator[ModelEvent]:
        """One non-streamed call: cheaper when nobody reads the answer incrementally."""
        try:
            data = upstream_text.mended(
                self.provider.post("/chat/completions", self._body(request, False))
            )
        except UPSTREAM_ERRORS as error:
            raise _translate(error) from error
        choice = (data.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        text = message.get("content") or ""
        yield TextChunk(text)
        calls = [
            _call_delta({**call, "index": i})
            for i, call in enumerate(_items(message.get("tool_calls")))
        ]
        yield from calls
        if choice.get("finish_reason"):
            yield Finish(str(choice["finish_reason"]))
        produced = text + "".join(c.arguments for c in calls)
        yield _usage(data["usage"]) if data.get("usage") else _estimate(request, produced)

    def complete(self, request: ModelRequest) -> str:
        """The whole answer as one string (judges and lenses that need no streaming)."""
        whole = ModelRequest(**{**request.__dict__, "incremental": False})
        return "".join(e.text for e in self.stream(whole) if isinstance(e, TextChunk))


def _tool_json(tool: ToolSpec) -> dict[str, Any]:
    function: dict[str, Any] = {"name": tool.name, "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    if tool.strict is not None:
        function["strict"] = tool.strict
    return {"type": "function", "function": function}


def _items(raw: object) -> list[dict[str, Any]]:
    """The dict items of a JSON list (anything else is ignored)."""
    return [item for item in raw if isinstance(item, dict)] if isinstance(raw, list) else []


def _call_delta(raw: dict[str, Any]) -> ToolCallDelta:
    """One ``tool_calls`` item of a delta (or of a whole message) as a model event."""
    function: dict[str, Any] = raw["function"] if isinstance(raw.get("function"), dict) else {}
    index = raw.get("index")
    return ToolCallDelta(
        index=index if isinstance(index, int) else 0,
        id=str(raw["id"]) if raw.get("id") else None,
        name=str(function["name"]) if function.get("name") else None,
        arguments=str(function.get("arguments") or ""),
    )


def _usage(raw: dict[str, Any]) -> Usage:
    return Usage(int(raw.get("prompt_tokens", 0)), int(raw.get("completion_tokens", 0)))


def _estimate(request: ModelRequest, text: str) -> Usage:
    messages = chat_messages(request)
    prompt = sum(count_tokens(m.get("content") or "") for m in messages)
    prompt += sum(count_tokens(json.dumps(m["tool_calls"])) for m in messages if "tool_calls" in m)
    return Usage(prompt, count_tokens(text))
