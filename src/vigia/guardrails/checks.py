"""The guardrail checks on a message (input) and on reply sentences (output).

Shared by the engine's hooks and the output-review API; tool results are checked for
injection too (``check_tool_result``). Each check runs in its configured
mode: ``off`` skips it, ``block`` makes a failing verdict blocking, ``log`` only records it.
Verdict names are the config's field names: ``length``, ``injection``, ``topics``,
``grounding``, ``personal_data``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from vigia.guardrails.config import GuardrailsConfig, Mode
from vigia.guardrails.grounding import ClaimSupport, SupportIndex, assess_many, build_index
from vigia.guardrails.injection import detect_injection
from vigia.guardrails.judge import judge_available, judge_claims
from vigia.guardrails.pii import Finding, find_personal_data, redact
from vigia.guardrails.topics import find_topics
from vigia.guardrails.verdict import Detail, Severity, Verdict
from vigia.llm.metered import UsageLedger
from vigia.llm.settings import ModelSettings
from vigia.observability import report


class GuardedAgent(Protocol):
    """What the output checks read of an agent's configuration."""

    @property
    def guardrails(self) -> GuardrailsConfig: ...

    @property
    def model(self) -> ModelSettings: ...


def verdict(
    name: str,
    mode: Mode,
    fired: bool,
    severity: Severity = "grave",
    reason: str = "",
    detail: Detail | None = None,
) -> Verdict:
    """A verdict for check ``name`` run in ``mode`` (a fired one is counted)."""
    if fired:
        report.guardrail_fired(name, mode)
    return Verdict(
        name=name,
        passed=not fired,
        blocking=fired and mode == "block",
        severity=severity,
        reason=reason if fired else "",
        detail=detail if detail is not None else {},
    )


def check_message(message: str, config: GuardrailsConfig) -> list[Verdict]:
    """Input guardrails: length, prompt injection and blocked topics."""
    verdicts = []
    if config.length != "off":
        too_long = len(message) > config.max_message_chars
        verdicts.append(
            verdict(
                "length",
                config.length,
                too_long,
                "leve",
                f"message longer than {config.max_message_chars} characters",
                {"chars": len(message), "max": config.max_message_chars},
            )
        )
        if too_long and config.length == "block":
            return verdicts
    if config.injection != "off":
        found = detect_injection(message)
        verdicts.append(
            verdict(
                "injection",
                config.injection,
                found.fired(config.injection_sensitivity),
                "grave",
                "the message tries to override the agent's instructions",
                {
                    "score": round(found.score, 4),
                    "sensitivity": config.injection_sensitivity,
                    "families": found.families,
                },
            )
        )
    if config.topics != "off" and config.blocked_topics:
        hits = find_topics([message], list(config.blocked_topics))[0]
        verdicts.append(
            verdict(
                "topics",
                config.topics,
                bool(hits),
                "grave",
                f"blocked topic: {hits[0].topic}" if hits else "",
                {"topics": [h.topic for h in hits]},
            )
        )
    return verdicts


TOOL_PIECE_CHARS = 2000
MAX_TOOL_PIECES = 16
MIN_PROSE_CHARS = 24


def _strings(value: Any) -> list[str]:
    """The string leaves of decoded JSON, in document order (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def tool_result_pieces(text: str) -> list[str]:
    """The parts of a tool result that could speak to the model: the prose strings of a JSON
    answer (or the whole text), cut into pieces the detector reads whole."""
    try:
        strings = _strings(json.loads(text))
    except ValueError:
        strings = [text]
    pieces = []
    for string in strings:
        if len(string.strip()) < MIN_PROSE_CHARS and len(strings) > 1:
            continue
        for start in range(0, len(string), TOOL_PIECE_CHARS):
            pieces.append(string[start : start + TOOL_PIECE_CHARS])
    return pieces[:MAX_TOOL_PIECES]


def check_tool_result(text: str, config: GuardrailsConfig) -> Verdict:
    """The injection check on a tool's result (indirect prompt injection): every piece of it
    is scanned; the verdict blocks (the engine withholds the result) in ``block`` mode."""
    if config.injection == "off":
        return Verdict(name="injection")
    found = [detect_injection(piece) for piece in tool_result_pieces(text)]
    worst = max(found, key=lambda f: f.score, default=None)
    fired = [f for f in found if f.fired(config.injection_sensitivity)]
    return verdict(
        "injection",
        config.injection,
        bool(fired),
        "grave",
        "a tool result tries to give the assistant instructions",
        {
            "score": round(worst.score, 4) if worst else 0.0,
            "families": sorted({name for f in fired for name in f.families}),
        },
    )


@dataclass(frozen=True)
class OutputContext:
    """What a reply may rely on, and what it may repeat without leaking anything."""

    instructions: str = ""
    sources: tuple[str, ...] = ()
    message: str = ""
    replies: tuple[str, ...] = ()
    recent: str = ""
    ledger: UsageLedger | None = field(default=None, compare=False)
    """The run's ledger: the grounding judge's call is metered into it."""

    def index(self) -> SupportIndex:
        """The grounding index: instructions and sources support claims; the contact's
        words only lend their figures."""
        return build_index(
            (self.instructions, *self.sources), self.replies, (self.message, self.recent)
        )


def _canonical(value: str) -> str:
    return re.sub(r"[^0-9a-z@.]", "", value.lower())


def check_personal_data(sentences: list[str], mode: Mode, context: OutputContext) -> Verdict:
    """Personal data in the reply that neither the instructions nor the contact supplied.

    The sentences are read joined, so a value split across two of them (``+54 9 11.``
    then ``4567-8901``) is found whole.
    """
    found = leaked_personal_data(" ".join(sentences), context)
    kinds = list(dict.fromkeys(f.kind for f in found))
    leaking, offset = [], 0
    for sentence in sentences:
        end = offset + len(sentence)
        if any(f.start < end and f.end > offset for f in found):
            leaking.append(sentence)
        offset = end + 1
    return verdict(
        "personal_data",
        mode,
        bool(kinds),
        "grave",
        f"personal data in the reply: {', '.join(kinds)}",
        {"kinds": kinds, "sentences": leaking},
    )


def leaked_personal_data(text: str, context: OutputContext) -> list[Finding]:
    """The personal data in ``text`` that the instructions, the contact's message and the
    recent conversation do not already contain (the shop's phone, the contact's e-mail)."""
    supplied = " ".join((context.instructions, context.message, context.recent))
    allowed, digits = _canonical(supplied), re.sub(r"\D", "", supplied)

    def known(finding: Finding) -> bool:
        if finding.kind == "email":
            return _canonical(finding.value) in allowed
        return re.sub(r"\D", "", finding.value) in digits

    return [f for f in find_personal_data(text) if not known(f)]


def redact_personal_data(text: str, context: OutputContext) -> str:
    """``text`` with the personal data a reply could not show replaced by ``[kind]``."""
    return redact(text, leaked_personal_data(text, context))


def check_grounding(
    sentences: list[str],
    config: GuardedAgent,
    context: OutputContext,
    index: SupportIndex | None = None,
) -> Verdict:
    """Sentences stating what neither the instructions nor the sources say."""
    guard = config.guardrails
    index = index or context.index()
    claims = assess_many(sentences, index)
    judged = False
    if guard.grounding_judge == "llm" and judge_available(config.model):
        doubtful = [c for c in claims if c.status in ("unsupported", "uncertain")]
        references = "\n\n".join(t for t in (context.instructions, *context.sources) if t)
        answers = judge_claims(
            config.model, [c.sentence for c in doubtful], references, context.ledger
        )
        if answers is not None:
            judged = True
            verdicts_by_sentence = dict(zip([id(c) for c in doubtful], answers, strict=True))
            claims = [
                _rejudge(c, verdicts_by_sentence[id(c)]) if id(c) in verdicts_by_sentence else c
                for c in claims
            ]
    unsupported = [c for c in claims if c.status == "unsupported"]
    uncertain = [c for c in claims if c.status == "uncertain"]
    grave = len(unsupported) >= 2 or any(c.concrete for c in unsupported)
    return verdict(
        "grounding",
        guard.grounding,
        bool(unsupported),
        "grave" if grave else "leve",
        "the reply states something that is not in the instructions or sources",
        {
            "unsupported": [c.sentence for c in unsupported],
            "uncertain": [c.sentence for c in uncertain],
            "reasons": [c.reason for c in unsupported],
            "judge": "llm" if judged else "embedded",
        },
    )


def _rejudge(claim: ClaimSupport, supported: bool) -> ClaimSupport:
    if supported:
        return ClaimSupport(claim.sentence, "supported", claim.score, claim.concrete)
    reason = "the judge found no support in the sources"
    return ClaimSupport(claim.sentence, "unsupported", claim.score, claim.concrete, reason)


def check_reply(
    sentences: list[str],
    config: GuardedAgent,
    context: OutputContext,
    index: SupportIndex | None = None,
) -> list[Verdict]:
    """Output guardrails on reply sentences: personal data, blocked topics, grounding."""
    guard = config.guardrails
    verdicts = []
    if guard.personal_data != "off":
        verdicts.append(check_personal_data(sentences, guard.personal_data, context))
    if guard.topics != "off" and guard.blocked_topics:
        per_sentence = find_topics(sentences, list(guard.blocked_topics))
        names = list(dict.fromkeys(h.topic for hits in per_sentence for h in hits))
        verdicts.append(
            verdict(
                "topics",
                guard.topics,
                bool(names),
                "grave",
                f"blocked topic: {', '.join(names)}",
                {"topics": names},
            )
        )
    if guard.grounding != "off":
        verdicts.append(check_grounding(sentences, config, context, index))
    return verdicts


def output_guardrails_active(config: GuardrailsConfig) -> bool:
    """Whether any output check would run."""
    return (
        config.personal_data != "off"
        or config.grounding != "off"
        or (config.topics != "off" and bool(config.blocked_topics))
    )
