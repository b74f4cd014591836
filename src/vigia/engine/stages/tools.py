"""The tools loop of generation: model calls until the model answers.

Each model call is metered on its own (``Meter``); the turn's usage and cost are their sum.
When the model asks for tools:

- a call to a **client tool** ends the turn: the calls go back to the client, which runs
  them and sends the results in its next request (agent-tool calls of that same answer are
  dropped: the model asks again once it has the client's results);
- otherwise the engine runs the **agent tools** (``tool_calls.call_tool``), one trace record
  per call, feeds the results back and calls the model again, for at most the agent's
  ``tool_steps`` rounds. A model still asking for tools after that ends the turn with
  status ``tool_limit`` and the agent's no-answer reply.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from vigia.egress import HostPolicy
from vigia.engine.cost import Meter
from vigia.engine.stages.tool_calls import call_tool
from vigia.engine.turn import Turn
from vigia.llm.protocol import ChatMessage, Model, ModelRequest, TextChunk, ToolCall, Usage


class ToolLoop:
    """One turn's model calls; iterate ``stream()``, then read usage, cost and how it ended."""

    def __init__(
        self,
        turn: Turn,
        model: Model,
        request: Callable[[], ModelRequest],
        on_sources: Callable[[list[str]], None],
    ) -> None:
        self.turn = turn
        self.model = model
        self.request = request
        self.on_sources = on_sources
        self.meters: list[Meter] = []
        self.client_calls: list[ToolCall] = []
        self.limit_reached = False
        self.tool_ms = 0.0
        self._policy: HostPolicy | None = None

    def stream(self) -> Iterator[TextChunk]:
        """The text of every model call, in order; runs agent tools between calls."""
        client_names = {t.name for t in self.turn.request.tools}
        while True:
            meter = Meter(self.model, self.request())
            self.meters.append(meter)
            said = []
            for chunk in meter.stream():
                said.append(chunk.text)
                yield chunk
            calls = meter.tool_calls
            if not calls:
                return
            text = "".join(said)
            client = [c for c in calls if c.name in client_names]
            if client:
                self.client_calls = client
                return
            if len(self.meters) > self.turn.config.tool_steps:
                self.limit_reached = True
                return
            if text and not text[-1].isspace():
                yield TextChunk(" ")
            self._run(ChatMessage("assistant", text, tuple(calls)))

    def _run(self, asked: ChatMessage) -> None:
        """Runs the calls of ``asked`` and adds them and their results to the turn."""
        started = time.perf_counter()
        tools = {t.name: t for t in self.turn.config.tools}
        if self._policy is None:
            self._policy = HostPolicy(self.turn.tool_hosts)
        messages, sources = [asked], []
        for call in asked.tool_calls:
            done = self.turn.trace.run(
                "tool_call",
                call_tool,
                call,
                tools.get(call.name),
                self._policy,
                self.turn.config.guardrails,
            )
            if done.flagged:
                self.turn.note_fired(["injection"])
            if done.usable:
                sources.append(done.content)
            messages.append(ChatMessage("tool", done.content, tool_call_id=call.id))
        # A new list: requests already sent keep the continuation they were sent with.
        self.turn.continuation = [*self.turn.continuation, *messages]
        self.turn.produced += messages
        if sources:
            self.on_sources(sources)
        self.tool_ms += (time.perf_counter() - started) * 1000

    @property
    def finish_reason(self) -> str:
        if self.client_calls:
            return "tool_calls"
        last = self.meters[-1].finish_reason if self.meters else None
        return "length" if last == "length" else "stop"

    @property
    def usage(self) -> Usage:
        """Every model call's tokens, summed."""
        used = [m.usage for m in self.meters]
        return Usage(sum(u.prompt_tokens for u in used), sum(u.completion_tokens for u in used))

    @property
    def cost_usd(self) -> float:
        return round(sum(m.cost_usd for m in self.meters), 8)

    def detail(self) -> dict[str, Any]:
        """For the generation record, when tools took part: each model call's finish and
        tokens."""
        if len(self.meters) <= 1 and not self.client_calls:
            return {}
        steps = [
            {
                "finish": m.finish_reason,
                "tool_calls": [c.name for c in m.tool_calls],
                "prompt_tokens": m.usage.prompt_tokens,
                "completion_tokens": m.usage.completion_tokens,
            }
            for m in self.meters
        ]
        detail: dict[str, Any] = {"steps": steps}
        if self.limit_reached:
            detail["tool_limit"] = self.turn.config.tool_steps
        return detail
