"""Whether the agent's model can answer the JSON a request's ``response_format`` asks for."""

from __future__ import annotations

from vigia.engine.turn import TurnRequest
from vigia.errors import VigiaError
from vigia.llm.settings import ModelSettings


def require_structured_support(request: TurnRequest, model: ModelSettings) -> None:
    """Refuses a structured request to the embedded model (it ignores ``response_format``
    and would answer prose that a client's ``parse()`` cannot read)."""
    if request.structured and model.provider == "embedded":
        kind = (request.response_format or {}).get("type")
        raise VigiaError(
            f"response_format '{kind}' needs an agent on an OpenAI-compatible model: this "
            "agent runs on the embedded model, which cannot produce structured output",
            status=400,
            code="structured_output_unsupported",
        )
