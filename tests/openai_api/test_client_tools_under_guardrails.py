"""Client-side function calling with the real clients (``openai`` SDK, LangChain
``ChatOpenAI``) against a live server, under the guardrails a new agent gets.

The agent runs on a scripted OpenAI-compatible upstream over HTTP: it asks for
``get_weather`` until the request carries the tool's result, then answers from it. The
client's tool result is evidence for the grounding check, so the answer that restates it
reaches the client, and one that invents beyond it is blocked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from openai import OpenAI

from tests.openai_api.test_client_tools import WEATHER_TOOL as WEATHER
from tests.scripted_upstream import (
    Call,
    ScriptedUpstream,
    agent_on,
    scripted_upstream,
    tool_results,
)

INSTRUCTIONS = "Sos el asistente de una agencia de viajes. Respondé en español."
QUESTION = "¿Qué tiempo hace en Madrid?"
RESULT = "Soleado en Madrid, 22 grados"
RESTATED = "En Madrid está soleado y hace 22 grados."
INVENTED = "En Madrid está soleado y hace 22 grados. Mañana lloverá y bajará a 9 grados."


def weather(answer: str) -> Any:
    """Asks for ``get_weather`` until the request carries its result, then says ``answer``."""

    def script(body: dict[str, Any]) -> str | list[Call]:
        if tool_results(body):
            return answer
        return [Call("call_weather_1", "get_weather", {"city": "Madrid"})]

    return script


@pytest.fixture
def restating() -> Iterator[ScriptedUpstream]:
    with scripted_upstream(weather(RESTATED)) as upstream:
        yield upstream


def sdk(url: str, key: str) -> OpenAI:
    return OpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0)


def round_trip(
    client: OpenAI, stream: bool, conversation: bool
) -> tuple[str | None, dict[str, Any]]:
    """Asks, runs the requested tool as the client does, sends its result; returns the
    answer and its ``sherlock`` block (a stream's deltas joined)."""
    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    first = client.chat.completions.create(model="asistente", messages=messages, tools=[WEATHER])
    assert first.choices[0].finish_reason == "tool_calls"
    calls = first.choices[0].message.tool_calls or []
    messages.append(first.choices[0].message.model_dump(exclude_none=True))
    messages.append({"role": "tool", "tool_call_id": calls[0].id, "content": RESULT})
    opened = (first.model_extra or {})["sherlock"]["conversation_id"]
    headers = {"X-Sherlock-Conversation": opened} if conversation else {}
    if not stream:
        second = client.chat.completions.create(
            model="asistente", messages=messages, tools=[WEATHER], extra_headers=headers
        )
        return second.choices[0].message.content, (second.model_extra or {})["sherlock"]
    pieces, last = [], None
    for chunk in client.chat.completions.create(
        model="asistente", messages=messages, tools=[WEATHER], extra_headers=headers, stream=True
    ):
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
        if (chunk.model_extra or {}).get("sherlock"):
            last = chunk
    assert last is not None
    return "".join(pieces), (last.model_extra or {})["sherlock"]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("conversation", [False, True], ids=["new", "conversation"])
def test_a_client_tool_round_trip_answers_from_the_tool_result(
    live_server: str, restating: ScriptedUpstream, stream: bool, conversation: bool
) -> None:
    tenant = agent_on(restating, "viajes", INSTRUCTIONS)
    answer, sherlock = round_trip(sdk(live_server, tenant.production_key), stream, conversation)
    assert answer == RESTATED
    assert sherlock["status"] == "ok"
    assert "grounding" not in (sherlock.get("guardrails") or [])
    assert tool_results(restating.bodies[-1]) == [RESULT]


def test_an_answer_that_invents_beyond_the_tool_result_is_blocked(live_server: str) -> None:
    with scripted_upstream(weather(INVENTED)) as upstream:
        tenant = agent_on(upstream, "viajes", INSTRUCTIONS)
        answer, sherlock = round_trip(sdk(live_server, tenant.production_key), False, False)
    assert sherlock["status"] == "blocked"
    assert sherlock["guardrails"] == ["grounding"]
    assert answer is not None and "9 grados" not in answer
    assert answer.startswith(RESTATED), "the supported sentence was released before the block"


def test_langchain_bind_tools_round_trip(live_server: str, restating: ScriptedUpstream) -> None:
    tenant = agent_on(restating, "viajes", INSTRUCTIONS)

    @tool
    def get_weather(city: str) -> str:
        """Current weather of a city."""
        return RESULT

    llm = ChatOpenAI(
        model="asistente",
        base_url=f"{live_server}/v1",
        api_key=tenant.production_key,
        max_retries=0,
    ).bind_tools([get_weather])
    messages: list[Any] = [HumanMessage(QUESTION)]
    asked = llm.invoke(messages)
    assert [c["name"] for c in asked.tool_calls] == ["get_weather"]
    call = asked.tool_calls[0]
    messages += [asked, ToolMessage(get_weather.invoke(call["args"]), tool_call_id=call["id"])]
    answered = llm.invoke(messages)
    assert answered.content == RESTATED
    assert tool_results(restating.bodies[-1]) == [RESULT]
