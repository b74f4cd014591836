"""The guardrail stages the engine calls. Each returns the verdicts of the checks that ran."""

from __future__ import annotations

import threading
from collections import OrderedDict

from vigia.engine.turn import Turn
from vigia.guardrails.checks import (
    OutputContext,
    check_message,
    check_reply,
    configured_replies,
    output_guardrails_active,
)
from vigia.guardrails.grounding import SupportIndex
from vigia.guardrails.verdict import Verdict

_INDEXES: OrderedDict[str, SupportIndex] = OrderedDict()
_LOCK = threading.Lock()
_KEEP = 64


def check_input(turn: Turn) -> list[Verdict]:
    """Input guardrails on the user's message, before anything reaches the model."""
    return check_message(turn.message, turn.config.guardrails)


def _context(turn: Turn) -> OutputContext:
    return OutputContext(
        instructions=turn.config.instructions,
        sources=tuple(p.text for p in turn.passages),
        message=turn.message,
        replies=configured_replies(turn.config),
    )


def _index_for(turn: Turn, context: OutputContext) -> SupportIndex:
    """One support index per run, reused for every sentence of its reply."""
    with _LOCK:
        index = _INDEXES.get(turn.run_id)
        if index is not None:
            _INDEXES.move_to_end(turn.run_id)
            return index
    index = context.index()
    with _LOCK:
        _INDEXES[turn.run_id] = index
        while len(_INDEXES) > _KEEP:
            _INDEXES.popitem(last=False)
    return index


def check_output_sentence(turn: Turn, sentence: str, sent_before: str) -> list[Verdict]:
    """Output guardrails on one sentence of the reply, before it is sent."""
    if not sentence.strip() or not output_guardrails_active(turn.config.guardrails):
        return []
    context = _context(turn)
    index = _index_for(turn, context) if turn.config.guardrails.grounding != "off" else None
    return check_reply([sentence], turn.config, context, index)
