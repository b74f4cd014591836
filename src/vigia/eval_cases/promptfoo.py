"""Builds a ``promptfooconfig.yaml`` that runs an agent's cases with the real promptfoo.

The provider is promptfoo's OpenAI chat provider pointed at Vigia's OpenAI-compatible
surface; the key is read from ``VIGIA_API_KEY`` and never written. promptfoo sees only the
reply text, so status and citation assertions are mapped to the texts that carry them
(docs/evals.md lists each mapping and where it is weaker than ``vigia eval run``).
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from sqlalchemy.orm import Session

from vigia.agents.schemas import Replies
from vigia.agents.service import get_agent, resolve
from vigia.errors import Invalid
from vigia.eval_cases.models import EvalCase
from vigia.eval_cases.schemas import CaseAssertions
from vigia.eval_cases.service import assertions_of, dialogue_of, list_cases, require_runnable
from vigia.kit.turn_status import TurnStatus
from vigia.workspaces.service import find_workspace

API_KEY_ENV = "VIGIA_API_KEY"
PROMPT = "{{ messages | dump }}"
"""The case's dialogue as an OpenAI messages array, which the provider sends as is."""
CITATION_MARKER = r"\[\d{1,3}\]"
"""A citation in the reply text: the engine keeps a ``[n]`` marker only for a cited passage."""
_TEMPLATE_SYNTAX = ("{{", "{%", "{#")
_SPECIAL_PREFIXES = ("file://", "package:")


def literal(text: str) -> str:
    """``text`` as promptfoo will read it literally (it renders assertion values as Nunjucks)."""
    if any(s in text for s in _TEMPLATE_SYNTAX) or text.startswith(_SPECIAL_PREFIXES):
        return "{% raw %}" + text + "{% endraw %}"
    return text


def _status_asserts(status: TurnStatus, replies: Replies) -> list[dict[str, Any]]:
    if status in ("budget_exceeded", "error"):
        raise Invalid(
            f"a case expecting status {status!r} cannot be exported: promptfoo sees only the "
            "reply text, which does not carry it (run it with vigia eval run)"
        )
    if status == "tool_limit" and replies.no_answer:
        # The tool steps ran out: the reply ends with the no-answer text.
        return [{"type": "icontains", "value": literal(replies.no_answer)}]
    blocked_texts = [t for t in (replies.blocked, replies.safe_output) if t]
    if status == "blocked" and blocked_texts:
        return [{"type": "icontains-any", "value": [literal(t) for t in blocked_texts]}]
    if status == "ok":
        return [{"type": "not-icontains", "value": literal(t)} for t in blocked_texts]
    if status == "handoff" and replies.holding:
        # A fresh conversation is handed off only when the customer asks for a person.
        return [{"type": "icontains", "value": literal(replies.holding)}]
    # A block with no configured texts (or a handoff or tool limit with no text): an empty reply.
    return [{"type": "equals", "value": ""}]


def asserts(assertions: CaseAssertions, replies: Replies) -> list[dict[str, Any]]:
    """promptfoo assertions equivalent to ``assertions`` on the reply text."""
    out: list[dict[str, Any]] = [
        {"type": "icontains", "value": literal(t)} for t in assertions.contains
    ]
    out += [{"type": "not-icontains", "value": literal(t)} for t in assertions.not_contains]
    if assertions.regex is not None:
        out.append({"type": "regex", "value": literal(assertions.regex)})
    if assertions.status is not None:
        out += _status_asserts(assertions.status, replies)
    if assertions.cites or assertions.cites_document is not None:
        out.append({"type": "regex", "value": CITATION_MARKER})
    if assertions.max_chars is not None:
        # Spread counts code points, as Python's len does (String.length counts UTF-16 units).
        out.append({"type": "javascript", "value": f"[...output].length <= {assertions.max_chars}"})
    return out


def _test(row: EvalCase, replies: Replies) -> dict[str, Any]:
    assertions = assertions_of(row)
    metadata: dict[str, Any] = {"vigia_case": row.id}
    if assertions.cites_document is not None:
        metadata["not_checked"] = f"which document is cited ({assertions.cites_document})"
    return {
        "description": row.name or _short(row.input),
        "vars": {"messages": [m.model_dump() for m in dialogue_of(row)]},
        "metadata": metadata,
        "assert": asserts(assertions, replies),
    }


def _short(text: str, limit: int = 80) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def build_config(
    slug: str, env: str, base_url: str, replies: Replies, cases: list[EvalCase]
) -> dict[str, Any]:
    """The promptfoo configuration as a mapping (``render`` writes it as YAML)."""
    return {
        "description": f"Vigia agent {slug} ({env})",
        "prompts": [{"raw": PROMPT, "label": "dialogue"}],
        "providers": [
            {
                "id": f"openai:chat:{slug}",
                "label": slug,
                "config": {"apiBaseUrl": base_url, "apiKeyEnvar": API_KEY_ENV},
            }
        ],
        "tests": [_test(row, replies) for row in cases],
    }


def render(config: dict[str, Any], workspace: str, env: str) -> str:
    """The YAML file, with a header saying which key to export before running it."""
    slug = config["providers"][0]["label"]
    header = (
        f"# promptfoo configuration for Vigia agent {json.dumps(slug)} "
        f"(workspace {json.dumps(workspace)}, env {env}), generated by Vigia.\n"
        f"# The key is read from {API_KEY_ENV}: export a {env} key of the workspace, then run\n"
        "#   promptfoo eval -c promptfooconfig.yaml --no-cache\n"
    )
    body: str = yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100)
    return header + body


def normalize_base_url(url: str) -> str:
    """The OpenAI base URL clients use (``…/v1``), without a trailing slash."""
    url = url.strip().rstrip("/")
    if (
        not url.startswith(("http://", "https://"))
        or len(url) > 500
        or any(c.isspace() for c in url)
    ):
        raise Invalid("base URL must be an http(s) URL such as http://127.0.0.1:8000/v1")
    return url


def export(session: Session, workspace: str, slug: str, env: str, base_url: str) -> tuple[str, int]:
    """The YAML file for the agent's cases against ``env``, and how many cases it holds."""
    ws = find_workspace(session, workspace)
    agent = get_agent(session, ws.id, slug)
    require_runnable(agent)
    replies = resolve(session, agent, env).config.replies
    cases = list_cases(session, agent.id)
    config = build_config(agent.slug, env, normalize_base_url(base_url), replies, cases)
    return render(config, ws.name, env), len(cases)
