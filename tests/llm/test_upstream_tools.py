"""The OpenAI-compatible adapter passes tools through and reads tool calls back, streamed
(``delta.tool_calls`` fragments) and whole; the embedded model ignores tools."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.conftest import serve_in_thread
from vigia.llm.embedded import EmbeddedModel
from vigia.llm.openai_compat import OpenAIChatModel, OpenAIProvider
from vigia.llm.prompt import chat_messages
from vigia.llm.protocol import (
    ChatMessage,
    Finish,
    ModelRequest,
    TextChunk,
    ToolCall,
    ToolCallBuffer,
    ToolCallDelta,
    ToolSpec,
    Usage,
)

CALL_CHUNKS: list[dict[str, Any]] = [
    {"delta": {"role": "assistant", "content": None}},
    {
        "delta": {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_abc",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": ""},
                }
            ]
        }
    },
    {"delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"ci'}}]}},
    {"delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'ty": "Rosario"}'}}]}},
    {"delta": {}, "finish_reason": "tool_calls"},
]


@pytest.fixture
def upstream() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    bodies: list[dict[str, Any]] = []

    async def completions(request: Request) -> Response:
        body = await request.json()
        bodies.append(body)
        if not body.get("stream"):
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_abc",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Rosario"}'},
                    }
                ],
            }
            return JSONResponse(
                {
                    "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                    "usage": {"prompt_tokens": 30, "completion_tokens": 9},
                }
            )

        async def events() -> AsyncIterator[str]:
            for piece in CALL_CHUNKS:
                chunk = {"choices": [{"index": 0, "finish_reason": None, **piece}]}
                yield f"data: {json.dumps(chunk)}\n\n"
            usage = {"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 9}}
            yield f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])
    with serve_in_thread(app) as url:
        yield url + "/v1", bodies


def request_with_tools(incremental: bool) -> ModelRequest:
    asked = ChatMessage("assistant", "", (ToolCall("call_0", "get_weather", '{"city":"X"}'),))
    return ModelRequest(
        instructions="Sos un asistente.",
        message="¿Qué tiempo hace?",
        continuation=[asked, ChatMessage("tool", '{"t": 1}', tool_call_id="call_0")],
        tools=[ToolSpec("get_weather", "Weather", {"type": "object", "properties": {}})],
        tool_choice="required",
        parallel_tool_calls=False,
        response_format={"type": "json_object"},
        incremental=incremental,
    )


@pytest.mark.parametrize("incremental", [True, False])
def test_the_adapter_passes_tools_and_reads_the_call_back(
    upstream: tuple[str, list[dict[str, Any]]], incremental: bool
) -> None:
    base_url, bodies = upstream
    model = OpenAIChatModel(OpenAIProvider(base_url, None), "gpt-test")
    events = list(model.stream(request_with_tools(incremental)))
    buffer = ToolCallBuffer()
    for event in events:
        if isinstance(event, ToolCallDelta):
            buffer.add(event)
    assert buffer.calls() == [ToolCall("call_abc", "get_weather", '{"city": "Rosario"}')]
    assert Finish("tool_calls") in events
    assert events[-1] == Usage(30, 9)
    assert "".join(e.text for e in events if isinstance(e, TextChunk)) == ""
    body = bodies[-1]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {}},
                "description": "Weather",
            },
        }
    ]
    assert body["tool_choice"] == "required" and body["parallel_tool_calls"] is False
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][-2:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"X"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_0", "content": '{"t": 1}'},
    ]


def test_no_tools_no_tool_fields() -> None:
    request = ModelRequest(instructions="", message="hola")
    body = OpenAIChatModel(OpenAIProvider("http://127.0.0.1:9/v1", None), "m")._body(request, True)
    assert not {"tools", "tool_choice", "parallel_tool_calls", "response_format"} & set(body)


def test_earlier_exchanges_are_remembered_without_their_tool_calls() -> None:
    history = [
        ChatMessage("user", "¿Clima?"),
        ChatMessage("assistant", "", (ToolCall("c1", "get_weather", "{}"),)),
        ChatMessage("tool", "{}", tool_call_id="c1"),
        ChatMessage("assistant", "Soleado."),
    ]
    messages = chat_messages(ModelRequest(instructions="", message="¿Y mañana?", history=history))
    assert messages == [
        {"role": "user", "content": "¿Clima?"},
        {"role": "assistant", "content": "Soleado."},
        {"role": "user", "content": "¿Y mañana?"},
    ]


def test_the_buffer_assembles_interleaved_calls_in_index_order() -> None:
    buffer = ToolCallBuffer()
    for delta in [
        ToolCallDelta(1, "b", "second", ""),
        ToolCallDelta(0, "a", "first", '{"x":'),
        ToolCallDelta(1, arguments="{}"),
        ToolCallDelta(0, arguments="1}"),
        ToolCallDelta(2, arguments="{}"),  # no name: dropped
    ]:
        buffer.add(delta)
    assert buffer.calls() == [ToolCall("a", "first", '{"x":1}'), ToolCall("b", "second", "{}")]


def test_the_embedded_model_ignores_tools_and_answers_as_always() -> None:
    plain = ModelRequest(
        instructions="Atendemos de lunes a viernes de 9 a 18 horas.",
        message="¿Atienden de lunes a viernes?",
    )
    with_tools = ModelRequest(**{**plain.__dict__, "tools": request_with_tools(True).tools})
    answer = list(EmbeddedModel().stream(with_tools))
    text = [e for e in answer if isinstance(e, TextChunk)]
    assert text == [e for e in EmbeddedModel().stream(plain) if isinstance(e, TextChunk)]
    assert "lunes a viernes" in "".join(e.text for e in text)
    assert not any(isinstance(e, ToolCallDelta | Finish) for e in answer)
