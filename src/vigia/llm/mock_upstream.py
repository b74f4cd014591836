"""A tiny OpenAI-compatible server for tests and benchmarks (``python -m vigia.llm.mock_upstream``).

It answers every chat completion with a fixed text, as JSON or as SSE chunks (optionally
slowed down), reports usage, and can be told to fail with ``"model": "fail-<status>"``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

DEFAULT_TEXT = "Esta es una respuesta de prueba. Tiene dos frases."


def create_mock(text: str = DEFAULT_TEXT, chunk_delay_s: float = 0.0) -> Starlette:
    """The mock app; ``chunk_delay_s`` sleeps between streamed words."""

    async def completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        model = str(body.get("model", "mock"))
        if model.startswith("fail-"):
            return JSONResponse({"error": {"message": "mock failure"}}, status_code=int(model[5:]))
        reply = body.get("mock_reply") or text
        usage = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
        base = {"id": "chatcmpl-mock", "created": int(time.time()), "model": model}
        if not body.get("stream"):
            return JSONResponse(
                {
                    **base,
                    "object": "chat.completion",
                    "usage": usage,
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": reply},
                        }
                    ],
                }
            )

        async def events() -> AsyncIterator[str]:
            for word in reply.split(" "):
                piece = {
                    **base,
                    "object": "chat.completion.chunk",
                    "choices": [
                        {"index": 0, "delta": {"content": word + " "}, "finish_reason": None}
                    ],
                }
                yield f"data: {json.dumps(piece)}\n\n"
                if chunk_delay_s:
                    await asyncio.sleep(chunk_delay_s)
            done = {**base, "object": "chat.completion.chunk", "choices": [], "usage": usage}
            yield f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=9911)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    uvicorn.run(
        create_mock(chunk_delay_s=args.delay),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
