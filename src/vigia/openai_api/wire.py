"""Translates engine events into OpenAI JSON and SSE chunks (with the ``sherlock`` extension)."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

from vigia.engine.events import EngineEvent, TextDelta, TurnResult


def completion_id() -> str:
    return "chatcmpl-" + secrets.token_hex(12)


def usage_of(result: TurnResult) -> dict[str, int]:
    return {
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "total_tokens": result.prompt_tokens + result.completion_tokens,
    }


def sherlock_of(result: TurnResult) -> dict[str, Any]:
    body: dict[str, Any] = {
        "conversation_id": result.conversation_id,
        "run_id": result.run_id,
        "status": result.status,
        "citations": [c.as_dict() for c in result.citations],
        "cost_usd": result.cost_usd,
        "version": result.version if result.version is not None else "draft",
        "handoff": result.handoff,
        "env": result.env,
    }
    if result.triggered:
        body["guardrails"] = result.triggered
    if result.budget_alert:
        body["budget_alert"] = True
    return body


def completion(model: str, result: TurnResult) -> dict[str, Any]:
    """The ``chat.completion`` object for a finished turn."""
    return {
        "id": completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": result.content},
                "finish_reason": "stop",
            }
        ],
        "usage": usage_of(result),
        "sherlock": sherlock_of(result),
    }


def _sse(payload: dict[str, Any] | str) -> str:
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return f"data: {data}\n\n"


def chunks(model: str, events: Iterator[EngineEvent], include_usage: bool) -> Iterator[str]:
    """SSE lines: role chunk, a chunk per checked sentence, the final chunk, ``[DONE]``."""
    cid, created = completion_id(), int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None, **extra: Any) -> str:
        body: dict[str, Any] = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        if include_usage:
            body["usage"] = None
        body.update(extra)
        return _sse(body)

    yield chunk({"role": "assistant", "content": ""}, None)
    for event in events:
        if isinstance(event, TextDelta):
            if event.text:
                yield chunk({"content": event.text}, None)
            continue
        yield chunk({}, "stop", usage=usage_of(event), sherlock=sherlock_of(event))
        if include_usage:
            yield _sse(
                {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [],
                    "usage": usage_of(event),
                }
            )
    yield _sse("[DONE]")
