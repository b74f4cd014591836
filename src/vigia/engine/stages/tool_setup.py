"""The tools stage of ``prepare``: the tools the model is offered, the workspace's tool
hosts, and the client's tool results for this turn (screened as untrusted input), with the
messages the conversation does not hold yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from vigia.conversations import service as conversations
from vigia.engine.stages.tool_calls import screen
from vigia.engine.turn import Turn
from vigia.llm.protocol import ChatMessage, ToolSpec
from vigia.workspaces.limits import turn_limits


def offered_tools(turn: Turn) -> list[ToolSpec]:
    """The agent's tools, then the client's (a client tool named like an agent's is dropped:
    the agent's runs)."""
    agent = [ToolSpec(t.name, t.description, t.parameters) for t in turn.config.tools]
    names = {t.name for t in agent}
    return agent + [t for t in turn.request.tools if t.name not in names]


@dataclass(frozen=True)
class ToolSetup:
    offered: list[str]
    results: int
    """Tool results the client sent for this turn."""
    withheld: list[str]
    """Ids of the calls whose client-sent result the injection check withheld."""
    flagged: bool

    @property
    def outcome(self) -> str:
        return "withheld" if self.withheld else "ok"

    def detail(self) -> dict[str, Any]:
        detail: dict[str, Any] = {"offered": self.offered, "results": self.results}
        if self.withheld:
            detail["withheld"] = self.withheld
        return detail


def _is_stored(message: ChatMessage, calls: set[str], answered: set[str]) -> bool:
    if message.role == "tool":
        return message.tool_call_id in answered
    return bool(message.tool_calls) and message.tool_calls[0].id in calls


def _unsaved(session: Session, turn: Turn, continuation: list[ChatMessage]) -> list[ChatMessage]:
    """The user's message and what the client sent after it, less what the conversation
    already holds (a client that resends the whole dialogue stores nothing twice)."""
    user = ChatMessage("user", turn.message)
    if turn.new_conversation:
        return [user, *continuation]
    calls, answered = conversations.stored_tool_ids(session, turn.conversation_id)
    fresh = [m for m in continuation if not _is_stored(m, calls, answered)]
    opened = _is_stored(continuation[0], calls, answered)
    return fresh if opened else [user, *fresh]


def prepare_tools(session: Session, turn: Turn) -> ToolSetup:
    """Reads the tool hosts (agents with tools) and screens the client's tool results."""
    if turn.config.tools:
        limits = turn_limits(session, turn.workspace_id)
        turn.tool_hosts = list(limits.tool_hosts) if limits is not None else []
    continuation, withheld, flagged = [], [], False
    for message in turn.request.continuation:
        if message.role == "tool":
            content, verdict = screen(message.content, turn.config.guardrails)
            flagged = flagged or not verdict.passed
            if verdict.blocking:
                withheld.append(message.tool_call_id or "")
                message = ChatMessage("tool", content, tool_call_id=message.tool_call_id)
        continuation.append(message)
    turn.continuation = continuation
    if continuation:
        turn.unsaved = _unsaved(session, turn, continuation)
    results = sum(1 for m in continuation if m.role == "tool")
    return ToolSetup([t.name for t in offered_tools(turn)], results, withheld, flagged)
