"""The agent configuration form: its fields to an ``AgentPatch``, and the draft's diff."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData

from vigia.agents.schemas import AgentConfig, AgentPatch
from vigia.console.responses import number, text

GUARDRAILS = ("injection", "length", "topics", "grounding", "personal_data")
MODES = ("block", "log", "off")
REPLIES = ("no_answer", "blocked", "safe_output", "holding", "greeting")


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


def patch_from(form: FormData) -> AgentPatch:
    """The draft edit the form describes; raises ``ValidationError`` for bad values."""
    model = {
        "provider": text(form, "model_provider", "embedded"),
        "name": text(form, "model_name").strip() or "embedded",
        "base_url": text(form, "model_base_url").strip() or None,
        "api_key_env": text(form, "model_api_key_env").strip() or None,
        "api_key_secret": text(form, "model_api_key_secret").strip() or None,
        "temperature": number(form, "model_temperature", float) or 0.2,
        "max_tokens": number(form, "model_max_tokens") or 800,
    }
    guardrails: dict[str, Any] = {g: text(form, f"guardrail_{g}", "block") for g in GUARDRAILS}
    guardrails.update(
        max_message_chars=number(form, "max_message_chars") or 4000,
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
            "model": model,
            "guardrails": guardrails,
            "replies": {r: text(form, f"reply_{r}") for r in REPLIES},
            "knowledge_bases": [v for v in form.getlist("knowledge_bases") if isinstance(v, str)],
            "tools": _tools(form),
        }
    )


def problems(error: ValidationError) -> list[str]:
    """One line per invalid field."""
    return [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:10]]


@dataclass(frozen=True)
class DiffLine:
    kind: str
    """``add``, ``remove``, ``hunk`` or ``same``."""
    text: str


def draft_diff(published: AgentConfig | None, draft: AgentConfig) -> list[DiffLine]:
    """What publishing would change: a unified diff of the two configurations as JSON."""

    def lines(config: AgentConfig | None) -> list[str]:
        if config is None:
            return []
        return json.dumps(
            config.model_dump(mode="json"), indent=2, sort_keys=True, ensure_ascii=False
        ).splitlines()

    kinds = {"+": "add", "-": "remove", "@": "hunk"}
    diff = difflib.unified_diff(lines(published), lines(draft), lineterm="", n=2)
    return [
        DiffLine(kinds.get(line[:1], "same"), line)
        for line in diff
        if not line.startswith(("---", "+++"))
    ]
