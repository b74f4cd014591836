"""The console's catalog: every key the templates ask for, literal or built from a
vocabulary, has a text in every language, and every run status has its label."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import get_args

from vigia.agents.schemas import AgentCreate
from vigia.console.agent_form import CHOICES, GUARDRAILS, MODES, REPLIES
from vigia.console.catalogue import LANGUAGES, MESSAGES, translator
from vigia.console.conversation_list import Status as ConversationFilter
from vigia.console.rendering import ENV
from vigia.console.users import REFUSALS, Done
from vigia.conversations.marks import MODERATIONS
from vigia.conversations.schemas import CHANNELS
from vigia.eval_cases.schemas import CaseAssertions, Env
from vigia.kit.turn_status import TURN_STATUSES
from vigia.knowledge.changes import Change
from vigia.knowledge.embedding import EMBEDDERS
from vigia.users.roles import ROLES
from vigia.workspaces.auth import SCOPES
from vigia.workspaces.schemas import BudgetUpdate

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "vigia" / "console" / "templates"
DYNAMIC: dict[str, tuple[str, ...]] = {
    "role.": ROLES,
    "kind.": get_args(AgentCreate.model_fields["kind"].annotation),
    "env.": get_args(Env),
    "guardrail.": GUARDRAILS,
    "mode.": MODES,
    "reply.": REPLIES,
    "status.": get_args(ConversationFilter),
    "channel.": CHANNELS,
    "moderation.": MODERATIONS,
    # stored message roles have no Literal: the ones the transcript shows
    "role_msg.": ("user", "assistant", "operator", "system"),
    "usage.action_": get_args(BudgetUpdate.model_fields["action"].annotation),
    "agent.change_": get_args(Change),
    "trace.status_": TURN_STATUSES,
    "language.": CHOICES["language"],
    "provider.": CHOICES["model_provider"],
    "judge.": CHOICES["grounding_judge"],
    "sensitivity.": CHOICES["injection_sensitivity"],
    "handoff.": CHOICES["handoff_on_request"],
    "scope.": SCOPES,
    "embedder.": EMBEDDERS,
    "users.": get_args(Done)[1:],
    "users.refused_": REFUSALS,
}
"""Each key prefix a template completes at render time (``t('prefix' ~ value)``), with the
vocabulary its value comes from."""


def _templates() -> str:
    return "\n".join(template.read_text() for template in TEMPLATES.glob("*.html"))


def test_every_text_of_the_templates_is_in_every_language() -> None:
    used = set(re.findall(r"t\('([a-z_]+\.[a-z_.]+)'\)", _templates()))
    used |= {prefix + value for prefix, values in DYNAMIC.items() for value in values}
    for lang in LANGUAGES[1:]:
        assert set(MESSAGES[lang]) == set(MESSAGES[LANGUAGES[0]]), lang
    assert used - set(MESSAGES[LANGUAGES[0]]) == set()
    assert (
        MESSAGES["es"]["nav.evaluation"] == "Evaluación" and MESSAGES["en"]["nav.inbox"] == "Inbox"
    )


def test_every_key_prefix_the_templates_complete_has_its_vocabulary_here() -> None:
    prefixes = set(re.findall(r"t\('([a-z_]+\.[a-z_]*)' ~", _templates()))
    assert prefixes, "the pattern finds the dynamic keys"
    assert prefixes - DYNAMIC.keys() == set(), "add the prefix and its vocabulary to DYNAMIC"
    assert DYNAMIC.keys() - prefixes == set(), "a prefix no template builds any more"


def test_every_turn_status_has_a_label_in_every_language() -> None:
    for lang in LANGUAGES:
        texts = MESSAGES[lang]
        missing = [s for s in TURN_STATUSES if not texts.get(f"trace.status_{s}")]
        assert missing == [], lang
    assert "tool_limit" in TURN_STATUSES


def test_the_evaluation_schema_accepts_every_turn_status() -> None:
    for status in TURN_STATUSES:
        assert CaseAssertions.model_validate({"status": status}).status == status


def test_a_tool_limited_run_shows_its_label_in_the_transcript() -> None:
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    message = SimpleNamespace(
        id=1,
        role="assistant",
        created_at=moment,
        content="No encontré…",
        run_id="run_1",
        moderation=None,
    )
    run = SimpleNamespace(
        status="tool_limit",
        duration_ms=12.0,
        usage=SimpleNamespace(total_tokens=30),
        cost_usd=0.0,
        model="mock",
        env="draft",
        version=1,
        channel="playground",
        stages=[],
    )
    for lang in LANGUAGES:
        html = ENV.get_template("transcript_fragment.html").render(
            t=translator(lang), messages=[message], runs={"run_1": run}
        )
        label = MESSAGES[lang]["trace.status_tool_limit"]
        assert f"· {label} ·" in html and "tool_limit" not in html, lang
