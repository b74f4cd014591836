"""`vigia knowledge add` (CLI.md): documents into the agent's draft knowledge, JSON out."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select
from typer.testing import CliRunner

from tests.conftest import Tenant
from tests.knowledge.documents import NOTES_MD, policy_pdf
from tests.knowledge.helpers import stored_counts
from vigia.agents.schemas import AgentConfig
from vigia.agents.service import get_agent
from vigia.db.session import session_scope
from vigia.knowledge import ingest, preparing, service
from vigia.knowledge.cli import app
from vigia.knowledge.models import KnowledgeUpload
from vigia.workspaces.service import find_workspace


def _draft(tenant: Tenant) -> AgentConfig:
    with session_scope() as session:
        return AgentConfig.model_validate(
            get_agent(session, tenant.workspace_id, tenant.agent_slug).draft
        )


def _published_kbs(tenant: Tenant) -> list[str]:
    from vigia.agents.service import resolve

    with session_scope() as session:
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        return resolve(session, agent, "production").config.knowledge_bases


def test_add_prints_documents_and_attaches_a_base_to_the_draft(
    tenant: Tenant, tmp_path: Path
) -> None:
    pdf = tmp_path / "Condiciones generales auto.pdf"
    pdf.write_bytes(policy_pdf())
    notes = tmp_path / "manual.md"
    notes.write_text(NOTES_MD)
    args = ["add", "--workspace", tenant.workspace_name, "--agent", tenant.agent_slug]
    result = CliRunner().invoke(app, [*args, str(pdf), str(notes), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    names = [(d["name"], d["chunks"] > 0) for d in payload["documents"]]
    assert names == [("Condiciones generales auto.pdf", True), ("manual.md", True)]
    draft = _draft(tenant)
    assert draft.knowledge_bases == [payload["knowledge_base_id"]]
    assert _published_kbs(tenant) == []  # production keys see it only after publishing

    again = CliRunner().invoke(app, [*args, str(notes), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["knowledge_base_id"] == payload["knowledge_base_id"]
    assert _draft(tenant).knowledge_bases == [payload["knowledge_base_id"]]
    assert stored_counts()["documents"] == 2


def test_a_bad_file_adds_nothing_and_reports_json(tenant: Tenant, tmp_path: Path) -> None:
    good = tmp_path / "manual.md"
    good.write_text(NOTES_MD)
    bad = tmp_path / "planilla.xlsx"
    bad.write_bytes(b"PK")
    args = ["add", "--workspace", tenant.workspace_id, "--agent", tenant.agent_slug]
    result = CliRunner().invoke(app, [*args, str(good), str(bad), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == "unsupported_media_type"
    assert stored_counts()["documents"] == 0
    assert _draft(tenant).knowledge_bases == []


def test_unknown_agent_is_an_error(tenant: Tenant, tmp_path: Path) -> None:
    notes = tmp_path / "manual.md"
    notes.write_text(NOTES_MD)
    result = CliRunner().invoke(
        app, ["add", "--workspace", tenant.workspace_name, "--agent", "nadie", str(notes), "--json"]
    )
    assert result.exit_code == 1 and json.loads(result.stdout)["error"] == "not_found"


def test_list_shows_a_background_upload_and_add_supersedes_it(
    tenant: Tenant, tmp_path: Path
) -> None:
    with session_scope() as session:  # as the server leaves a costly upload
        workspace = find_workspace(session, tenant.workspace_id)
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        kb = service.agent_knowledge_base(session, workspace, agent)
        ingest.queue(session, kb, preparing.check_upload("manual.md", b"# A\n\ntexto", None, None))
    listed = CliRunner().invoke(
        app, ["list", "--workspace", tenant.workspace_id, "--json"], catch_exceptions=False
    )
    documents = json.loads(listed.stdout)["knowledge_bases"][0]["document_list"]
    assert [(d["name"], d["status"]) for d in documents] == [("manual.md", "indexing")]
    notes = tmp_path / "manual.md"
    notes.write_text(NOTES_MD)
    args = ["add", str(notes), "--workspace", tenant.workspace_id, "--agent", tenant.agent_slug]
    added = CliRunner().invoke(app, [*args, "--json"], catch_exceptions=False)
    assert added.exit_code == 0, added.stdout
    assert json.loads(added.stdout)["documents"][0]["chunks"] >= 1  # indexed before it returns
    listed = CliRunner().invoke(app, ["list", "--workspace", tenant.workspace_id, "--json"])
    documents = json.loads(listed.stdout)["knowledge_bases"][0]["document_list"]
    assert [(d["name"], d["status"]) for d in documents] == [("manual.md", "ready")]
    with session_scope() as session:
        assert session.scalars(select(KnowledgeUpload)).all() == []
