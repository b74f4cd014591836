"""Streamed usage arrives once, as OpenAI sends it: on the finish chunk without
``stream_options``, on a last ``choices: []`` chunk with ``include_usage``; LangChain's
``stream_usage=True`` then adds up the same totals as the JSON call.

The agent runs on the embedded default model, which counts the same usage streamed or not.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from langchain_core.messages import AIMessageChunk
from langchain_openai import ChatOpenAI

from tests.conftest import Tenant

QUESTION = "¿Atienden de lunes a viernes?"


def _json_usage(base: str, tenant: Tenant) -> dict[str, int]:
    r = httpx.post(
        f"{base}/v1/chat/completions",
        json={"model": tenant.agent_slug, "messages": [{"role": "user", "content": QUESTION}]},
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    r.raise_for_status()
    return dict(r.json()["usage"])


def _sse(base: str, tenant: Tenant, **extra: Any) -> list[dict[str, Any]]:
    """The stream's chunks, parsed, as the raw ``data:`` lines carry them."""
    body = {
        "model": tenant.agent_slug,
        "messages": [{"role": "user", "content": QUESTION}],
        "stream": True,
        **extra,
    }
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    with httpx.stream("POST", f"{base}/v1/chat/completions", json=body, headers=headers) as r:
        assert r.status_code == 200
        data = [line[len("data: ") :] for line in r.iter_lines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    return [json.loads(d) for d in data[:-1]]


def test_without_stream_options_the_finish_chunk_carries_usage_and_sherlock(
    live_server: str, tenant: Tenant
) -> None:
    chunks = _sse(live_server, tenant)
    with_usage = [c for c in chunks if c.get("usage")]
    assert with_usage == chunks[-1:]
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["usage"] == _json_usage(live_server, tenant)
    assert chunks[-1]["sherlock"]["status"] == "ok"


def test_with_include_usage_usage_arrives_once_on_the_last_chunk_with_sherlock(
    live_server: str, tenant: Tenant
) -> None:
    chunks = _sse(live_server, tenant, stream_options={"include_usage": True})
    assert [c["usage"] for c in chunks[:-1]] == [None] * (len(chunks) - 1)
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop"
    last = chunks[-1]
    assert last["choices"] == []
    assert last["usage"] == _json_usage(live_server, tenant)
    assert last["sherlock"]["status"] == "ok"
    assert [c for c in chunks if "sherlock" in c] == [last]


def test_langchain_stream_usage_totals_equal_the_json_calls_usage(
    live_server: str, tenant: Tenant
) -> None:
    llm = ChatOpenAI(
        model=tenant.agent_slug,
        base_url=live_server + "/v1",
        api_key=tenant.production_key,
        max_retries=0,
        stream_usage=True,
    )
    total: AIMessageChunk | None = None
    for piece in llm.stream(QUESTION):
        assert isinstance(piece, AIMessageChunk)
        total = piece if total is None else total + piece
    assert total is not None and total.usage_metadata is not None
    expected = _json_usage(live_server, tenant)
    assert total.usage_metadata["input_tokens"] == expected["prompt_tokens"]
    assert total.usage_metadata["output_tokens"] == expected["completion_tokens"]
    assert total.usage_metadata["total_tokens"] == expected["total_tokens"]
    invoked = llm.invoke(QUESTION).usage_metadata
    assert invoked is not None and invoked["total_tokens"] == expected["total_tokens"]
