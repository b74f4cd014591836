"""OpenAI-compatible upstreams (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM).

The provider owns the HTTP client, base URL and key; the model speaks the chat API shape.
Vendor errors become ``UpstreamError`` here and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache

import httpx

from vigia.errors import UpstreamError
from vigia.llm.prompt import chat_messages
from vigia.llm.protocol import ModelEvent, ModelRequest, TextChunk, Usage
from vigia.llm.tokens import count_tokens


class OpenAIProvider:
    """An HTTP client bound to one OpenAI-compatible base URL and key."""

    def __init__(self, base_url: str, api_key: str | None, timeout_s: float = 60.0) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.base_url = base_url.rstrip("/")
        self.client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=10.0),
            limits=httpx.Limits(max_connections=100, max_keepalive_connections=50),
        )


@lru_cache(maxsize=64)
def provider_for(base_url: str, api_key: str | None, timeout_s: float) -> OpenAIProvider:
    """One pooled provider per (base URL, key): connections are reused across turns."""
    return OpenAIProvider(base_url, api_key, timeout_s)


def _translate(error: Exception) -> UpstreamError:
    if isinstance(error, httpx.HTTPStatusError):
        status = error.response.status_code
        code = "upstream_rate_limited" if status == 429 else "upstream_error"
        return UpstreamError(f"model provider answered HTTP {status}", code=code)
    if isinstance(error, httpx.TimeoutException):
        return UpstreamError("model provider timed out", status=504, code="upstream_timeout")
    return UpstreamError(f"model provider unreachable: {type(error).__name__}")


class OpenAIChatModel:
    """Chat completions against an OpenAI-compatible provider, always streamed upstream."""

    def __init__(self, provider: OpenAIProvider, model: str) -> None:
        self.provider = provider
        self.name = model

    def _body(self, request: ModelRequest, stream: bool) -> dict[str, object]:
        body: dict[str, object] = {
            "model": self.name,
            "messages": chat_messages(request),
            "temperature": request.choice.temperature,
            "max_tokens": request.choice.max_tokens,
            "stream": stream,
        }
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        if not request.incremental:
            yield from self._whole(request)
            return
        body = self._body(request, stream=True)
        usage: Usage | None = None
        produced: list[str] = []
        try:
            with self.provider.client.stream("POST", "/chat/completions", json=body) as response:
                if response.status_code >= 400:
                    response.read()
                    response.raise_for_status()
                # Read to the end even after [DONE]: an unread body closes the pooled connection.
                for line in response.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        continue
                    chunk = json.loads(data)
                    if chunk.get("usage"):
                        u = chunk["usage"]
                        usage = Usage(
                            int(u.get("prompt_tokens", 0)), int(u.get("completion_tokens", 0))
                        )
                    for choice in chunk.get("choices") or []:
                        text = (choice.get("delta") or {}).get("content")
                        if text:
                            produced.append(text)
                            yield TextChunk(text)
        except (httpx.HTTPError, json.JSONDecodeError) as error:
            raise _translate(error) from error
        if usage is None:
            prompt = sum(count_tokens(m["content"]) for m in chat_messages(request))
            usage = Usage(prompt, count_tokens("".join(produced)))
        yield usage

    def _whole(self, request: ModelRequest) -> Iterator[ModelEvent]:
        """One non-streamed call: cheaper when nobody reads the answer incrementally."""
        try:
            response = self.provider.client.post(
                "/chat/completions", json=self._body(request, stream=False)
            )
            response.raise_for_status()
            data = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise _translate(error) from error
        choices = data.get("choices") or [{}]
        text = (choices[0].get("message") or {}).get("content") or ""
        u = data.get("usage") or {}
        yield TextChunk(text)
        if u:
            yield Usage(int(u.get("prompt_tokens", 0)), int(u.get("completion_tokens", 0)))
        else:
            prompt = sum(count_tokens(m["content"]) for m in chat_messages(request))
            yield Usage(prompt, count_tokens(text))

    def complete(self, request: ModelRequest) -> str:
        """The whole answer as one string (judges and lenses that need no streaming)."""
        return "".join(e.text for e in self.stream(request) if isinstance(e, TextChunk))
