"""The agent configuration form: its fields to an ``AgentPatch`` and back, the limits and
choices of each field (read from the models), and where each validation error is shown."""

from __future__ import annotations

import json
from typing import Any, get_args

from pydantic import ValidationError
from starlette.datastructures import FormData

from vigia.agents.schemas import AgentConfig, AgentPatch, Replies
from vigia.console.field_errors import FieldErrors, Loc, field_errors
from vigia.console.form_limits import Bounds, bounds, choices
from vigia.console.form_values import FormValues, typed
from vigia.console.responses import number, text
from vigia.guardrails.config import GuardrailsConfig, Mode
from vigia.llm.settings import ModelSettings

GUARDRAILS = tuple(
    name
    for name, info in GuardrailsConfig.model_fields.items()
    if get_args(info.annotation) == get_args(Mode)
)
"""The guardrails with a mode (``block``, ``log``, ``off``), in the model's order."""
MODES = choices(GuardrailsConfig, "injection")
REPLIES = tuple(Replies.model_fields)
CHOICES: dict[str, tuple[str, ...]] = {
    "language": choices(AgentConfig, "language"),
    "model_provider": choices(ModelSettings, "provider"),
    "grounding_judge": choices(GuardrailsConfig, "grounding_judge"),
    "injection_sensitivity": choices(GuardrailsConfig, "injection_sensitivity"),
    "handoff_on_request": ("on", "off"),
}
"""The options of each select of the form."""

_MODEL_FIELDS = ("name", "base_url", "path", "api_key_env", "temperature", "max_tokens")
LIMITS: dict[str, Bounds] = {
    **{name: bounds(AgentConfig, name) for name in ("name", "instructions", "memory_turns")},
    **{name: bounds(AgentConfig, name) for name in ("top_k", "tool_steps")},
    **{f"model_{name}": bounds(ModelSettings, name) for name in _MODEL_FIELDS},
    "max_message_chars": bounds(GuardrailsConfig, "max_message_chars"),
    **{f"reply_{name}": bounds(Replies, name) for name in REPLIES},
}
"""The ``maxlength``/``min``/``max`` of each input, as the models check them."""

FIELDS: dict[Loc, str] = {
    **{("model", name): f"model_{name}" for name in (*_MODEL_FIELDS, "provider")},
    ("model", "api_key_secret"): "model_api_key_secret",
    ("model",): "model_provider",
    **{("guardrails", name): f"guardrail_{name}" for name in GUARDRAILS},
    **{("guardrails", name): name for name in ("max_message_chars", "grounding_judge")},
    ("guardrails", "injection_sensitivity"): "injection_sensitivity",
    ("guardrails", "blocked_topics"): "blocked_topics",
    **{("replies", name): f"reply_{name}" for name in REPLIES},
}
"""The form field each location of ``AgentPatch`` comes from (others: its first part)."""
OVERRIDES: dict[tuple[str, str], str] = {
    **{("tools", kind): "invalid.tools_json" for kind in ("list_type", "model_type", "dict_type")},
    ("tools", "url"): "invalid.tool_url",
    ("tools", "parameters"): "invalid.tool_parameters",
    ("tools", "headers"): "invalid.tool_header",
    ("tools", ""): "invalid.tool_names",
    ("model_provider", ""): "invalid.local_model",
}


def blocked_topics(lines: str) -> list[dict[str, str]]:
    """``name: description`` per line (the description is optional)."""
    topics = []
    for line in lines.splitlines():
        name, _, description = line.partition(":")
        if name.strip():
            topics.append({"name": name.strip(), "description": description.strip()})
    return topics


def topics_text(config: AgentConfig) -> str:
    """The blocked topics as the form's textarea shows them."""
    return "\n".join(
        f"{t.name}: {t.description}" if t.description else t.name
        for t in config.guardrails.blocked_topics
    )


def tools_text(config: AgentConfig) -> str:
    """The agent's HTTP tools as the form's JSON textarea shows them."""
    tools = [tool.model_dump(mode="json", exclude_defaults=True) for tool in config.tools]
    return json.dumps(tools, indent=2, ensure_ascii=False) if tools else ""


def values_of(config: AgentConfig) -> FormValues:
    """The form's inputs for ``config`` (the saved draft)."""
    model = config.model
    values = FormValues(
        name=config.name,
        instructions=config.instructions,
        language=config.language,
        memory_turns=config.memory_turns,
        top_k=config.top_k,
        tool_steps=config.tool_steps,
        handoff_on_request="on" if config.handoff_on_request else "off",
        model_provider=model.provider,
        model_api_key_secret=model.api_key_secret or "",
        max_message_chars=config.guardrails.max_message_chars,
        grounding_judge=config.guardrails.grounding_judge,
        injection_sensitivity=config.guardrails.injection_sensitivity,
        blocked_topics=topics_text(config),
        knowledge_bases=list(config.knowledge_bases),
        tools=tools_text(config),
    )
    for name in _MODEL_FIELDS:
        value = getattr(model, name)
        values[f"model_{name}"] = "" if value is None else value
    values.update({f"guardrail_{g}": getattr(config.guardrails, g) for g in GUARDRAILS})
    values.update({f"reply_{r}": getattr(config.replies, r) for r in REPLIES})
    return values


def values_from(form: FormData) -> FormValues:
    """The form's inputs as they were posted (shown again when they do not validate)."""
    return typed(form, lists=("knowledge_bases",))


def _tools(form: FormData) -> object:
    """The tools textarea as JSON; text that is no JSON goes on as text, so validation
    refuses it under the ``tools`` field."""
    raw = text(form, "tools").strip()
    if not raw:
        return []
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _given(value: object, default: object) -> object:
    """``value``, or ``default`` for an empty field (0 is a value)."""
    return default if value is None else value


def _handoff(form: FormData) -> bool | None:
    value = text(form, "handoff_on_request")
    return {"on": True, "off": False}.get(value)


def patch_from(form: FormData) -> AgentPatch:
    """The draft edit the form describes; raises ``ValidationError`` for bad values."""
    defaults = ModelSettings()
    model = {
        "provider": text(form, "model_provider", "embedded"),
        "name": text(form, "model_name").strip() or "embedded",
        "base_url": text(form, "model_base_url").strip() or None,
        "path": text(form, "model_path").strip() or None,
        "api_key_env": text(form, "model_api_key_env").strip() or None,
        "api_key_secret": text(form, "model_api_key_secret").strip() or None,
        "temperature": _given(number(form, "model_temperature", float), defaults.temperature),
        "max_tokens": _given(number(form, "model_max_tokens"), defaults.max_tokens),
    }
    guardrails: dict[str, Any] = {g: text(form, f"guardrail_{g}", "block") for g in GUARDRAILS}
    guardrails.update(
        injection_sensitivity=text(form, "injection_sensitivity", "medium"),
        max_message_chars=_given(
            number(form, "max_message_chars"), GuardrailsConfig().max_message_chars
        ),
        grounding_judge=text(form, "grounding_judge", "embedded"),
        blocked_topics=blocked_topics(text(form, "blocked_topics")),
    )
    return AgentPatch.model_validate(
        {
            "name": text(form, "name"),
            "instructions": text(form, "instructions"),
            "language": text(form, "language", "es"),
            "memory_turns": number(form, "memory_turns"),
            "top_k": number(form, "top_k"),
            "tool_steps": number(form, "tool_steps"),
            "handoff_on_request": _handoff(form),
            "model": model,
            "guardrails": guardrails,
            "replies": {r: text(form, f"reply_{r}") for r in REPLIES},
            "knowledge_bases": [v for v in form.getlist("knowledge_bases") if isinstance(v, str)],
            "tools": _tools(form),
        }
    )


def form_errors(error: ValidationError) -> FieldErrors:
    """The problems of ``error`` under the form's fields."""
    return field_errors(error, FIELDS, OVERRIDES)
