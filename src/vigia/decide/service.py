"""Decisions: answers with probabilities and abstention, the monthly token quota, systemone."""

from __future__ import annotations

import time

import numpy as np
from sqlalchemy.orm import Session

from vigia.decide import cost, repository, scoring
from vigia.decide.calibration import Calibration, get_calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.inference import Outcome, Plan, plan_question, run_model
from vigia.decide.schemas import (
    Answer,
    DecideRequest,
    DecideResponse,
    Question,
    SystemOneAnswer,
    SystemOneQuestion,
    SystemOneRequest,
    SystemOneResponse,
    SystemOneUsage,
    Usage,
)
from vigia.decide.texts import (
    humanise,
    level_text,
    option_text,
    read_state,
    render_state,
    statement,
)
from vigia.errors import QuotaExceeded
from vigia.kit import model_work
from vigia.llm.tokens import count_tokens
from vigia.workspaces.limits import decide_quota


def threshold(
    question: Question, request_min: float | None, calibration: Calibration, learned: bool = False
) -> float:
    """The question's ``min_confidence``, else the request's, else the calibrated default
    of its type (zero-shot, or with examples when the answer came from them)."""
    if question.min_confidence is not None:
        return question.min_confidence
    if request_min is not None:
        return request_min
    defaults = (
        calibration.default_min_confidence_examples
        if learned
        else calibration.default_min_confidence
    )
    return defaults[question.type]


def to_answer(outcome: Outcome, min_confidence: float) -> Answer:
    """The wire answer: rounded figures, and ``abstain`` judged on the figure shown.

    A meaningless state always abstains, whatever the threshold. A scale's ``answer`` is
    its median level (where the cumulative probability reaches one half).
    """
    probabilities = outcome.probabilities
    shown_confidence = round(scoring.confidence(probabilities), 4)
    abstain = outcome.meaningless or shown_confidence < min_confidence
    plan = outcome.plan
    if plan.kind == "binary":
        yes = round(float(probabilities[0]), 4)
        return Answer(
            type="binary",
            answer=yes >= 0.5,
            probability=yes,
            confidence=shown_confidence,
            abstain=abstain,
        )
    shown = {key: round(float(p), 4) for key, p in zip(plan.keys, probabilities, strict=True)}
    value = None
    if plan.kind == "scale":
        value = round(float(np.dot(probabilities, np.arange(len(probabilities)))), 3)
        best = plan.keys[scoring.median_index(probabilities)]
    else:
        best = plan.keys[int(np.argmax(probabilities))]
    return Answer(
        type=plan.kind,
        answer=best,
        value=value,
        probabilities=shown,
        confidence=shown_confidence,
        abstain=abstain,
    )


def request_tokens(request: DecideRequest) -> int:
    """Tokens read for a request: the state once, then every question's texts and examples."""
    total = count_tokens(render_state(request.state))
    for key, question in request.questions.items():
        total += count_tokens(key) + count_tokens(question.ask)
        for option, description in (question.options or {}).items():
            total += count_tokens(option) + count_tokens(description or "")
        total += sum(count_tokens(level) for level in question.levels or [])
        for example in question.examples or []:
            total += count_tokens(render_state(example.state)) + count_tokens(str(example.answer))
    return total


def _refuse(tokens: int, used: int, quota: int) -> QuotaExceeded:
    return QuotaExceeded(
        f"monthly decide quota exceeded: this request needs {tokens} tokens, "
        f"{used} of {quota} are used this month"
    )


def charge_quota(session: Session, workspace_id: str, tokens: int) -> tuple[int, int]:
    """Counts ``tokens`` against this month's quota; (tokens this month, quota) or 429."""
    quota = decide_quota(session, workspace_id)
    month = repository.current_month()
    total = repository.charge(session, workspace_id, month, tokens, quota)
    if total is None:
        raise _refuse(tokens, repository.used(session, workspace_id, month), quota)
    return total, quota


def precheck_quota(session: Session, workspace_id: str, tokens: int) -> None:
    """Refuses early (without running the model) a request that cannot fit this month."""
    quota = decide_quota(session, workspace_id)
    used = repository.used(session, workspace_id, repository.current_month())
    if used + tokens > quota:
        raise _refuse(tokens, used, quota)


def decide(
    session: Session, workspace_id: str, request: DecideRequest, encoder: TextEncoder | None = None
) -> DecideResponse:
    """Answers every question of ``request`` and counts its tokens against the quota (413
    first when it is over the cost budget, ``cost``)."""
    calibration = get_calibration()
    plans = [plan_question(q) for q in request.questions.values()]
    cost.check_budget(read_state(request.state), plans)
    tokens = request_tokens(request)
    precheck_quota(session, workspace_id, tokens)
    started = time.perf_counter()
    outcomes = model_work.run(run_model, request.state, plans, encoder, calibration)
    ms = round((time.perf_counter() - started) * 1000, 1)
    answers = {
        key: to_answer(
            outcome, threshold(question, request.min_confidence, calibration, outcome.learned)
        )
        for (key, question), outcome in zip(request.questions.items(), outcomes, strict=True)
    }
    month_total, quota = charge_quota(session, workspace_id, tokens)
    return DecideResponse(
        model=calibration.model,
        answers=answers,
        ms=ms,
        usage=Usage(tokens=tokens, tokens_este_mes=month_total, cuota_mensual=quota),
    )


def plan_systemone(key: str, question: SystemOneQuestion) -> Plan:
    """A systemone question as a decide plan: ``noul`` → binary, ``score`` → scale."""
    ask = render_state(question.instructions) if question.instructions else humanise(key)
    criteria = question.criteria
    pairs = (
        list(criteria.items())
        if isinstance(criteria, dict)
        else [(c, None) for c in criteria or []]
    )
    if question.type == "noul":
        return Plan("binary", ["yes"], [statement(ask)], ask=ask)
    if question.type == "choice":
        return Plan("choice", [k for k, _ in pairs], [option_text(k, d) for k, d in pairs])
    texts = [level_text(ask, option_text(k, d)) for k, d in pairs]
    return Plan("scale", [k for k, _ in pairs], texts)


def systemone_tokens(request: SystemOneRequest) -> int:
    """Tokens read for a systemone request."""
    total = count_tokens(render_state(request.state))
    for key, question in request.questions.items():
        total += count_tokens(key)
        if question.instructions is not None:
            total += count_tokens(render_state(question.instructions))
        criteria = question.criteria or []
        items = criteria.items() if isinstance(criteria, dict) else ((c, None) for c in criteria)
        total += sum(count_tokens(k) + count_tokens(d or "") for k, d in items)
    return total


def to_systemone(outcome: Outcome) -> SystemOneAnswer:
    """The systemone wire answer (no abstention)."""
    plan, probabilities = outcome.plan, outcome.probabilities
    if plan.kind == "binary":
        yes = round(float(probabilities[0]), 4)
        return SystemOneAnswer(type="noul", noul=yes >= 0.5, probability=yes)
    shown = {k: round(float(p), 4) for k, p in zip(plan.keys, probabilities, strict=True)}
    if plan.kind == "choice":
        best = plan.keys[int(np.argmax(probabilities))]
        return SystemOneAnswer(type="choice", choice=best, probabilities=shown)
    score = round(float(np.dot(probabilities, np.arange(len(probabilities)))), 3)
    legend = {k: float(i) for i, k in enumerate(plan.keys)}
    return SystemOneAnswer(type="score", score=score, legend=legend, probabilities=shown)


def systemone(
    session: Session,
    workspace_id: str,
    request: SystemOneRequest,
    encoder: TextEncoder | None = None,
) -> SystemOneResponse:
    """Answers a systemone request with the same model; tokens count against the same quota."""
    calibration = get_calibration()
    plans = [plan_systemone(k, q) for k, q in request.questions.items()]
    cost.check_budget(read_state(request.state), plans)
    tokens = systemone_tokens(request)
    precheck_quota(session, workspace_id, tokens)
    started = time.perf_counter()
    outcomes = model_work.run(run_model, request.state, plans, encoder, calibration)
    ms = round((time.perf_counter() - started) * 1000, 1)
    charge_quota(session, workspace_id, tokens)
    answers = {k: to_systemone(o) for k, o in zip(request.questions, outcomes, strict=True)}
    return SystemOneResponse(
        model=calibration.model, answers=answers, ms=ms, usage=SystemOneUsage(input_tokens=tokens)
    )
