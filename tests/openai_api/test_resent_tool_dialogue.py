"""A client that continues a conversation by its id with ``[user, assistant(tool_calls),
tool]`` (the flow of docs/tools.md): each message reaches the upstream once.

The upstream is a scripted fake that records every request body (what the text says does
not matter here: the bodies are asserted, not the answers).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from openai import OpenAI

from tests.openai_api.test_client_tools import WEATHER_TOOL
from tests.weather_upstream import CALL_ID, agent_on_scripted, scripted_upstream

QUESTION = "¿Qué tiempo hace en Madrid?"
RESULT = "Soleado en Madrid, 22 grados"


@pytest.fixture
def upstream() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with scripted_upstream() as recorded:
        yield recorded


def _dialogue(body: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The roles and texts the upstream received, less the system prompt."""
    return [(m["role"], m.get("content")) for m in body["messages"] if m["role"] != "system"]


def _ask(client: OpenAI, messages: list[dict[str, Any]], stream: bool, **extra: Any) -> str:
    """Sends the turn; the conversation id from ``sherlock``."""
    r: Any = client.chat.completions.create(
        model="asistente",
        messages=messages,  # type: ignore[arg-type]
        tools=[WEATHER_TOOL],
        stream=stream,
        **extra,
    )
    last = list(r)[-1] if stream else r
    return str((last.model_extra or {})["sherlock"]["conversation_id"])


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
def test_the_user_message_reaches_the_upstream_once_with_a_conversation_id(
    live_server: str, upstream: tuple[str, list[dict[str, Any]]], stream: bool
) -> None:
    url, bodies = upstream
    tenant = agent_on_scripted(url)
    client = OpenAI(base_url=f"{live_server}/v1", api_key=tenant.production_key, max_retries=0)
    asked: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    conversation = _ask(client, asked, stream)
    assert _dialogue(bodies[-1]) == [("user", QUESTION)]
    call = {"name": "get_weather", "arguments": '{"city": "Madrid"}'}
    answered: list[dict[str, Any]] = [
        *asked,
        {
            "role": "assistant",
            "tool_calls": [{"id": CALL_ID, "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": CALL_ID, "content": RESULT},
    ]
    header = {"X-Sherlock-Conversation": conversation}
    assert _ask(client, answered, stream, extra_headers=header) == conversation
    expected = [("user", QUESTION), ("assistant", None), ("tool", RESULT)]
    assert _dialogue(bodies[-1]) == expected
    # A client that retries the same request after it was answered: still once.
    _ask(client, answered, stream, extra_headers=header)
    assert _dialogue(bodies[-1]) == expected
