"""An LLM judge for grounding, for agents on a generative model (an OpenAI-compatible
upstream or a local GGUF file).

Opt-in per agent (``guardrails.grounding_judge = "llm"``). The embedded check runs first;
only the sentences it does not find clearly supported go to the judge, in one call. If the
upstream fails or answers something unreadable, the embedded result stands.
"""

from __future__ import annotations

import json
import re

from vigia.errors import VigiaError
from vigia.llm.metered import UsageLedger, metered
from vigia.llm.protocol import ModelRequest, TextChunk
from vigia.llm.registry import model_for
from vigia.llm.settings import ModelSettings

MAX_REFERENCE_CHARS = 24_000
JUDGE_INSTRUCTIONS = (
    "You check a customer-service reply against its reference texts. For each numbered "
    "statement decide whether the reference texts support it (the same facts, possibly in "
    "other words or another language). A statement that adds facts, figures, days, prices or "
    "promises not in the references is not supported. Answer only with JSON: "
    '{"verdicts": [{"n": 1, "supported": true}, ...]}'
)


def judge_available(choice: ModelSettings) -> bool:
    """The judge needs a generative model (an OpenAI-compatible upstream, or a local GGUF
    file): the embedded default cannot judge."""
    if choice.provider == "local":
        return bool(choice.path)
    return choice.provider == "openai" and bool(choice.base_url)


def judge_claims(
    choice: ModelSettings,
    claims: list[str],
    references: str,
    ledger: UsageLedger | None = None,
) -> list[bool] | None:
    """Whether each claim is supported, by the agent's model; None if it could not say.

    The call is metered into ``ledger`` (the run's: its tokens, cost and budget)."""
    if not claims:
        return []
    numbered = "\n".join(f"{n}. {c}" for n, c in enumerate(claims, start=1))
    message = f"Reference texts:\n{references[:MAX_REFERENCE_CHARS]}\n\nStatements:\n{numbered}"
    request = ModelRequest(
        instructions=JUDGE_INSTRUCTIONS,
        message=message,
        settings=choice.model_copy(
            update={"temperature": 0.0, "max_tokens": 40 + 20 * len(claims)}
        ),
    )
    try:
        model = metered(model_for(choice), ledger, "grounding_judge")
        text = "".join(e.text for e in model.stream(request) if isinstance(e, TextChunk))
    except VigiaError:
        return None
    return parse_verdicts(text, len(claims))


def parse_verdicts(text: str, count: int) -> list[bool] | None:
    """The judge's per-claim booleans from its JSON answer (code fences tolerated)."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        return None
    try:
        data = json.loads(match.group(0))
        items = {int(v["n"]): bool(v["supported"]) for v in data["verdicts"]}
    except (ValueError, KeyError, TypeError):
        return None
    if set(items) != set(range(1, count + 1)):
        return None
    return [items[n] for n in range(1, count + 1)]
