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
from typing import Any

import httpcore

from vigia.errors import UpstreamError
from vigia.llm.prompt import chat_messages
from vigia.llm.protocol import ModelEvent, ModelRequest, TextChunk, Usage
from vigia.llm.tokens import count_tokens


class UpstreamStatus(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class OpenAIProvider:
    """A pooled HTTP connection bound to one OpenAI-compatible base URL and key."""

    def __init__(self, base_url: str, api_key: str | None, timeout_s: float = 60.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = [(b"Content-Type", b"application/json"), (b"Accept", b"application/json")]
        if api_key:
            self.headers.append((b"Authorization", f"Bearer {api_key}".encode()))
        self.extensions = {
            "timeout": {"connect": 10.0, "read": timeout_s, "write": timeout_s, "pool": timeout_s}
        }
        self.pool = httpcore.ConnectionPool(max_connections=100, max_keepalive_connections=50)

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
def provider_for(base_url: str, api_key: str | None, timeout_s: float) -> OpenAIProvider:
    """One pooled provider per (base URL, key): connections are reused across turns."""
    return OpenAIProvider(base_url, api_key, timeout_s)


def _translate(error: Exception) -> UpstreamError:
    if isinstance(error, UpstreamStatus):
        code = "upstream_rate_limited" if error.status == 429 else "upstream_error"
        return UpstreamError(f"model provider answered HTTP {error.status}", code=code)
    if isinstance(error, httpcore.TimeoutException):
        return UpstreamError("model provider timed out", status=504, code="upstream_timeout")
    if isinstance(error, ValueError):
        return UpstreamError("model provider sent an unreadable answer")
    return UpstreamError(f"model provider unreachable: {type(error).__name__}")


UPSTREAM_ERRORS = (
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    UpstreamStatus,
    ValueError,
)


class OpenAIChatModel:
    """Chat completions against an OpenAI-compatible provider."""

    def __init__(self, provider: OpenAIProvider, model: str) -> None:
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
        return body

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        """Text chunks then one ``Usage``; streamed upstream only when the caller streams."""
        if not request.incremental:
            yield from self._whole(request)
            return
        usage: Usage | None = None
        produced: list[str] = []
        try:
            # Read to the end even after [DONE]: an unread body closes the pooled connection.
            for line in self.provider.stream_lines("/chat/completions", self._body(request, True)):
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    continue
                chunk = json.loads(data)
                if chunk.get("usage"):
                    usage = _usage(chunk["usage"])
                for choice in chunk.get("choices") or []:
                    text = (choice.get("delta") or {}).get("content")
                    if text:
                        produced.append(text)
                        yield TextChunk(text)
        except UPSTREAM_ERRORS as error:
            raise _translate(error) from error
        yield usage or _estimate(request, "".join(produced))

    def _whole(self, request: ModelRequest) -> Iterator[ModelEvent]:
        """One non-streamed call: cheaper when nobody reads the answer incrementally."""
        try:
            data = self.provider.post("/chat/completions", self._body(request, False))
        except UPSTREAM_ERRORS as error:
            raise _translate(error) from error
        choices = data.get("choices") or [{}]
        text = (choices[0].get("message") or {}).get("content") or ""
        yield TextChunk(text)
        yield _usage(data["usage"]) if data.get("usage") else _estimate(request, text)

    def complete(self, request: ModelRequest) -> str:
        """The whole answer as one string (judges and lenses that need no streaming)."""
        whole = ModelRequest(**{**request.__dict__, "incremental": False})
        return "".join(e.text for e in self.stream(whole) if isinstance(e, TextChunk))


def _usage(raw: dict[str, Any]) -> Usage:
    return Usage(int(raw.get("prompt_tokens", 0)), int(raw.get("completion_tokens", 0)))


def _estimate(request: ModelRequest, text: str) -> Usage:
    prompt = sum(count_tokens(m["content"]) for m in chat_messages(request))
    return Usage(prompt, count_tokens(text))
