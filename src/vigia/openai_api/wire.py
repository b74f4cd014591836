"""Translates engine events into OpenAI JSON and SSE chunks (with the ``sherlock`` extension)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator

from vigia.engine import ClientToolCalls, EngineEvent, TextDelta, TokenUsage, TurnResult
from vigia.errors import ClientGone
from vigia.http.sse import sse_line
from vigia.knowledge.schemas import CitationOut
from vigia.llm.protocol import ToolCall
from vigia.openai_api.schemas import (
    AssistantMessage,
    AssistantToolCall,
    CalledFunction,
    ChatCompletion,
    ChatCompletionChunk,
    Choice,
    ChunkChoice,
    Delta,
    FunctionCallDelta,
    Sherlock,
    ToolCallDelta,
)


def completion_id() -> str:
    return "chatcmpl-" + secrets.token_hex(12)


def usage_of(result: TurnResult) -> TokenUsage:
    return TokenUsage.of(result.prompt_tokens, result.completion_tokens)


def sherlock_of(result: TurnResult) -> Sherlock:
    return Sherlock(
        conversation_id=result.conversation_id,
        run_id=result.run_id,
        status=result.status,
        citations=[CitationOut.model_validate(c.as_dict()) for c in result.citations],
        cost_usd=result.cost_usd,
        version=result.version,
        handoff=result.handoff,
        env=result.env,
        guardrails=result.triggered or None,
        budget_alert=result.budget_alert or None,
    )


def tool_calls_out(calls: list[ToolCall]) -> list[AssistantToolCall] | None:
    if not calls:
        return None
    return [
        AssistantToolCall(id=c.id, function=CalledFunction(name=c.name, arguments=c.arguments))
        for c in calls
    ]


def completion(model: str, result: TurnResult) -> ChatCompletion:
    """The ``chat.completion`` object for a finished turn."""
    content = result.content if result.content or not result.tool_calls else None
    message = AssistantMessage(
        content=None if result.refusal else content,
        refusal=result.content if result.refusal else None,
        tool_calls=tool_calls_out(result.tool_calls),
    )
    return ChatCompletion(
        id=completion_id(),
        created=int(time.time()),
        model=model,
        choices=[Choice(message=message, finish_reason=result.finish_reason)],
        usage=usage_of(result),
        sherlock=sherlock_of(result),
    )


def tool_call_deltas(calls: list[ToolCall]) -> Iterator[ToolCallDelta]:
    """Each call as OpenAI streams it: id, type and name with empty arguments, then the
    arguments."""
    for index, call in enumerate(calls):
        yield ToolCallDelta(
            index=index,
            id=call.id,
            type="function",
            function=FunctionCallDelta(name=call.name, arguments=""),
        )
        if call.arguments:
            yield ToolCallDelta(index=index, function=FunctionCallDelta(arguments=call.arguments))


def chunks(model: str, events: Iterator[EngineEvent], include_usage: bool) -> Iterator[str]:
    """SSE lines: role chunk, a chunk per checked sentence (then the client tool calls, if
    the turn ends with them), the finish chunk, ``[DONE]``.

    As OpenAI sends them: without ``include_usage`` the finish chunk carries ``usage`` (and
    ``sherlock``); with it every chunk has ``"usage": null`` and one more chunk without
    choices carries ``usage`` and ``sherlock``, so usage arrives once either way.
    """
    cid, created = completion_id(), int(time.time())

    def chunk(
        choices: list[ChunkChoice],
        usage: TokenUsage | None = None,
        sherlock: Sherlock | None = None,
    ) -> str:
        body = ChatCompletionChunk(
            id=cid, created=created, model=model, choices=choices, usage=usage, sherlock=sherlock
        )
        absent = None if include_usage or usage is not None else {"usage"}
        return sse_line(body.model_dump(mode="json", exclude=absent))

    yield chunk([ChunkChoice(delta=Delta(role="assistant", content=""))])
    try:
        yield from _event_chunks(events, chunk, include_usage)
    except ClientGone:
        return  # the engine stopped for a client that went away: nobody reads the rest
    yield sse_line("[DONE]")


def _event_chunks(
    events: Iterator[EngineEvent], chunk: Callable[..., str], include_usage: bool
) -> Iterator[str]:
    for event in events:
        if isinstance(event, TextDelta):
            if event.text and event.refusal:
                yield chunk([ChunkChoice(delta=Delta(refusal=event.text))])
            elif event.text:
                yield chunk([ChunkChoice(delta=Delta(content=event.text))])
            continue
        if isinstance(event, ClientToolCalls):
            for piece in tool_call_deltas(event.calls):
                yield chunk([ChunkChoice(delta=Delta(tool_calls=[piece]))])
            continue
        usage, sherlock = usage_of(event), sherlock_of(event)
        finish = ChunkChoice(delta=Delta(), finish_reason=event.finish_reason)
        if include_usage:
            yield chunk([finish])
            yield chunk([], usage, sherlock)
        else:
            yield chunk([finish], usage, sherlock)
