"""Console forms that are refused: the same page comes back with every typed value, the
problem next to its field in the page's language (never pydantic's English), and nothing
stored. Also the limits and choices the inputs take from the models."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from tests.stored import row_counts
from vigia.agents.models import Agent
from vigia.db.session import session_scope
from vigia.workspaces.models import Workspace


def _owner(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, "owner")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def _field_error(html: str, field: str) -> str:
    """The text of the message shown under ``field``."""
    found = re.search(rf'<span class="field-error" id="error-{field}"[^>]*>([^<]*)</span>', html)
    assert found, f"no message under {field}"
    return found.group(1)


def _draft(tenant: Tenant) -> dict[str, object]:
    with session_scope() as session:
        return dict(session.scalars(select(Agent.draft).where(Agent.id == tenant.agent_id)).one())


AGENT_FORM = {
    "name": "Asistente de ventas",
    "instructions": "Respondé en dos frases, siempre con una fuente.",
    "language": "es",
    "memory_turns": "6",
    "top_k": "3",
    "model_temperature": "0.4",
    "guardrail_injection": "log",
    "reply_greeting": "¡Hola! ¿En qué te ayudo?",
}


def test_an_invalid_agent_form_keeps_every_edit_and_names_the_field_in_spanish(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    before = _draft(tenant)
    form = {**AGENT_FORM, "csrf": token, "top_k": "50", "tools": '[{"name": "pedido"}]'}
    refused = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert refused.status_code == 422
    html = refused.text
    assert _field_error(html, "top_k") == "Tiene que ser 20 o menos."
    assert _field_error(html, "tools") == "n.º 1 · url: Falta completar este campo."
    assert 'name="top_k" type="number" value="50"' in html
    assert 'aria-invalid="true" aria-describedby="error-top_k"' in html
    assert "Respondé en dos frases, siempre con una fuente.</textarea>" in html
    assert 'value="Asistente de ventas"' in html and "¡Hola! ¿En qué te ayudo?</textarea>" in html
    assert '<option value="log" selected>registrar</option>' in html
    assert "Field required" not in html and "less than or equal" not in html
    assert "Hay datos para corregir" in html
    assert _draft(tenant) == before


def test_the_agent_form_speaks_english_when_the_page_does(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    client.cookies.set("vigia_lang", "en", path="/console")
    form = {**AGENT_FORM, "csrf": token, "max_message_chars": "123456", "name": "x" * 121}
    refused = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert refused.status_code == 422
    assert _field_error(refused.text, "max_message_chars") == "It must be 100,000 or less."
    assert _field_error(refused.text, "name") == "At most 120 characters."


def test_saving_the_form_keeps_the_settings_it_shows(client: TestClient, tenant: Tenant) -> None:
    """The fields the form now carries (sensitivity, tool rounds, handoff on request) are
    saved as chosen; a temperature of 0 stays 0."""
    base, token = _owner(client, tenant)
    form = {
        **AGENT_FORM,
        "csrf": token,
        "model_temperature": "0",
        "injection_sensitivity": "high",
        "tool_steps": "2",
        "handoff_on_request": "off",
    }
    saved = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert saved.status_code == 200
    draft = _draft(tenant)
    assert draft["model"]["temperature"] == 0  # type: ignore[index]
    assert draft["guardrails"]["injection_sensitivity"] == "high"  # type: ignore[index]
    assert draft["tool_steps"] == 2 and draft["handoff_on_request"] is False
    page = client.get(f"{base}/agents/{tenant.agent_slug}").text
    assert 'name="model_temperature" type="number" step="0.1" value="0.0"' in page
    assert '<option value="high" selected>alta</option>' in page
    assert '<option value="off" selected>no</option>' in page


def test_the_agent_form_takes_limits_and_choices_from_the_models(
    client: TestClient, tenant: Tenant
) -> None:
    base, _ = _owner(client, tenant)
    page = client.get(f"{base}/agents/{tenant.agent_slug}").text
    assert 'name="top_k" type="number" value="5" min="1" max="20"' in page
    assert 'name="model_temperature" type="number" step="0.1"' in page
    assert 'name="max_message_chars" type="number" value="4000" min="1" max="100000"' in page
    assert 'name="instructions" rows="6" maxlength="40000"' in page
    assert '<option value="local">local (GGUF)</option>' in page
    assert '<option value="pt">portugués</option>' in page


def test_a_taken_slug_keeps_the_typed_name_next_to_a_spanish_message(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    data = {"csrf": token, "slug": tenant.agent_slug, "name": "Otro asistente"}
    refused = client.post(f"{base}/agents", data=data)
    assert refused.status_code == 409
    assert _field_error(refused.text, "slug") == "Ya hay un agente con ese identificador."
    assert 'value="Otro asistente"' in refused.text
    long_name = client.post(f"{base}/agents", data={**data, "slug": "nuevo", "name": "n" * 121})
    assert long_name.status_code == 422 and "No se pudo" not in long_name.text
    assert _field_error(long_name.text, "name") == "Como máximo 120 caracteres."
    assert 'value="nuevo"' in long_name.text


def test_a_refused_budget_stays_on_its_page_with_the_typed_value(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    for typed, message in (("-5", "Tiene que ser 0 o más."), ("muchos", "El presupuesto es")):
        refused = client.post(
            f"{base}/usage/budget", data={"csrf": token, "budget_usd": typed, "action": "alert"}
        )
        assert refused.status_code == 422 and "No se pudo" not in refused.text
        assert _field_error(refused.text, "budget_usd").startswith(message)
        assert f'value="{typed}"' in refused.text
        assert '<option value="alert" selected>' in refused.text
    with session_scope() as session:
        workspace = session.get(Workspace, tenant.workspace_id)
        assert workspace is not None and workspace.budget_usd is None


def test_budget_and_usage_numbers_use_the_page_languages_separators(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    client.post(f"{base}/usage/budget", data={"csrf": token, "budget_usd": "1234.5"})
    assert "/ $1.234,50" in client.get(f"{base}/usage").text
    client.cookies.set("vigia_lang", "en", path="/console")
    assert "/ $1,234.50" in client.get(f"{base}/usage").text


def test_a_refused_key_keeps_its_fields(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    before = row_counts()
    data = {"csrf": token, "name": "web", "rpm": "0", "env": "draft", "scopes": ["decide"]}
    refused = client.post(f"{base}/keys", data=data)
    assert refused.status_code == 422
    assert _field_error(refused.text, "rpm") == "Tiene que ser 1 o más."
    assert 'name="name" value="web"' in refused.text
    assert '<option value="draft" selected>' in refused.text
    assert 'value="decide" checked' in refused.text and 'value="chat" checked' not in refused.text
    none = client.post(f"{base}/keys", data={**data, "rpm": "5", "scopes": []})
    assert _field_error(none.text, "scopes") == "Elegí al menos 1."
    assert row_counts() == before


def test_knowledge_creation_and_upload_errors_are_in_spanish(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    client.post(f"{base}/knowledge", data={"csrf": token, "name": "manual"})
    again = client.post(
        f"{base}/knowledge", data={"csrf": token, "name": "manual", "description": "otra"}
    )
    assert again.status_code == 409
    assert _field_error(again.text, "name") == "Ya hay una base con ese nombre en este espacio."
    assert 'value="otra"' in again.text
    blank = client.post(f"{base}/knowledge", data={"csrf": token, "name": "  "})
    assert blank.status_code == 422
    assert _field_error(blank.text, "name") == "No puede quedar vacío."
    kb_id = re.search(r'/knowledge/([0-9a-f-]{36})"', client.get(f"{base}/knowledge").text)
    assert kb_id
    refused = client.post(
        f"{base}/knowledge/{kb_id.group(1)}/documents",
        data={"csrf": token},
        files={"file": ("planilla.xlsx", b"PK\x03\x04 no", "application/vnd.ms-excel")},
    )
    assert refused.status_code == 415
    assert "Ese tipo de archivo no se admite" in refused.text
    assert "unsupported document type" not in refused.text


def test_the_evaluation_form_keeps_the_case_and_labels_statuses(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    refused = client.post(
        f"{base}/evaluation/{tenant.agent_slug}/cases",
        data={"csrf": token, "name": "horario", "input": "¿Abren el sábado?"},
    )
    assert refused.status_code == 422
    assert _field_error(refused.text, "assertions").startswith("Agregá al menos una condición")
    assert 'value="¿Abren el sábado?"' in refused.text
    assert '<option value="tool_limit">sin más pasos de herramientas</option>' in refused.text
