"""Runs an agent's evaluation cases through the engine, as real turns on channel ``eval``.

Each case is a fresh conversation: its history (if any) is sent as the client's history,
exactly as the OpenAI-compatible surface does for a request with several messages, so
``vigia eval run`` and promptfoo (which calls that surface) run the same turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.orm import Session

from vigia.agents import service as agents
from vigia.db.session import session_scope
from vigia.engine import TurnRequest, TurnResult, execute, prepare
from vigia.errors import Conflict, Invalid, VigiaError
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.checks import CitedDocument, Observed, failures
from vigia.eval_cases.schemas import CaseAssertions, CaseResultOut, DialogueMessage, Env, EvalRunOut
from vigia.llm.protocol import ChatMessage
from vigia.workspaces.service import find_workspace

CHANNEL = "eval"


@dataclass(frozen=True)
class PlannedCase:
    id: str
    name: str
    dialogue: list[DialogueMessage]
    assertions: CaseAssertions


@dataclass(frozen=True)
class Plan:
    """What one evaluation runs, read in one transaction before any turn."""

    workspace_id: str
    agent_id: str
    slug: str
    env: Env
    version: int | None
    draft: dict[str, Any]
    """The draft as it was when the cases were read (the publish gate compares it)."""
    cases: list[PlannedCase]


class EvaluationFailed(VigiaError):
    """A publish refused because some of the draft's cases fail (or it has none)."""

    status = 409
    code = "evaluation_failed"

    def __init__(self, detail: str, report: EvalRunOut | None = None) -> None:
        super().__init__(detail)
        self.report = report


def plan(session: Session, workspace: str, slug: str, env: Env) -> Plan:
    """The agent's cases and what ``env`` runs; 404 when it has no published version."""
    ws = find_workspace(session, workspace)
    agent = agents.get_agent(session, ws.id, slug)
    eval_cases.require_runnable(agent)
    resolved = agents.resolve(session, agent, env)
    cases = [
        PlannedCase(row.id, row.name, eval_cases.dialogue_of(row), eval_cases.assertions_of(row))
        for row in eval_cases.list_cases(session, agent.id)
    ]
    return Plan(ws.id, agent.id, agent.slug, env, resolved.version, dict(agent.draft), cases)


def _observe(result: TurnResult) -> Observed:
    cited = [CitedDocument(c.document_id, c.document) for c in result.citations]
    return Observed(result.content, result.status, cited)


def run_case(plan: Plan, case: PlannedCase) -> CaseResultOut:
    """One case as a turn; a turn that fails (e.g. the upstream model) fails the case."""
    *history, last = case.dialogue
    request = TurnRequest(
        workspace_id=plan.workspace_id,
        agent_id=plan.agent_id,
        message=last.content,
        channel=CHANNEL,
        env=plan.env,
        supplied_history=[ChatMessage(m.role, m.content) for m in history] or None,
    )
    try:
        events = list(execute(prepare(request)))
    except VigiaError as error:
        return CaseResultOut(
            id=case.id,
            name=case.name,
            passed=False,
            reply="",
            status="error",
            failures=[f"the turn failed: {error.detail}"],
            run_id=None,
        )
    result = events[-1]
    assert isinstance(result, TurnResult)
    broken = failures(case.assertions, _observe(result))
    return CaseResultOut(
        id=case.id,
        name=case.name,
        passed=not broken,
        reply=result.content,
        status=result.status,
        failures=broken,
        run_id=result.run_id,
    )


def run_plan(plan: Plan) -> EvalRunOut:
    results = [run_case(plan, case) for case in plan.cases]
    passed = sum(r.passed for r in results)
    return EvalRunOut(
        agent=plan.slug,
        env=plan.env,
        version=plan.version,
        passed=passed,
        failed=len(results) - passed,
        cases=results,
    )


def evaluate(workspace: str, slug: str, env: Env) -> EvalRunOut:
    """Runs every case of the agent against ``env`` (``draft`` or ``production``)."""
    with session_scope() as session:
        planned = plan(session, workspace, slug, env)
    return run_plan(planned)


def publish_if_passing(workspace: str, slug: str, by: str | None = None) -> tuple[EvalRunOut, int]:
    """Runs the cases on the draft and publishes it only when every one passes (``by``
    names who published it, as for ``agents.publish``).

    Refuses an agent with no cases (nothing would gate the publish), and a draft edited
    while its cases ran (what would be published is not what passed).
    """
    with session_scope() as session:
        planned = plan(session, workspace, slug, "draft")
    if not planned.cases:
        raise EvaluationFailed(
            f"agent '{slug}' has no evaluation cases: add some with `vigia eval add`"
        )
    report = run_plan(planned)
    if report.failed:
        raise EvaluationFailed(
            f"{report.failed} of {len(report.cases)} evaluation cases fail on the draft",
            report,
        )
    with session_scope() as session:
        agent = agents.get_agent(session, planned.workspace_id, slug)
        if agent.draft != planned.draft:
            raise Conflict("the draft changed while its cases ran: evaluate it again")
        return report, agents.publish(session, agent, by=by).number


def require_env(env: str) -> Env:
    """``env`` as typed on a command line; 422 unless ``draft`` or ``production``."""
    if env not in ("draft", "production"):
        raise Invalid("env must be 'draft' or 'production'")
    return cast(Env, env)
