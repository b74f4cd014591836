"""LangChain's ``ChatOpenAI(...).bind_tools([...])`` against Vigia gets ``tool_calls``.

Nothing here counts tokens (LangChain would load tiktoken's encodings from the network);
``invoke`` and ``stream`` do not.
"""

from __future__ import annotations

import json

from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessageChunk,
    HumanMessage,
    ToolMessage,
)
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from tests.function_agents import MODEL, agent_on_fake, tool_results
from vigia.llm.function import FunctionModel, calling
from vigia.llm.protocol import ModelRequest, ToolCall
from vigia.llm.registry import override_model


@tool
def get_weather(city: str) -> str:
    """Current weather of a city."""
    return json.dumps({"city": city, "temperature_c": 23})


def answer(request: ModelRequest) -> list[str | ToolCall]:
    results = tool_results(request)
    if results:
        return [f"Hay {json.loads(results[-1])['temperature_c']} grados."]
    return [calling("get_weather", {"city": "Rosario"})]


def chat_model(base: str, key: str, streaming: bool = False) -> ChatOpenAI:
    return ChatOpenAI(
        model="asistente", base_url=base + "/v1", api_key=key, max_retries=0, streaming=streaming
    )


def test_bind_tools_gets_tool_calls_and_the_result_finishes_the_turn(live_server: str) -> None:
    tenant = agent_on_fake()
    with override_model(FunctionModel(answer), name=MODEL) as fake:
        llm = chat_model(live_server, tenant.production_key).bind_tools([get_weather])
        question = HumanMessage("¿Qué tiempo hace en Rosario?")
        asked = llm.invoke([question])
        assert isinstance(asked, AIMessage)
        assert [(c["name"], c["args"]) for c in asked.tool_calls] == [
            ("get_weather", {"city": "Rosario"})
        ]
        call = asked.tool_calls[0]
        result = ToolMessage(get_weather.invoke(call["args"]), tool_call_id=call["id"])
        final = llm.invoke([question, asked, result])
    assert final.content == "Hay 23 grados."
    assert isinstance(fake, FunctionModel)
    assert [t.name for t in fake.requests[0].tools] == ["get_weather"]
    assert fake.requests[0].tools[0].parameters["required"] == ["city"]


def test_streamed_bind_tools_assembles_the_tool_call(live_server: str) -> None:
    tenant = agent_on_fake()
    with override_model(FunctionModel(answer), name=MODEL):
        llm = chat_model(live_server, tenant.production_key, streaming=True)
        chunks = list(llm.bind_tools([get_weather]).stream("¿Qué tiempo hace en Rosario?"))
    first = chunks[0]  # typed AIMessage; streamed, each piece is an AIMessageChunk
    assert isinstance(first, AIMessageChunk)
    message: BaseMessageChunk = first
    for chunk in chunks[1:]:
        message = message + chunk
    assert isinstance(message, AIMessageChunk)
    assert [(c["name"], c["args"]) for c in message.tool_calls] == [
        ("get_weather", {"city": "Rosario"})
    ]
