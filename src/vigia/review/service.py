"""Output review for external agents: check a reply with the agent's output guardrails.

Idempotent per (agent, ``turnKey``, ``attempt``): a repeated call returns the stored review.
Concurrent identical calls race on a unique constraint; the loser rolls back (the review row
is its write transaction's first statement, so nothing else is lost) and returns the
winner's review.
"""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.agents.schemas import AgentConfig
from vigia.agents.service import resolve
from vigia.conversations.models import Conversation
from vigia.conversations.service import add_message, set_handoff
from vigia.db.session import session_scope, write_scope
from vigia.errors import NotFound
from vigia.guardrails.checks import (
    OutputContext,
    check_reply,
    output_guardrails_active,
)
from vigia.language import line_sentences
from vigia.review.decision import decide
from vigia.review.models import OutputReview
from vigia.review.schemas import ReviewRequest, ReviewResponse
from vigia.review.threads import Thread, find_thread, open_thread
from vigia.workspaces.auth import KeyContext
from vigia.workspaces.upstream import resolve_model

REVIEW_ROLE = "review"


def external_agent(session: Session, key: KeyContext, agent_id: str) -> Agent:
    """The external agent ``agent_id`` of the key's workspace; anything else (a deleted agent
    too) is a 404."""
    agent = session.get(Agent, agent_id) if len(agent_id) <= 36 else None
    if (
        agent is None
        or agent.deleted_at is not None
        or agent.workspace_id != key.workspace_id
        or agent.kind != "external"
        or (key.agent_id is not None and key.agent_id != agent.id)
    ):
        raise NotFound("agent not found")
    return agent


def stored_review(
    session: Session, agent_id: str, turn_key: str, attempt: int
) -> OutputReview | None:
    """The review already stored for this attempt of this turn, if any."""
    return session.scalars(
        select(OutputReview).where(
            OutputReview.agent_id == agent_id,
            OutputReview.turn_key == turn_key,
            OutputReview.attempt == attempt,
        )
    ).one_or_none()


def _response(row: OutputReview) -> ReviewResponse:
    return ReviewResponse.model_validate({**row.result, "reviewId": row.id})


def evaluate(config: AgentConfig, request: ReviewRequest) -> dict[str, object]:
    """The review body (without its id) for ``request`` under the agent's ``config``."""
    guard = config.guardrails
    instructions = "\n\n".join(t for t in (config.instructions, request.instructions or "") if t)
    context = OutputContext(
        instructions=instructions,
        sources=(request.sources,) if request.sources else (),
        message=request.message,
        replies=config.replies.texts(),
        recent=request.recentConversation or "",
    )
    active = output_guardrails_active(guard)
    verdicts = check_reply(line_sentences(request.reply), config, context) if active else []
    decision = decide(verdicts, request.attempt, active)
    return {
        "verdict": decision.verdict,
        "triggered": decision.triggered,
        "severity": decision.severity,
        "action": decision.action,
        "considerations": decision.considerations.model_dump(),
        "holdingMessage": config.replies.holding if decision.action == "hold" else None,
    }


def review_output(key: KeyContext, agent_id: str, request: ReviewRequest) -> ReviewResponse:
    """Reviews (or returns the stored review of) one attempt of one turn.

    Reads in one session, runs the checks outside any transaction, then stores the review
    (and its trace in the thread, opening the thread's conversation if it is new) in one
    short write transaction.
    """
    with session_scope() as session:
        agent = external_agent(session, key, agent_id)
        existing = stored_review(session, agent.id, request.turnKey, request.attempt)
        if existing is not None:
            return _response(existing)
        thread: Thread | None = None
        if request.threadId:
            thread = find_thread(session, key, agent, request.threadId)
        config = resolve(session, agent, key.env).config
        if config.model.provider != "embedded":
            model = resolve_model(session, agent.workspace_id, config.model)
            config = config.model_copy(update={"model": model})
    result = evaluate(config, request)
    with write_scope() as session:
        row = OutputReview(
            workspace_id=agent.workspace_id,
            agent_id=agent.id,
            turn_key=request.turnKey,
            attempt=request.attempt,
            verdict=str(result["verdict"]),
            action=str(result["action"]),
            result=result,
        )
        session.add(row)
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            winner = stored_review(session, agent.id, request.turnKey, request.attempt)
            if winner is None:  # pragma: no cover - the constraint fired, so the row exists
                raise
            return _response(winner)
        if thread is not None:
            conversation = open_thread(session, agent, thread)
            row.conversation_id = conversation.id
            _record_in_conversation(session, conversation, row, request)
        return _response(row)


def _record_in_conversation(
    session: Session, conversation: Conversation, row: OutputReview, request: ReviewRequest
) -> None:
    """Stores the review in the thread; ``hold`` hands the conversation to the team."""
    summary = {
        "reviewId": row.id,
        "turnKey": row.turn_key,
        "attempt": row.attempt,
        "verdict": row.verdict,
        "action": row.action,
        "severity": row.result.get("severity"),
        "triggered": row.result.get("triggered", []),
        "message": request.message,
        "reply": request.reply,
    }
    add_message(session, conversation, REVIEW_ROLE, json.dumps(summary, ensure_ascii=False))
    if row.action == "hold":
        # As an internal agent's handoff: the contact's message, then the holding reply.
        if request.message:
            add_message(session, conversation, "user", request.message)
        add_message(session, conversation, "assistant", str(row.result["holdingMessage"]))
        set_handoff(session, conversation, True)
