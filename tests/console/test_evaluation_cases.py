"""Editing and deleting an evaluation case in the console: the edit is what the next run
uses, a refused edit keeps what was typed and changes nothing, what the form cannot show
(a multi-turn history, other assertions) is kept, a deletion asks to be confirmed, and only
configurers of the case's own workspace and agent reach it. Runs are real turns with the
embedded model, which answers from the agent's instructions."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant, make_tenant
from tests.console.helpers import log_in, make_user
from vigia.agents.schemas import AgentCreate
from vigia.agents.service import create_agent
from vigia.conversations.models import Conversation, Message
from vigia.db.session import session_scope
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.models import EvalCase
from vigia.eval_cases.schemas import EvalCaseIn
from vigia.workspaces.models import Workspace

HOURS = {"input": "¿Atienden los lunes?", "assertions": {"contains": ["lunes a viernes"]}}


def _owner(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, "owner")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def _case(tenant: Tenant, **spec: object) -> str:
    """A stored case of the tenant's agent; its id."""
    with session_scope() as session:
        row = eval_cases.create_case(
            session,
            tenant.workspace_id,
            tenant.agent_id,
            EvalCaseIn.model_validate({"name": "horario", **HOURS, **spec}),
        )
        return row.id


def _stored(case_id: str) -> dict[str, object] | None:
    with session_scope() as session:
        row = session.get(EvalCase, case_id)
        if row is None:
            return None
        return {
            "name": row.name,
            "input": row.input,
            "history": row.history,
            "assertions": row.assertions,
        }


def _field_error(html: str, field: str) -> str:
    found = re.search(rf'<span class="field-error" id="error-{field}"[^>]*>([^<]*)</span>', html)
    assert found, f"no message under {field}"
    return found.group(1)


def _eval_inputs(tenant: Tenant) -> list[str]:
    """What the evaluation runs asked, in order."""
    with session_scope() as session:
        query = (
            select(Message.content)
            .join(Conversation, Conversation.id == Message.conversation_id)
            .where(Conversation.workspace_id == tenant.workspace_id)
            .where(Conversation.channel == "eval", Message.role == "user")
            .order_by(Message.id)
        )
        return list(session.scalars(query))


def test_an_edited_case_is_saved_and_the_next_run_uses_it(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    case_id = _case(tenant)
    url = f"{base}/evaluation/{tenant.agent_slug}/cases/{case_id}"
    shown = client.get(url)
    assert shown.status_code == 200
    assert (
        'value="¿Atienden los lunes?"' in shown.text and ">lunes a viernes</textarea>" in shown.text
    )
    listed = client.get(f"{base}/evaluation?agent={tenant.agent_slug}")
    assert f'href="{url}">horario</a>' in listed.text
    edit = {
        "csrf": token,
        "name": "fin de semana",
        "input": "¿Atienden los sábados?",
        "contains": "sábados y domingos\n\n9 a 18 horas",
        "status": "ok",
    }
    saved = client.post(url, data=edit, follow_redirects=False)
    assert saved.status_code == 303
    assert saved.headers["location"].endswith(
        f"/evaluation?agent={tenant.agent_slug}&saved=fin+de+semana"
    )
    assert "Caso guardado: fin de semana" in client.get(saved.headers["location"]).text
    assert _stored(case_id) == {
        "name": "fin de semana",
        "input": "¿Atienden los sábados?",
        "history": [],
        "assertions": {"contains": ["sábados y domingos", "9 a 18 horas"], "status": "ok"},
    }
    report = client.post(
        f"{base}/evaluation/{tenant.agent_slug}/run", data={"csrf": token, "env": "draft"}
    )
    assert "0 pasan · 1 fallan" in report.text
    assert "reply does not contain &#39;sábados y domingos&#39;" in report.text
    assert _eval_inputs(tenant) == ["¿Atienden los sábados?"]


def test_a_refused_edit_keeps_what_was_typed_in_spanish_and_the_stored_case(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    case_id = _case(tenant)
    before = _stored(case_id)
    url = f"{base}/evaluation/{tenant.agent_slug}/cases/{case_id}"
    edit = {"csrf": token, "name": "otro", "input": "¿Abren el sábado?", "contains": "x" * 501}
    refused = client.post(url, data=edit)
    assert refused.status_code == 422
    assert _field_error(refused.text, "contains") == "n.º 1: Como máximo 500 caracteres."
    assert 'value="otro"' in refused.text and 'value="¿Abren el sábado?"' in refused.text
    assert ">" + "x" * 501 + "</textarea>" in refused.text
    assert "Hay datos para corregir" in refused.text and "at most" not in refused.text.lower()
    empty = client.post(url, data={"csrf": token, "input": "¿Abren?"})
    assert empty.status_code == 422
    assert _field_error(empty.text, "assertions").startswith("Agregá al menos una condición")
    client.cookies.set("vigia_lang", "en", path="/console")
    english = client.post(url, data={**edit, "input": ""})
    assert english.status_code == 422
    assert _field_error(english.text, "input") == "It cannot be empty."
    assert _stored(case_id) == before


def test_an_edit_keeps_the_history_and_assertions_the_form_cannot_show(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    history = [
        {"role": "user", "content": "Hola, quería consultar los horarios."},
        {"role": "assistant", "content": "¡Claro! ¿Qué día te interesa?"},
    ]
    assertions = {"contains": ["lunes a viernes"], "regex": "9 a 18", "max_chars": 400}
    case_id = _case(tenant, history=history, assertions=assertions)
    url = f"{base}/evaluation/{tenant.agent_slug}/cases/{case_id}"
    shown = client.get(url)
    assert "se conserva tal cual al guardar" in shown.text
    assert "¡Claro! ¿Qué día te interesa?" in shown.text
    assert '<code>{"max_chars": 400, "regex": "9 a 18"}</code>' in shown.text
    listed = client.get(f"{base}/evaluation?agent={tenant.agent_slug}")
    assert '<span class="badge">3 mensajes</span>' in listed.text
    saved = client.post(
        url, data={"csrf": token, "name": "horario", "input": "¿Y los lunes?", "cites": "on"}
    )
    assert saved.status_code == 200
    assert _stored(case_id) == {
        "name": "horario",
        "input": "¿Y los lunes?",
        "history": history,
        "assertions": {"regex": "9 a 18", "max_chars": 400, "cites": True},
    }


def test_a_case_is_deleted_once_confirmed(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    case_id, other = _case(tenant), _case(tenant, name="otro")
    url = f"{base}/evaluation/{tenant.agent_slug}/cases/{case_id}"
    shown = client.get(url)
    assert f'action="{url}/delete"' in shown.text and "data-confirm=" in shown.text
    unconfirmed = client.post(f"{url}/delete", data={"csrf": token})
    assert unconfirmed.status_code == 422
    assert _field_error(unconfirmed.text, "confirm") == (
        "Marcá la casilla para confirmar el borrado."
    )
    assert _stored(case_id) is not None
    deleted = client.post(f"{url}/delete", data={"csrf": token, "confirm": "on"})
    assert deleted.status_code == 200 and "Caso borrado: horario" in deleted.text
    assert _stored(case_id) is None and _stored(other) is not None
    assert client.get(url).status_code == 404


def test_a_viewer_reads_a_case_and_cannot_change_it(client: TestClient, tenant: Tenant) -> None:
    case_id = _case(tenant)
    before = _stored(case_id)
    make_user("vera", tenant.workspace_id, "viewer")
    token = log_in(client, "vera")
    url = f"/console/w/{tenant.workspace_id}/evaluation/{tenant.agent_slug}/cases/{case_id}"
    shown = client.get(url)
    assert shown.status_code == 200 and "<fieldset disabled>" in shown.text
    assert "/delete" not in shown.text
    edit = {"csrf": token, "input": "otra cosa", "contains": "x"}
    assert client.post(url, data=edit).status_code == 403
    assert client.post(f"{url}/delete", data={"csrf": token, "confirm": "on"}).status_code == 403
    assert _stored(case_id) == before


def test_a_case_of_another_workspace_or_agent_is_not_found(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    other = make_tenant("globex", slug="otro")
    foreign = _case(other)
    with session_scope() as session:
        workspace = session.get(Workspace, tenant.workspace_id)
        assert workspace is not None
        create_agent(session, workspace, AgentCreate(slug="ventas"))
    mine = _case(tenant)
    before = _stored(foreign)
    attempts = [
        f"{base}/evaluation/{tenant.agent_slug}/cases/{foreign}",
        f"{base}/evaluation/ventas/cases/{mine}",
        f"/console/w/{other.workspace_id}/evaluation/otro/cases/{foreign}",
    ]
    for url in attempts:
        assert client.get(url).status_code == 404, url
        saved = client.post(url, data={"csrf": token, "input": "x", "contains": "y"})
        assert saved.status_code == 404, url
        gone = client.post(f"{url}/delete", data={"csrf": token, "confirm": "on"})
        assert gone.status_code == 404, url
    assert _stored(foreign) == before and _stored(mine) is not None
