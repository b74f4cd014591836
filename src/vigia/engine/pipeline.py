"""The one pipeline every agent turn runs, whatever surface it comes from.

``prepare`` reads (agent version, conversation, budget, input guardrails, memory,
retrieval) and raises client errors before anything is streamed; ``execute`` generates,
checks the output sentence by sentence, and persists the turn in one transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.agents.service import AgentRow, find_agent_row, resolve
from vigia.conversations import service as conversations
from vigia.db.base import new_id, utcnow
from vigia.db.session import session_scope
from vigia.engine import persist
from vigia.engine.budget import EXCEEDED_MESSAGE, BudgetOwner, budget_state
from vigia.engine.citations import CitationMap
from vigia.engine.cost import cost_usd
from vigia.engine.events import EngineEvent, TextDelta, TurnResult
from vigia.engine.sentences import SentenceBuffer
from vigia.engine.trace import StageRecord, Trace
from vigia.engine.turn import Turn, TurnRequest
from vigia.errors import NotFound, UpstreamError
from vigia.guardrails import hooks as guardrails
from vigia.guardrails.verdict import Verdict
from vigia.knowledge import hooks as knowledge
from vigia.llm.protocol import ModelRequest, TextChunk, Usage
from vigia.llm.registry import model_for
from vigia.llm.tokens import count_tokens
from vigia.workspaces.models import Workspace


@dataclass
class PreparedTurn:
    """A turn that passed the read stages; ``early_status`` set means no generation."""

    turn: Turn
    trace: Trace
    started: float
    early_status: str | None = None
    early_content: str = ""
    budget_alert: bool = False
    logged: list[Verdict] = field(default_factory=list)
    triggered: list[str] = field(default_factory=list)


def _fired(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if not v.passed]


def _verdict_detail(verdicts: list[Verdict]) -> dict[str, list[dict[str, object]]]:
    return {
        "fired": [
            {"name": v.name, "blocking": v.blocking, "severity": v.severity, "reason": v.reason}
            for v in verdicts
        ]
    }


AgentLocator = Callable[[Session], AgentRow | None]


def _open_turn(
    session: Session, request: TurnRequest, run_id: str, locate: AgentLocator | None
) -> tuple[Turn, BudgetOwner]:
    if locate is not None:
        agent = locate(session)
    else:
        agent = find_agent_row(session, request.workspace_id, agent_id=request.agent_id)
    if agent is not None:
        request.agent_id = agent.id
    columns = Workspace.__table__.c
    workspace = (
        session.connection()
        .execute(
            select(columns.id, columns.budget_usd, columns.budget_action).where(
                columns.id == request.workspace_id
            )
        )
        .first()
    )
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
    turn = Turn(request, run_id, resolved.config, resolved.version, conversation_id, new)
    return turn, workspace


def prepare(request: TurnRequest, locate: AgentLocator | None = None) -> PreparedTurn:
    """Runs budget, input guardrails, memory and retrieval; raises 404s before streaming.

    ``locate`` finds the agent inside the same read transaction (surfaces that address
    agents by slug); without it ``request.agent_id`` is used.
    """
    started = time.perf_counter()
    trace = Trace()
    with session_scope() as session:
        turn, workspace = _open_turn(session, request, new_id(), locate)
        prepared = PreparedTurn(turn, trace, started)
        with trace.stage("budget") as stage:
            budget = budget_state(session, workspace)
            stage.detail = {"budget_usd": budget.budget_usd, "spent_usd": budget.spent_usd}
            prepared.budget_alert = budget.alerts
            if budget.exhausted:
                stage.outcome = "paused" if budget.pauses else "alert"
        if budget.pauses:
            prepared.early_status, prepared.early_content = "budget_exceeded", EXCEEDED_MESSAGE
            return prepared
        if not turn.new_conversation:
            conversation = conversations.get_conversation(
                session, workspace.id, turn.conversation_id
            )
            if conversation.handoff:
                trace.add(StageRecord("handoff", trace.stages[-1].started_at, 0.0, "handoff"))
                prepared.early_status = "handoff"
                return prepared
        with trace.stage("input_guardrails") as stage:
            fired = _fired(guardrails.check_input(turn))
            prepared.triggered += [v.name for v in fired]
            stage.detail = _verdict_detail(fired)
            if any(v.blocking for v in fired):
                stage.outcome = "blocked"
                prepared.early_status, prepared.early_content = (
                    "blocked",
                    turn.config.replies.blocked,
                )
                return prepared
            prepared.logged += fired
        with trace.stage("history") as stage:
            limit = turn.config.memory_turns * 2
            if request.supplied_history is not None:
                turn.history = request.supplied_history[-limit:] if limit else []
                stage.detail = {"source": "request", "messages": len(turn.history)}
            elif not turn.new_conversation:
                turn.history = conversations.history(
                    session, turn.conversation_id, turn.config.memory_turns
                )
                stage.detail = {"source": "stored", "messages": len(turn.history)}
        with trace.stage("retrieval") as stage:
            turn.passages = knowledge.retrieve(session, turn)
            stage.detail = {"passages": len(turn.passages)}
    return prepared


def execute(prepared: PreparedTurn) -> Iterator[EngineEvent]:
    """Generates and checks the answer; yields checked text, then the ``TurnResult``."""
    if prepared.early_status is not None:
        if prepared.early_content:
            yield TextDelta(prepared.early_content)
        yield _finish(prepared, prepared.early_status, prepared.early_content, "", 0, 0)
        return
    turn = prepared.turn
    model = model_for(turn.config.model)
    request = ModelRequest(
        instructions=turn.config.instructions,
        message=turn.message,
        history=turn.history,
        passages=turn.passages,
        replies=turn.config.replies,
        choice=turn.config.model,
        language=turn.config.language,
        incremental=turn.request.streamed,
    )
    citations = CitationMap(turn.passages)
    generation = StageRecord("generation", utcnow())
    checks = StageRecord("output_guardrails", utcnow())
    buffer = SentenceBuffer()
    sent: list[str] = []
    originals: list[str] = []
    usage: Usage | None = None
    status = "ok"

    def release(sentence: str) -> Iterator[TextDelta]:
        nonlocal status
        t0 = time.perf_counter()
        fired = _fired(guardrails.check_output_sentence(turn, sentence, "".join(originals)))
        checks.duration_ms += (time.perf_counter() - t0) * 1000
        prepared.triggered += [v.name for v in fired if v.name not in prepared.triggered]
        checks.detail.setdefault("fired", []).extend(_verdict_detail(fired)["fired"])
        if any(v.blocking for v in fired):
            status = "blocked"
            checks.outcome = "blocked"
            return
        originals.append(sentence)
        text = citations.rewrite(sentence)
        sent.append(text)
        yield TextDelta(text)

    stream = model.stream(request)
    t_gen = time.perf_counter()
    try:
        for event in stream:
            if isinstance(event, Usage):
                usage = event
                continue
            assert isinstance(event, TextChunk)
            for sentence in buffer.feed(event.text):
                yield from release(sentence)
                if status == "blocked":
                    break
            if status == "blocked":
                break
        if status != "blocked":
            for sentence in buffer.flush():
                yield from release(sentence)
    except UpstreamError as error:
        generation.outcome = "error"
        generation.detail = {"error": error.code}
        generation.duration_ms = (time.perf_counter() - t_gen) * 1000
        prepared.trace.add(generation)
        _persist_failure(prepared, model.name, error)
        raise
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    generation.duration_ms = (time.perf_counter() - t_gen) * 1000 - checks.duration_ms
    generation.detail = {"model": model.name}
    prepared.trace.add(generation)
    prepared.trace.add(checks)
    content = "".join(sent)
    if status == "blocked":
        safe = turn.config.replies.safe_output
        separator = " " if content and not content.endswith((" ", "\n")) else ""
        yield TextDelta(separator + safe)
        content += separator + safe
    if usage is None:
        usage = Usage(
            sum(count_tokens(t) for t in (request.instructions, request.message)),
            count_tokens(content),
        )
    yield _finish(
        prepared,
        status,
        content,
        model.name,
        usage.prompt_tokens,
        usage.completion_tokens,
        citations=citations,
    )


def _finish(
    prepared: PreparedTurn,
    status: str,
    content: str,
    model: str,
    prompt_tokens: int,
    completion_tokens: int,
    citations: CitationMap | None = None,
) -> TurnResult:
    turn = prepared.turn
    cost = cost_usd(model, prompt_tokens, completion_tokens) if model else 0.0
    cited = citations.citations() if citations is not None else []
    result = TurnResult(
        status=status,
        content=content,
        run_id=turn.run_id,
        conversation_id=turn.conversation_id,
        version=turn.version,
        env=turn.request.env,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=cost,
        citations=cited,
        handoff=status == "handoff",
        triggered=list(prepared.triggered),
        budget_alert=prepared.budget_alert,
    )
    duration_ms = (time.perf_counter() - prepared.started) * 1000
    persist.save_turn(turn, result, prepared.trace, model, duration_ms)
    return result


def _persist_failure(prepared: PreparedTurn, model: str, error: UpstreamError) -> None:
    duration_ms = (time.perf_counter() - prepared.started) * 1000
    persist.save_failed_run(prepared.turn, prepared.trace, model, duration_ms, error.detail)


def run_turn(request: TurnRequest) -> Iterator[EngineEvent]:
    """Prepare and execute in one go (for callers that need no early errors)."""
    yield from execute(prepare(request))
