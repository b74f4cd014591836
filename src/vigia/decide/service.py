"""Decisions: answers with probabilities and abstention, the monthly token quota, systemone."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from sqlalchemy.orm import Session

from vigia.decide import fewshot, repository, scoring
from vigia.decide.calibration import Calibration, get_calibration
from vigia.decide.encoder import TextEncoder, get_text_encoder
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
from vigia.decide.texts import humanise, level_text, option_text, render_state, statement
from vigia.errors import QuotaExceeded
from vigia.llm.tokens import count_tokens
from vigia.workspaces.limits import decide_quota

Kind = Literal["choice", "scale", "binary"]


@dataclass
class Plan:
    """One question as the model sees it: candidate keys and texts, labelled examples."""

    kind: Kind
    keys: list[str]
    texts: list[str]
    examples: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """The model's reading of one question: probabilities over its candidates."""

    plan: Plan
    probabilities: NDArray[np.float64]


def plan_question(question: Question) -> Plan:
    """The candidates and examples of a ``/v1/decide`` question."""
    examples = question.examples or []
    if question.type == "choice":
        options = question.options or {}
        keys = list(options)
        texts = [option_text(key, description) for key, description in options.items()]
    elif question.type == "scale":
        keys = list(question.levels or [])
        texts = [level_text(question.ask, level) for level in keys]
    else:
        keys, texts = ["yes"], [statement(question.ask)]
    if question.type == "binary":
        labelled = [(render_state(e.state), 0 if e.answer is True else 1) for e in examples]
    else:
        labelled = [(render_state(e.state), keys.index(str(e.answer))) for e in examples]
    return Plan(question.type, keys, texts, labelled)


def learns(plan: Plan) -> bool:
    """Whether a plan is decided by a classifier fitted on its examples.

    Choice and scale: any example. Binary: examples of both answers (else the zero-shot
    rule applies).
    """
    labels = {label for _, label in plan.examples}
    return len(labels) >= 2 if plan.kind == "binary" else bool(labels)


def classifier_for(
    plan: Plan, encoder: TextEncoder, calibration: Calibration
) -> fewshot.Classifier:
    """The plan's classifier: from the cache, else fitted on its texts and examples."""
    weights = calibration.encoders_examples
    classes = 2 if plan.kind == "binary" else len(plan.keys)
    key = fewshot.fingerprint(
        weights,
        calibration.l2_examples,
        calibration.text_weight,
        classes,
        plan.texts,
        plan.examples,
    )
    classifier = fewshot.CLASSIFIERS.get(key)
    if classifier is None:
        texts = [*plan.texts, *(text for text, _ in plan.examples)]
        labels = [*range(len(plan.texts)), *(label for _, label in plan.examples)]
        row_weights = [calibration.text_weight] * len(plan.texts) + [1.0] * len(plan.examples)
        classifier = fewshot.fit(
            encoder.embed(texts, list(weights)),
            np.array(labels, dtype=np.int64),
            np.array(row_weights),
            classes,
            weights,
            calibration.l2_examples,
        )
        fewshot.CLASSIFIERS.put(key, classifier)
    return classifier


def run_model(
    state: str,
    plans: list[Plan],
    encoder: TextEncoder | None = None,
    calibration: Calibration | None = None,
) -> list[Outcome]:
    """Probabilities for every plan (binary: ``[yes, no]``).

    Zero-shot plans read the state with the zero-shot encoders only; plans with examples
    (and only then) also with the examples encoders.
    """
    calibration = calibration or get_calibration()
    learning = [learns(plan) for plan in plans]
    names = list(calibration.encoders)
    if any(learning):
        names += [n for n in calibration.encoders_examples if n not in names]
    encoder = encoder or get_text_encoder(tuple(names))
    zero_shot = list(calibration.encoders)
    state_vectors = encoder.embed([state], names)
    outcomes = []
    for plan, learned in zip(plans, learning, strict=True):
        classifier = classifier_for(plan, encoder, calibration) if learned else None
        candidates = {} if learned else encoder.embed(plan.texts, zero_shot)
        if plan.kind == "binary":
            yes = scoring.yes_probability(state_vectors, candidates, calibration, classifier)
            probabilities = np.array([yes, 1.0 - yes])
        else:
            probabilities = scoring.distribution(state_vectors, candidates, calibration, classifier)
        outcomes.append(Outcome(plan, probabilities))
    return outcomes


def threshold(question: Question, request_min: float | None, calibration: Calibration) -> float:
    """The question's ``min_confidence``, else the request's, else the calibrated default."""
    if question.min_confidence is not None:
        return question.min_confidence
    if request_min is not None:
        return request_min
    return calibration.default_min_confidence[question.type]


def to_answer(outcome: Outcome, min_confidence: float) -> Answer:
    """The wire answer: rounded figures, and ``abstain`` judged on the figure shown."""
    probabilities = outcome.probabilities
    shown_confidence = round(scoring.confidence(probabilities), 4)
    abstain = shown_confidence < min_confidence
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
    best = plan.keys[int(np.argmax(probabilities))]
    value = None
    if plan.kind == "scale":
        value = round(float(np.dot(probabilities, np.arange(len(probabilities)))), 3)
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
    """Answers every question of ``request`` and counts its tokens against the quota."""
    calibration = get_calibration()
    tokens = request_tokens(request)
    precheck_quota(session, workspace_id, tokens)
    started = time.perf_counter()
    plans = [plan_question(q) for q in request.questions.values()]
    outcomes = run_model(render_state(request.state), plans, encoder, calibration)
    ms = round((time.perf_counter() - started) * 1000, 1)
    answers = {
        key: to_answer(outcome, threshold(question, request.min_confidence, calibration))
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
        return Plan("binary", ["yes"], [statement(ask)])
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
    tokens = systemone_tokens(request)
    precheck_quota(session, workspace_id, tokens)
    started = time.perf_counter()
    plans = [plan_systemone(k, q) for k, q in request.questions.items()]
    outcomes = run_model(render_state(request.state), plans, encoder, calibration)
    ms = round((time.perf_counter() - started) * 1000, 1)
    charge_quota(session, workspace_id, tokens)
    answers = {k: to_systemone(o) for k, o in zip(request.questions, outcomes, strict=True)}
    return SystemOneResponse(
        model=calibration.model, answers=answers, ms=ms, usage=SystemOneUsage(input_tokens=tokens)
    )
