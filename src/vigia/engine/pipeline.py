"""The one pipeline every agent turn runs, whatever surface it comes from.

``prepare`` runs the read stages (budget, input guardrails, history, retrieval) and raises
client errors before anything is streamed; ``execute`` generates, checks the output
sentence by sentence, and persists the turn in one transaction. Each stage is timed and
recorded by the trace that wraps it; all per-turn state lives on the ``Turn``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sqlalchemy.orm import Session

from vigia.agents.service import AgentRow, find_agent_row, resolve
from vigia.conversations import service as conversations
from vigia.conversations.marks import InputMarks
from vigia.conversations.person_request import asks_for_person
from vigia.db.base import new_id
from vigia.db.session import session_scope, write_scope
from vigia.engine.cost import expected_cost_usd, ledger_cost_usd
from vigia.engine.events import ClientToolCalls, EngineEvent, TextDelta, TurnResult
from vigia.engine.stages import budget
from vigia.engine.stages.generation import Generation, model_request
from vigia.engine.stages.history import load_history
from vigia.engine.stages.input_guardrails import check_input
from vigia.engine.stages.persistence import release_reservation, save_failed_run, save_turn
from vigia.engine.stages.response_format import require_structured_support
from vigia.engine.stages.retrieval import retrieve
from vigia.engine.stages.tool_setup import prepare_tools
from vigia.engine.trace import StageRecord
from vigia.engine.turn import EarlyAnswer, Turn, TurnRequest
from vigia.errors import ClientGone, NotFound, UpstreamError
from vigia.kit.turn_status import TurnStatus
from vigia.llm.protocol import ToolCall
from vigia.observability import context as observed
from vigia.workspaces.limits import turn_limits
from vigia.workspaces.upstream import resolve_model

AgentLocator = Callable[[Session], AgentRow | None]


def _open_turn(
    session: Session, request: TurnRequest, locate: AgentLocator | None
) -> tuple[Turn, budget.BudgetOwner]:
    if locate is not None:
        agent = locate(session)
    else:
        agent = find_agent_row(session, request.workspace_id, agent_id=request.agent_id)
    if agent is not None:
        request.agent_id = agent.id
    workspace = turn_limits(session, request.workspace_id)
    if agent is None or workspace is None or agent.workspace_id != workspace.id:
        raise NotFound("agent not found")
    resolved = resolve(session, agent, request.env)
    conversation_id, new = request.conversation_id, False
    if conversation_id:
        conversation = conversations.get_conversation(session, workspace.id, conversation_id)
        if conversation.agent_id != agent.id:
            raise NotFound("conversation not found")
    else:
        conversation_id, new = new_id(), True
    config = resolved.config
    require_structured_support(request, config.model)
    if config.model.provider != "embedded":
        model = resolve_model(session, workspace.id, config.model)
        config = config.model_copy(update={"model": model})
    turn = Turn(request, new_id(), config, resolved.version, conversation_id, new)
    observed.bind(workspace=workspace.id, agent=agent.id, run_id=turn.run_id)
    return turn, workspace


def _in_handoff(session: Session, turn: Turn) -> bool:
    if turn.new_conversation:
        return False
    return conversations.get_conversation(session, turn.workspace_id, turn.conversation_id).handoff


def _reserve(turn: Turn, workspace: budget.BudgetOwner) -> None:
    """Holds the turn's expected cost against a pausing budget (priced models only)."""
    if workspace.budget_usd is None or workspace.budget_action != "pause":
        return
    expected = expected_cost_usd(
        turn.config.model.name, model_request(turn), turn.config.model.max_tokens
    )
    if expected <= 0:
        return
    with turn.trace.timed("budget_reservation") as record:
        with write_scope() as session:
            state = budget.reserve(session, workspace, turn.run_id, expected)
            record.detail = {"expected_usd": expected, **state.detail()}
            if state.pauses:
                session.rollback()
                record.outcome = "paused"
                turn.early = EarlyAnswer("budget_exceeded", budget.EXCEEDED_MESSAGE)
                return
        turn.reserved_usd = expected


def prepare(request: TurnRequest, locate: AgentLocator | None = None) -> Turn:
    """Runs budget, input guardrails, memory and retrieval; raises 404s before streaming.

    ``locate`` finds the agent inside the same read transaction (surfaces that address
    agents by slug); without it ``request.agent_id`` is used.
    """
    with session_scope() as session:
        turn, workspace = _open_turn(session, request, locate)
        trace = turn.trace
        state = trace.run("budget", budget.budget_state, session, workspace)
        turn.budget_alert = state.alerts
        if state.pauses:
            turn.early = EarlyAnswer("budget_exceeded", budget.EXCEEDED_MESSAGE)
            return turn
        handoff = _in_handoff(session, turn)
        checked = trace.run("input_guardrails", check_input, turn)
        turn.note_fired([v.name for v in checked.fired])
        # Every message is stored; one that a check blocks is marked so, and never becomes
        # model input (during a handoff either: the agent is silent, the operator sees it).
        turn.input_marks = InputMarks.of([(v.name, v.blocking) for v in checked.fired])
        if handoff:
            trace.add(StageRecord("handoff", trace.stages[-1].started_at, 0.0, "handoff"))
            turn.early = EarlyAnswer("handoff")
            return turn
        if checked.blocked:
            turn.early = EarlyAnswer("blocked", turn.config.replies.blocked)
            return turn
        if turn.config.handoff_on_request and asks_for_person(turn.message):
            turn.hands_off = True
            trace.add(StageRecord("handoff", trace.stages[-1].started_at, 0.0, "requested"))
            turn.early = EarlyAnswer("handoff", turn.config.replies.holding)
            return turn
        turn.history = trace.run("history", load_history, session, turn).messages
        if turn.uses_tools and trace.run("tools", prepare_tools, session, turn).flagged:
            turn.note_fired(["injection"])
        turn.passages = trace.run("retrieval", retrieve, session, turn).passages
    _reserve(turn, workspace)
    return turn


def execute(turn: Turn) -> Iterator[EngineEvent]:
    """Generates and checks the answer; yields checked text, then the ``TurnResult``."""
    if turn.early is not None:
        if turn.early.content:
            yield TextDelta(turn.early.content, refusal=turn.request.structured)
        yield _finish(turn, turn.early.status, turn.early.content)
        return
    generation = Generation(turn)
    try:
        yield from generation.stream()
    except UpstreamError as error:
        turn.trace.add(generation.record)
        save_failed_run(turn, generation.model.name, error.detail)
        raise
    except ClientGone:
        release_reservation(turn)  # nothing of the turn is stored
        raise
    turn.trace.add(generation.record)
    turn.trace.add(generation.checks)
    calls = generation.loop.client_calls if generation.status == "ok" else []
    if calls:
        yield ClientToolCalls(calls)
    yield _finish(turn, generation.status, generation.content, generation, calls)


def _finish(
    turn: Turn,
    status: TurnStatus,
    content: str,
    generation: Generation | None = None,
    calls: list[ToolCall] | None = None,
) -> TurnResult:
    usage = generation.loop.usage if generation is not None else None
    finish = "stop"
    if calls:
        finish = "tool_calls"
    elif generation is not None and status == "ok":
        finish = generation.loop.finish_reason
    result = TurnResult(
        status=status,
        content=content,
        run_id=turn.run_id,
        conversation_id=turn.conversation_id,
        version=turn.version,
        env=turn.request.env,
        prompt_tokens=(usage.prompt_tokens if usage else 0) + turn.ledger.prompt_tokens,
        completion_tokens=(usage.completion_tokens if usage else 0) + turn.ledger.completion_tokens,
        cost_usd=(generation.loop.cost_usd if generation is not None else 0.0)
        + ledger_cost_usd(turn.ledger),
        citations=generation.citations.citations() if generation is not None else [],
        handoff=status == "handoff",
        triggered=list(turn.triggered),
        budget_alert=turn.budget_alert,
        tool_calls=calls or [],
        finish_reason=finish,
        refusal=turn.request.structured and status != "ok" and bool(content),
    )
    save_turn(turn, result, generation.model.name if generation is not None else "")
    return result
