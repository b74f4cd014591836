"""Optional prose from an OpenAI-compatible upstream, written from the lens's facts only.

Off unless ``VIGIA_WORLDS_LLM_BASE_URL`` and ``VIGIA_WORLDS_LLM_MODEL`` are set (key in the
variable named by ``VIGIA_WORLDS_LLM_API_KEY_ENV``, never a ``VIGIA_*`` one: the
server's own settings are not sent upstream). Any upstream failure falls back to the
embedded answer, which states the same facts with the same citations.
"""

from __future__ import annotations

import logging
import os

from pydantic_settings import BaseSettings, SettingsConfigDict

from vigia.errors import VigiaError
from vigia.llm.metered import UsageLedger, metered
from vigia.llm.protocol import ModelRequest, Passage, TextChunk
from vigia.worlds.answer.lenses.common import Answer

log = logging.getLogger(__name__)
INSTRUCTIONS = (
    "You explain a legacy code base to an analyst. Rewrite the facts below as a short, clear "
    "answer to the question, in the question's language. Use only these facts, keep every "
    "file:line citation, code name and quoted line exactly as written, and add nothing that "
    "the facts do not say."
)


class ProseSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="VIGIA_WORLDS_LLM_")

    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None


def rewrite(question: str, answer: Answer, ledger: UsageLedger | None = None) -> str | None:
    """Upstream prose for ``answer``, or ``None`` (not configured, no facts, or a failure).

    The call is metered into ``ledger`` (the turn's run: its tokens, cost and budget)."""
    settings = ProseSettings()
    if not settings.base_url or not settings.model or not answer.sentences:
        return None
    from vigia.llm.access import UpstreamAccess, env_key_refusal
    from vigia.llm.registry import model_for
    from vigia.llm.settings import ModelSettings

    variable = settings.api_key_env
    refusal = env_key_refusal(variable, None) if variable else None
    key = os.environ.get(variable) if variable and refusal is None else None
    choice = ModelSettings(
        provider="openai", name=settings.model, base_url=settings.base_url
    ).with_access(UpstreamAccess(api_key=key, hosts=None, refused=refusal))
    passages = [
        Passage(text=s, document_id=str(i), document="facts", score=1.0)
        for i, s in enumerate(answer.sentences)
    ]
    try:
        model = metered(model_for(choice), ledger, "worlds_prose")
        request = ModelRequest(
            instructions=INSTRUCTIONS,
            message=question,
            passages=passages,
            settings=choice,
            language=answer.lang,
            incremental=False,
        )
        text = "".join(e.text for e in model.stream(request) if isinstance(e, TextChunk))
    except VigiaError as exc:
        log.warning("worlds prose upstream failed (%s); using the embedded answer", exc.detail)
        return None
    return str(text).strip() or None
