"""The promptfoo export: assertion mapping, the env's configured replies, no secret."""

from __future__ import annotations

import pytest
import yaml

from tests.conftest import Tenant
from tests.eval_cases.helpers import DEFAULT_BLOCKED, add_case, blocked_case, passing_case
from vigia.agents.schemas import AgentCreate, AgentPatch, Replies
from vigia.agents.service import create_agent, get_agent, update_draft
from vigia.db.session import session_scope
from vigia.errors import Invalid, NotFound
from vigia.eval_cases.promptfoo import asserts, export, literal
from vigia.eval_cases.schemas import CaseAssertions
from vigia.kit.turn_status import TurnStatus
from vigia.workspaces.service import find_workspace

BASE = "http://127.0.0.1:8000/v1"
REPLIES = Replies(blocked="Bloqueado.", safe_output="Mejor no.")


def _export(tenant: Tenant, env: str = "production", base: str = BASE) -> dict[str, object]:
    with session_scope() as session:
        text, _count = export(session, tenant.workspace_name, tenant.agent_slug, env, base)
    return dict(yaml.safe_load(text))


def test_each_assertion_maps_to_promptfoos_own() -> None:
    assertions = CaseAssertions(
        contains=["Lunes"],
        not_contains=["sábado"],
        regex=r"\d+ horas",
        cites=True,
        max_chars=120,
    )
    assert asserts(assertions, REPLIES) == [
        {"type": "icontains", "value": "Lunes"},
        {"type": "not-icontains", "value": "sábado"},
        {"type": "regex", "value": r"\d+ horas"},
        {"type": "regex", "value": r"\[\d{1,3}\]"},
        {"type": "javascript", "value": "[...output].length <= 120"},
    ]


def test_statuses_map_to_the_texts_the_agent_answers_with() -> None:
    blocked = asserts(CaseAssertions(status="blocked"), REPLIES)
    assert blocked == [{"type": "icontains-any", "value": ["Bloqueado.", "Mejor no."]}]
    ok = asserts(CaseAssertions(status="ok"), REPLIES)
    assert ok == [
        {"type": "not-icontains", "value": "Bloqueado."},
        {"type": "not-icontains", "value": "Mejor no."},
    ]
    handoff = asserts(CaseAssertions(status="handoff"), REPLIES)
    assert handoff == [{"type": "icontains", "value": REPLIES.holding}]
    silent = asserts(CaseAssertions(status="handoff"), REPLIES.model_copy(update={"holding": ""}))
    assert silent == [{"type": "equals", "value": ""}]
    tool_limit = asserts(CaseAssertions(status="tool_limit"), REPLIES)
    assert tool_limit == [{"type": "icontains", "value": REPLIES.no_answer}]


@pytest.mark.parametrize("status", ["budget_exceeded", "error"])
def test_a_status_the_reply_text_cannot_show_is_not_exported(status: TurnStatus) -> None:
    with pytest.raises(Invalid, match=f"status '{status}' cannot be exported"):
        asserts(CaseAssertions(status=status), REPLIES)


def test_template_syntax_and_file_prefixes_stay_literal() -> None:
    assert literal("lunes") == "lunes"
    assert literal("{{ nombre }}") == "{% raw %}{{ nombre }}{% endraw %}"
    assert literal("file://etc/passwd") == "{% raw %}file://etc/passwd{% endraw %}"


def test_export_holds_provider_cases_and_no_secret(tenant: Tenant) -> None:
    first = passing_case(tenant)
    earlier = [
        {"role": "user", "content": "Hola"},
        {"role": "assistant", "content": "¡Hola! ¿En qué te ayudo?"},
    ]
    add_case(tenant, "¿Y el sábado?", history=earlier, contains=["no"])
    with session_scope() as session:
        text, count = export(session, tenant.workspace_name, tenant.agent_slug, "production", BASE)
    assert count == 2
    assert tenant.production_key not in text and tenant.draft_key not in text
    assert "sk-vigia-" not in text
    config = yaml.safe_load(text)
    assert config["providers"] == [
        {
            "id": f"openai:chat:{tenant.agent_slug}",
            "label": tenant.agent_slug,
            "config": {"apiBaseUrl": BASE, "apiKeyEnvar": "VIGIA_API_KEY"},
        }
    ]
    assert config["prompts"] == [{"raw": "{{ messages | dump }}", "label": "dialogue"}]
    test = config["tests"][0]
    assert test["metadata"] == {"vigia_case": first}
    assert test["vars"] == {
        "messages": [{"role": "user", "content": "¿Atienden de lunes a viernes?"}]
    }
    assert test["assert"][0] == {"type": "icontains", "value": "lunes a viernes"}
    with_history = config["tests"][1]
    assert with_history["description"] == "¿Y el sábado?"
    assert with_history["vars"]["messages"] == [
        *earlier,
        {"role": "user", "content": "¿Y el sábado?"},
    ]


def test_blocked_maps_to_the_blocked_reply_of_the_exported_env(tenant: Tenant) -> None:
    blocked_case(tenant)
    with session_scope() as session:
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        update_draft(session, agent, AgentPatch(replies=Replies(blocked="Eso no, perdón.")))
    production = _export(tenant, "production")["tests"][0]["assert"]  # type: ignore[index]
    draft = _export(tenant, "draft")["tests"][0]["assert"]  # type: ignore[index]
    assert production[0]["value"][0] == DEFAULT_BLOCKED
    assert draft[0]["value"][0] == "Eso no, perdón."


def test_named_document_is_exported_as_any_citation_and_flagged(tenant: Tenant) -> None:
    add_case(tenant, "¿Qué cubre?", cites_document="hogar.pdf")
    test = _export(tenant)["tests"][0]  # type: ignore[index]
    assert test["assert"] == [{"type": "regex", "value": r"\[\d{1,3}\]"}]
    assert test["metadata"]["not_checked"] == "which document is cited (hogar.pdf)"


def test_export_refuses_a_bad_base_url_and_an_unpublished_production(tenant: Tenant) -> None:
    with pytest.raises(Invalid, match="base URL must be an http"):
        _export(tenant, base="ftp://x/v1")
    with session_scope() as session:
        create_agent(
            session, find_workspace(session, tenant.workspace_id), AgentCreate(slug="nuevo")
        )
    with session_scope() as session, pytest.raises(NotFound, match="no published version"):
        export(session, tenant.workspace_name, "nuevo", "production", BASE)
